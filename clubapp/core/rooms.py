"""Which room a request works in: resolved once, by :class:`RoomMiddleware`.

``request.room`` is the room of the request (docs/rooms.md):

1. a room whose ``host`` is the request's host name serves that host alone: a user of
   another room signed in there is in no room (a superuser may be anywhere);
2. where one host serves several rooms: the signed-in user's room (``UserRoom``); a
   superuser's room is the one chosen on the district page (kept in the session),
   else their own, else the first room;
3. nobody signed in (the login page): the host's room, else the default room.

A signed-in user left without a room (not placed in one, or at another room's host)
gets one clear page, whatever they asked for, except signing out and the pages that
need no room (the district page for a district reader).

On PostgreSQL the request runs in one transaction that sets ``app.room`` (``SET
LOCAL``): the row-level security policies (``clubapp.core.roomguards``) then show the
app's plain role only that room's rows, whatever a query forgets to filter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse

from clubapp.core.middleware import (
    DatabaseUnavailableMiddleware,
    cache_unavailable,
    connection_refused,
)
from clubapp.core.models import DEFAULT_ROOM_SLUG, Room, UserRoom

#: the session key of the room a superuser chose
SESSION_ROOM = "club_room"

#: URL names a signed-in user without a room may still reach
ROOMLESS_URL_NAMES = frozenset(
    {"logout", "login", "set_language", "healthz", "password_change", "password_change_done"}
    | {"district", "district_xlsx"}
)


def user_room(user: Any) -> Room | None:
    """The room the account belongs to (None: none yet, or a district reader)."""
    link = UserRoom.objects.select_related("room").filter(user=user).first()
    return link.room if link is not None else None


def resolve_room(request: HttpRequest) -> Room | None:
    host = request.get_host().rsplit(":", 1)[0].lower()
    by_host = Room.objects.filter(host=host).first() if host else None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return by_host or Room.objects.filter(slug=DEFAULT_ROOM_SLUG).first()
    if user.is_superuser:
        chosen = request.session.get(SESSION_ROOM)
        room = Room.objects.filter(pk=chosen).first() if chosen else None
        return room or by_host or user_room(user) or Room.objects.order_by("pk").first()
    own = user_room(user)
    if by_host is not None and own is not None and own.pk != by_host.pk:
        return None
    return own


def _set_room(value: str) -> str:
    """Sets ``app.room`` for the transaction; returns the value it had."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('app.room', true), set_config('app.room', %s, true)",
            [value],
        )
        return cursor.fetchone()[0] or ""


@contextmanager
def scope(room: Room | None) -> Iterator[None]:
    """Work in ``room``: on PostgreSQL one transaction in which ``app.room`` is the
    room's id (none: no room, so the plain role sees no room's rows), the room it
    was in before put back at the end (the district page reads room after room).
    Elsewhere nothing: SQLite has no row-level security; the queries filter by room."""
    if connection.vendor != "postgresql":
        yield
        return
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        before = _set_room(str(room.pk) if room else "")
        yield
        # An error rolls the transaction or savepoint back, and the setting with it; so
        # does the end of a transaction already marked for a rollback (a connection
        # lost under it: core/middleware.py), where no query may run. The outermost
        # keeps it to its COMMIT (where it ends by itself): the deferred checks run
        # there, under the policies (a hand's ledger lines, docs/play.md), and must
        # see the room's rows.
        if not outermost and not transaction.get_rollback():
            _set_room(before)


def _url_name(request: HttpRequest) -> str:
    try:
        return resolve(request.path_info).url_name or ""
    except Resolver404:
        return ""


class RoomMiddleware:
    """Sets ``request.room`` (after the session and the user) and runs the request in
    the room's scope; a signed-in user without a room gets the "no room" page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == reverse("healthz"):
            # the load balancer's probe: no room, no query but its own (it answers
            # whether the database does, even before the first migrate)
            request.room = None  # type: ignore[attr-defined]
            return self.get_response(request)
        try:
            room = resolve_room(request)
        except Exception as exc:
            # The first query of the request, and the session's first read: a refused
            # connection to the database, or to Redis with REDIS_URL, is the 503 page,
            # as DatabaseUnavailableMiddleware answers it in a view.
            if connection_refused(exc):
                return DatabaseUnavailableMiddleware.refuse(request, exc)
            if cache_unavailable(exc):
                return DatabaseUnavailableMiddleware.refuse_cache(request, exc)
            raise
        request.room = room  # type: ignore[attr-defined]
        user = getattr(request, "user", None)
        if (
            room is None
            and user is not None
            and user.is_authenticated
            and not user.is_superuser  # before any room exists: the admin makes one
            and _url_name(request) not in ROOMLESS_URL_NAMES
        ):
            return render(request, "core/room_none.html", status=403)
        with scope(room):
            return self.get_response(request)


def scoped(room: Room | None, body: Iterable[Any]) -> Iterator[Any]:
    """A streamed response's body, read in the room's scope: it is iterated after the
    middleware's transaction has ended."""
    with scope(room):
        yield from body
