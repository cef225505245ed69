"""No leak between two rooms, walked everywhere (issue 24, docs/rooms.md).

Two rooms, each with the whole demo (every feature, every state): room A first, then
every table's id counter is moved past ``FAR`` and room B is made, so that every row of
B has an id above ``FAR`` and every row of A one below. Then, as each of A's users:

- every page with an id in its address, given the first id of B (``FAR + 1``, which is
  B's first row of whatever the address names), answers 404 (or 403/405: no page for
  this user at all), by GET and by POST, and no POST changes a row anywhere; B's own
  user gets the same address (the walk is not vacuous: many of them answer B's user);
- every page without an id shows none of B: not its name, not one of its ids.

SQLite has no row-level security: these filters are all that keep the rooms apart
there. On PostgreSQL the same walk runs under the room policies too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from clubapp.core.management.commands.demo import DEMO_ACCOUNTS
from clubapp.core.management.commands.demo import Command as Demo
from clubapp.core.models import Room
from clubapp.core.roomguards import room_keyed_models
from clubapp.core.rooms import scope
from clubapp.core.services import user_create

FAR = 1_000_000
B_NAME = "乙区文化活动中心"
#: an id of B in a page: in a link, a form's value, a data attribute
B_ID = re.compile(r"(?<![\d.,-])10000\d\d(?![\d.,])")
#: addresses whose other numbers are not ids: a hand's or settlement's number in its
#: session, a year and a month
NOT_IDS = {"number": 1, "year": None, "month": None}
#: what a page may answer to an address of another room: no such page for this user
REFUSED = {403, 404, 405}
ROLES = [username for username, _, _ in DEMO_ACCOUNTS]


def _bump_ids(past: int) -> None:
    """Every table's next id comes after ``past``."""
    tables = [
        model._meta.db_table
        for model in apps.get_models(include_auto_created=True)
        if model._meta.pk is not None and model._meta.pk.get_internal_type().endswith("AutoField")
    ]
    with connection.cursor() as cursor:
        for table in tables:
            if connection.vendor == "sqlite":
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, past]
                )
            else:
                cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
                (sequence,) = cursor.fetchone()
                if sequence:
                    cursor.execute("SELECT setval(%s, %s)", [sequence, past])


def _demo_room(slug: str, name: str, prefix: str) -> tuple[Room, dict[str, Any]]:
    room, _ = Room.objects.get_or_create(slug=slug, defaults={"name": name})
    users = {
        username: user_create(
            username=prefix + username,
            password="correct-horse-battery",
            room=room,
            roles=[role],
            first_name=display,
        )
        for username, display, role in DEMO_ACCOUNTS
    }
    with scope(room):
        Demo.seed(room=room, users=users)
    return room, users


@pytest.fixture(scope="module")
def two_rooms(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any
) -> Iterator[dict[str, Any]]:
    media = tmp_path_factory.mktemp("media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            a, a_users = _demo_room("main", "甲区棋牌室", "")
            _bump_ids(FAR)
            b, b_users = _demo_room("b", B_NAME, "b-")
            yield {"a": a, "b": b, "a_users": a_users, "b_users": b_users, "media": media}
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _demo_media(two_rooms: dict[str, Any], settings: Any) -> None:
    """The photos the demo saved (each test otherwise gets a fresh media folder)."""
    settings.MEDIA_ROOT = two_rooms["media"]


def _patterns(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


def _addresses() -> tuple[list[str], list[str]]:
    """(addresses with B's first id, addresses without any id)."""
    today = timezone.localdate()
    with_id, without = [], []
    for route, _ in _patterns():
        if route.startswith("^") or "(?P" in route or route.startswith("accounts/reset"):
            continue
        names = re.findall(r"<(?:(\w+):)?(\w+)>", route)
        if not names:
            without.append("/" + route)
            continue
        kinds = {name: kind for kind, name in names}
        values: dict[str, Any] = {}
        has_id = False
        for name, kind in kinds.items():
            if name == "year":
                values[name] = today.year
            elif name == "month":
                values[name] = today.month
            elif name in NOT_IDS:
                values[name] = NOT_IDS[name]
            elif kind in ("int", "path"):
                values[name] = FAR + 1
                has_id = True
            else:
                values = {}
                break
        if not values:
            continue
        address = "/" + re.sub(
            r"<(?:\w+:)?(\w+)>", lambda m, values=values: str(values[m.group(1)]), route
        )
        (with_id if has_id else without).append(address)
    return with_id, without


def _counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=True)
    client.force_login(user)
    return client


def test_every_room_keyed_model_has_rows_in_both_rooms(two_rooms: dict[str, Any], db: Any) -> None:
    """The walk below means something only if both rooms have every kind of row."""
    empty = [
        (model._meta.label, room.slug)
        for model in room_keyed_models()
        for room in (two_rooms["a"], two_rooms["b"])
        if not model.objects.filter(room=room).exists()
    ]
    assert empty == []
    far = [
        model._meta.label
        for model in room_keyed_models()
        if model.objects.filter(room=two_rooms["a"], pk__gt=FAR).exists()
        or model.objects.filter(room=two_rooms["b"], pk__lte=FAR).exists()
    ]
    assert far == []


@pytest.mark.parametrize("role", ROLES)
def test_an_address_with_another_rooms_id_answers_not_found(
    two_rooms: dict[str, Any], db: Any, role: str
) -> None:
    with_id, _ = _addresses()
    mine, theirs = _client(two_rooms["a_users"][role]), _client(two_rooms["b_users"][role])
    before = _counts()
    leaks, served_b = [], 0
    for address in with_id:
        got = mine.get(address)
        if got.status_code not in REFUSED and not (
            address.startswith("/admin/") and got.status_code == 302
        ):
            leaks.append(("GET", address, got.status_code))
        served_b += theirs.get(address).status_code == 200
        posted = mine.post(address, {})
        if posted.status_code not in REFUSED and not (
            address.startswith("/admin/") and posted.status_code == 302
        ):
            leaks.append(("POST", address, posted.status_code))
    assert leaks == []
    assert _counts() == before
    if role in ("manager", "accountant"):
        # the same addresses are pages of B's own staff: the walk tried real rows
        assert served_b >= 10


@pytest.mark.parametrize("role", ROLES)
def test_no_page_shows_anything_of_another_room(
    two_rooms: dict[str, Any], db: Any, role: str
) -> None:
    _, without = _addresses()
    mine = _client(two_rooms["a_users"][role])
    seen, scanned = [], 0
    for address in without:
        got = mine.get(address)
        if got.status_code != 200 or not got.get("Content-Type", "").startswith("text/"):
            continue
        scanned += 1
        body = b"".join(got) if got.streaming else got.content
        text = body.decode("utf-8", "replace")
        if B_NAME in text or B_ID.search(text):
            seen.append((address, B_ID.findall(text)[:3]))
    assert seen == []
    assert scanned >= 5  # the member's pages too: home, their card, their history…
