"""Core pages: the home page after login, and the health check."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from clubapp.core.clientip import client_ip
from clubapp.core.home import home_sections
from clubapp.core.http import AuthenticatedRequest
from clubapp.core.loginlimit import address_failures
from clubapp.core.middleware import RETRY_AFTER_SECONDS, cache_unavailable
from clubapp.core.models import Room
from clubapp.core.roles import user_roles
from clubapp.core.rooms import SESSION_ROOM

logger = logging.getLogger(__name__)


class LoginView(auth_views.LoginView):
    """Django's login; django-axes locks a (username, address) pair after a few failures,
    and this refuses an address that has failed too often with any usernames."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if address_failures(client_ip(request)) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            logger.warning("login refused: too many failures from one address")
            return render(
                request,
                "registration/locked_out.html",
                {
                    "failure_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
                    "cooloff_timedelta": settings.AXES_COOLOFF_TIME,
                },
                status=429,
            )
        return super().post(request, *args, **kwargs)


login = LoginView.as_view()


@login_required
def home(request: AuthenticatedRequest) -> HttpResponse:
    """One section per role the user has, each listing what waits for them there."""
    sections = home_sections(user=request.user, roles=user_roles(request.user), room=request.room)
    return render(request, "core/home.html", sections)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the database answers (and Redis, with ``REDIS_URL``), 503 "database
    unavailable" or "cache unavailable" when not. No login: probes have none."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return _unhealthy("database", error)
    if settings.REDIS_URL:
        # The sessions and the lockouts are there: without it no one signed in gets a
        # page (core/middleware.py cache_unavailable)
        try:
            cache.get("healthz")
        except Exception as error:
            if not cache_unavailable(error):
                raise
            return _unhealthy("cache", error)
    return HttpResponse("ok", content_type="text/plain")


def _unhealthy(what: str, error: Exception) -> HttpResponse:
    # One line, as for the pages (core/middleware.py): probes ask every few seconds.
    logger.warning("healthz: %s unavailable: %s", what, " ".join(str(error).split()))
    response = HttpResponse(f"{what} unavailable", status=503, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# The password pages are Django's, with our templates; never cached (shared phones).
password_change = never_cache(auth_views.PasswordChangeView.as_view())
password_reset_confirm = never_cache(auth_views.PasswordResetConfirmView.as_view())


@require_POST
@login_required
def room_switch(request: HttpRequest) -> HttpResponse:
    """The deployment's superuser works in the room chosen (kept in the session);
    everyone else belongs to one room and cannot switch."""
    if not request.user.is_superuser:
        raise PermissionDenied
    try:
        room = Room.objects.get(pk=int(request.POST.get("room", "")))
    except (ValueError, Room.DoesNotExist):
        raise Http404 from None
    request.session[SESSION_ROOM] = room.pk
    messages.success(request, _("You now work in %(room)s.") % {"room": room.name})
    return redirect("home")
