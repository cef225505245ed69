"""Two (or eight) phones booking at one table at once: the row lock on the session
makes them take turns, so no number is booked twice or skipped, and each hand
sees the one before it. PostgreSQL only (SQLite ignores select_for_update)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, connections

from clubapp.play import selectors, services
from clubapp.play.models import Hand, LedgerLine
from clubapp.play.tests.factories import TableSessionFactory, discard_win, state_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite ignores select_for_update: run with DATABASE_URL=postgres://…",
    ),
]


def _race(session, keys):
    """Book one hand per key, each in its own thread and connection, all at once."""
    barrier = threading.Barrier(len(keys))
    errors: list[BaseException] = []
    booked: list[int] = []

    def phone(key):
        try:
            barrier.wait()
            # a discard win by whoever sits right of the dealer keeps every record legal
            hand = services.hand_record(
                session=session, record=_next_win(session), idempotency_key=key, by=None
            )
            booked.append(hand.pk)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(key,)) for key in keys]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    return booked


def _next_win(session):
    # Every record is a discard win by N on W's tile: legal whoever deals.
    return discard_win("N", "W")


def test_it_books_each_hand_once_with_numbers_in_order():
    session = TableSessionFactory()
    booked = _race(session, [uuid.uuid4() for _ in range(8)])
    assert len(set(booked)) == 8
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [h.number for h in hands] == list(range(1, 9))
    # each hand was scored on the state the one before left (dealer and doubling)
    for before, after in zip(hands, hands[1:], strict=False):
        assert after.record["dealer"] == before.result["next"]["dealer"]
        assert after.record["doubled"] == before.result["next"]["doubled"]
    assert LedgerLine.objects.filter(hand__session=session).count() == 16
    # each stored state was computed under the lock from the row before it
    lines = LedgerLine.objects.filter(hand__session=session)
    assert state_of(session).balances["N"] == sum(
        lines.filter(seat="N").values_list("points", flat=True)
    )
    assert selectors.state_differences(session=session) == []


def test_a_double_tap_on_two_connections_books_once():
    session = TableSessionFactory()
    key = uuid.uuid4()
    booked = _race(session, [key, key, key])
    assert len(set(booked)) == 1
    assert Hand.objects.filter(session=session).count() == 1
