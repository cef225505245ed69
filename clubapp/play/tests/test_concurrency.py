"""Two (or eight) phones booking at one table at once: the row lock on the session
makes them take turns, so no number is booked twice or skipped, and each hand
sees the one before it. PostgreSQL only (SQLite ignores select_for_update)."""

from __future__ import annotations

import io
import queue
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Sum

import scoring.settle
from clubapp.core.tests.threads import race
from clubapp.play import selectors, services
from clubapp.play.models import SEATS, Hand, LedgerLine, Settlement
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, state_of

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


def test_a_statement_and_a_void_racing_bookings_leave_every_state_recomputable():
    """Issue 26.2: six phones book, a desk makes a statement and a manager voids a
    hand, at one table at once. They take turns under the session's lock: the stored
    states equal their recomputation (play_check), the journal's and the statements'
    numbers have no gap, every hand's lines sum to zero, the statement froze exactly
    the lines of its window."""
    session = TableSessionFactory()
    standing = [book(session, discard_win("N", "W")) for _ in range(3)]
    jobs: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
    for _ in range(6):
        jobs.put(lambda: book(session, discard_win("N", "W")))
    jobs.put(lambda: services.settlement_make(session=session, by=None))
    jobs.put(lambda: services.hand_void(hand=standing[1], reason="记错了", by=None))
    race(lambda: jobs.get_nowait()(), threads=8)

    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, 3 + 6 + 1 + 1))
    assert [hand.voids_id for hand in hands if hand.voids_id] == [standing[1].pk]
    lines = LedgerLine.objects.filter(hand__session=session)
    per_hand = lines.values("hand").annotate(total=Sum("points"))
    assert {row["total"] for row in per_hand} == {0}
    assert lines.count() == sum(hand.line_count for hand in hands)
    assert selectors.state_differences(session=session) == []
    out = io.StringIO()
    call_command("play_check", session=session.pk, stdout=out)  # exits 1 on a difference
    assert out.getvalue().endswith("1 sessions checked, 0 differences\n")

    (statement,) = Settlement.objects.filter(session=session)
    assert (statement.number, statement.first_number) == (1, 1)
    assert 3 <= statement.last_number <= len(hands)  # wherever its turn came
    window = lines.filter(hand__number__lte=statement.last_number)
    net = dict.fromkeys(SEATS, 0)
    for row in window.values("seat").annotate(total=Sum("points")):
        net[row["seat"]] = row["total"]
    assert statement.statement["net"] == net
    assert statement.statement["transfers"] == scoring.settle.fewest_transfers(net)
