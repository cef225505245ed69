"""Core pages: the home page after login, and the health check."""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_required
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from clubapp.core.roles import Role, user_roles
from clubapp.core.selectors import room_get
from clubapp.reports.selectors import today_desk

logger = logging.getLogger(__name__)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    context = {}
    roles = user_roles(request.user)
    room = room_get()
    if (Role.MANAGER in roles or Role.ACCOUNTANT in roles) and room.pk is not None:
        # Their home page is today's page (the reports app reads it from the other apps).
        context["today"] = today_desk(room=room)
    return render(request, "core/home.html", context)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the database answers, 503 when it does not. No login: probes have none."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: database query failed")
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
