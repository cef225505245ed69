"""Sessions end after a time without requests (shared phones at the tables); a
database that refuses connections, or a Redis that does (``REDIS_URL``), gets a 503
page, not a 500 (DatabaseUnavailableMiddleware).


``SESSION_COOKIE_AGE`` (``SESSION_IDLE_HOURS``) is the idle time. Saving the session on
every request (``SESSION_SAVE_EVERY_REQUEST``) would renew it exactly, but costs a write
per page; this renews it at most every ``SESSION_RENEW_SECONDS`` (default 10 minutes),
so a session ends between the idle time and ten minutes less after the last request.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

SEEN_KEY = "club_seen_at"
#: seconds a refused client is asked to wait (Retry-After): a full pool frees within
#: seconds, a restarting server is back within about half a minute
RETRY_AFTER_SECONDS = 30


def mark_seen(sender: Any = None, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """On login (signal ``user_logged_in``): the session starts fresh."""
    if request is not None and hasattr(request, "session"):
        request.session[SEEN_KEY] = int(time.time())


class SessionIdleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code >= 500:
            # A failed request renews nothing (SessionMiddleware saves no session on a
            # 5xx either), and reading the user again would ask a database that failed.
            return response
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


def connection_refused(exception: BaseException) -> bool:
    """The database refused us a connection, or went away under it, as opposed to an
    error of a query on a working connection.

    Django connects lazily, at the first query, and a refused connection raises
    ``OperationalError`` from ``connect()`` leaving the connection unset: too many
    clients, the role's CONNECTION LIMIT, the server down or starting up, a bad
    password. A server lost under an open connection (stopped, restarted, the network
    cut) leaves psycopg's connection ``closed``; Django has dropped it already when the
    loss ended a transaction of its own. A query's ``OperationalError`` on a live
    connection (a lock or statement timeout, a deadlock, a serialization failure)
    leaves it open: that stays a 500 with its traceback, a bug or a contention to look
    into. PostgreSQL gives no SQLSTATE for a refused connection (psycopg's message is
    all), so the state of the connection, not the message, decides. Nothing of a
    transaction the server lost was saved: it rolls it back.
    """
    if not isinstance(exception, OperationalError):
        return False
    raw = connections[DEFAULT_DB_ALIAS].connection
    # (sqlite3's connection has no ``closed``: a file does not go away)
    return raw is None or bool(getattr(raw, "closed", False))


#: SQLite's result codes of a database it cannot write (the extended codes keep the
#: primary one in their low byte): SQLITE_FULL, the disk (or ``max_page_count``) full;
#: SQLITE_READONLY, a file, directory or file system it may only read
UNWRITABLE = frozenset({sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY})


def cannot_write(exception: BaseException) -> bool:
    """SQLite could not write the database: its disk is full or it is read-only. Django
    raises its ``OperationalError`` from sqlite3's, which says why."""
    cause = exception.__cause__
    return (
        isinstance(exception, OperationalError)
        and isinstance(cause, sqlite3.Error)
        and getattr(cause, "sqlite_errorcode", 0) & 0xFF in UNWRITABLE
    )


def cache_unavailable(exception: BaseException) -> bool:
    """Redis (``REDIS_URL``: the sessions' cache, the lockouts, the per-address login
    limit) refused the connection or did not answer in time. Answered like a database
    away: the 503 page, not a degraded mode. A session read from the database while
    Redis is away could not be written back to its cache, and a logout or a new
    password then would leave the old session in Redis, to be believed again when it
    returns; the lockouts cannot be checked, and a login that cannot be checked is
    refused rather than let through. The app recovers by itself when Redis answers."""
    return isinstance(exception, (RedisConnectionError, RedisTimeoutError))


def _page(template: str, context: dict[str, Any]) -> HttpResponse:
    """A 503 page rendered without the request's context (no session, no user, no
    room: each would ask the database), never cached."""
    response = HttpResponse(render_to_string(template, context), status=503)
    add_never_cache_headers(response)
    return response


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 page of a database away, with Retry-After."""
    response = _page(
        "503.html",
        {
            "seconds": RETRY_AFTER_SECONDS,
            # Only a GET is safe to repeat by a link; a form is sent again by the user.
            "retry_url": request.get_full_path() if request.method == "GET" else None,
        },
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    """503, a Chinese page and one log line (no traceback) when the database refuses
    the connection or went away (``connection_refused``: with Retry-After), or when
    SQLite cannot write (``cannot_write``: a full disk, a read-only file; nothing was
    saved); every other error goes on to Django's 500. The error is raised in the view
    (the first query: the session, the user, the page's data; or a write), where
    ``process_exception`` sees it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if connection_refused(exception):
            return self.refuse(request, exception)
        if cache_unavailable(exception):
            return self.refuse_cache(request, exception)
        if cannot_write(exception):
            logger.error("database cannot write, answered 503: %s %s: %s",
                         request.method, request.path, _one_line(exception))  # fmt: skip
            return _page("503_unsaved.html", {})
        return None

    @staticmethod
    def refuse(request: HttpRequest, exception: Exception) -> HttpResponse:
        # Dropped now: the end of the request's transaction then neither writes on it
        # nor connects again to do so (Django's atomic would, and fail again).
        connections[DEFAULT_DB_ALIAS].close()
        logger.warning("database unavailable, answered 503: %s %s: %s",
                       request.method, request.path, _one_line(exception))  # fmt: skip
        return database_unavailable(request)

    @staticmethod
    def refuse_cache(request: HttpRequest, exception: Exception) -> HttpResponse:
        logger.warning("cache (Redis) unavailable, answered 503: %s %s: %s",
                       request.method, request.path, _one_line(exception))  # fmt: skip
        return database_unavailable(request)


def _one_line(exception: Exception) -> str:
    """The error's own words on one line (psycopg's message spans lines)."""
    return " ".join(str(exception).split())
