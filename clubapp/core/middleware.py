"""Sessions end after a time without requests (shared phones at the tables).

``SESSION_COOKIE_AGE`` (``SESSION_IDLE_HOURS``) is the idle time. Saving the session on
every request (``SESSION_SAVE_EVERY_REQUEST``) would renew it exactly, but costs a write
per page; this renews it at most every ``SESSION_RENEW_SECONDS`` (default 10 minutes),
so a session ends between the idle time and ten minutes less after the last request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

SEEN_KEY = "club_seen_at"


def mark_seen(sender: Any = None, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """On login (signal ``user_logged_in``): the session starts fresh."""
    if request is not None and hasattr(request, "session"):
        request.session[SEEN_KEY] = int(time.time())


class SessionIdleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is not None and user is not None and user.is_authenticated:
            now = int(time.time())
            if now - int(session.get(SEEN_KEY, 0)) >= settings.SESSION_RENEW_SECONDS:
                # A change: SessionMiddleware saves it, with a fresh expiry date.
                session[SEEN_KEY] = now
        return response


class RoomLanguageMiddleware:
    """The room speaks Chinese whatever the browser asks; English only by the switch.

    Django's LocaleMiddleware takes the language from the switch's cookie, then from
    the browser's Accept-Language, then LANGUAGE_CODE. A phone set to English must not
    turn the room's pages English, so the header is dropped before LocaleMiddleware
    reads it; the cookie (the language switch in the footer) still decides.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
