"""Core pages: the home page after login, and the health check."""

from __future__ import annotations

import logging

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


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


# The password pages are Django's, with our templates; never cached (shared phones).
password_change = never_cache(auth_views.PasswordChangeView.as_view())
password_reset_confirm = never_cache(auth_views.PasswordResetConfirmView.as_view())
