"""The activities app's overview: what is planned, held and running."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from clubapp.activities.permissions import public_required


@public_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "activities/home.html", {})
