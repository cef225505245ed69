"""Faults under a real server (issue 26.2; docs/operations.md "Faults"): gunicorn, as
production runs it (one worker process of four threads here), on the PostgreSQL test
database through a TCP relay of the test's own that it cuts to take the database away.
The phones book through the app's HTTP path as ``entry.js`` does (the confirm sent
with ``X-Entry-Confirm``, sent again with the same key while no answer comes).

PostgreSQL only: SQLite's test database lives in the test process's memory, out of a
server's reach (the SQLite faults: ``core/tests/test_database_unwritable.py``).
"""

from __future__ import annotations

import io
import os
import signal
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from clubapp.core.tests.faults import (
    Gunicorn,
    Phone,
    Relay,
    Sending,
    backend_gone,
    booking_waiting,
    eventually,
    lines_held,
    raw_request,
    server_database_url,
)
from clubapp.play import selectors
from clubapp.play.models import Hand, LedgerLine
from clubapp.play.tests.factories import TableSessionFactory, hand_data

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="gunicorn needs a database outside the test process: PostgreSQL, not "
        "SQLite's in-memory test database (run with DATABASE_URL=postgres://…)",
    ),
]

#: 南 wins on 东's discard: legal whoever deals
QUICK = hand_data(winners=["S"], discarder="E", **{"S-hard": "4", "S-soft": "0"})
#: the server's 503 page (templates/503.html)
BUSY = "服务器暂时繁忙"


@pytest.fixture(scope="module")
def relay(django_db_setup: Any) -> Iterator[Relay]:
    db = connection.settings_dict
    relayed = Relay(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    yield relayed
    relayed.close()


@pytest.fixture(scope="module")
def server(relay: Relay, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gunicorn]:
    """One gunicorn for the module (a boot is the slow part), reaching PostgreSQL
    through the relay."""
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    started = Gunicorn(server_database_url(relay.port), log)
    yield started
    started.stop()


@pytest.fixture(autouse=True)
def _whole_again(relay: Relay, server: Gunicorn) -> Iterator[None]:
    """Each test starts with the database reachable and the server running."""
    yield
    if relay.is_cut:
        relay.restore()
    if not server.running:
        server.start()


@pytest.fixture
def table(member: Any) -> Any:
    return TableSessionFactory(seated=member)


def _booked(session: Any) -> list[str]:
    """The keys of the session's journal, in order; every row numbered from 1 without a
    gap, its lines balanced, every stored state equal to its recomputation."""
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
    lines = LedgerLine.objects.filter(hand__session=session)
    assert sum(line.points for line in lines) == 0
    assert lines.count() == sum(hand.line_count for hand in hands)
    assert selectors.state_differences(session=session) == []
    out = io.StringIO()
    call_command("play_check", session=session.pk, stdout=out)  # exits 1 on a difference
    assert out.getvalue().endswith("1 sessions checked, 0 differences\n")
    return [str(hand.idempotency_key) for hand in hands]


def test_a_worker_killed_mid_booking_books_nothing_and_the_retry_books_once(
    server: Gunicorn, table: Any, member: Any
) -> None:
    phone = Phone(server.port, member)
    form = phone.preview(table.pk, QUICK)
    worker = server.worker()
    with lines_held():
        sending = Sending(lambda: phone.confirm(table.pk, form))
        # the hand's INSERT done, its lines' INSERT waiting, the transaction open
        backend = booking_waiting()
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(OSError):  # the phone gets no answer
            sending.answer()
    # PostgreSQL notices the lost client at its next read, and rolls back
    backend_gone(backend)
    assert _booked(table) == []
    assert not LedgerLine.objects.filter(room=table.room).exists()
    # entry.js sends the confirm again with the same key; gunicorn's master has
    # started a new worker meanwhile
    answer = phone.patiently(lambda: phone.confirm(table.pk, form))
    assert answer.json() == {"location": f"/play/{table.pk}/"}
    assert phone.confirm(table.pk, form).json() == {"location": f"/play/{table.pk}/"}
    assert _booked(table) == [form["key"]]
    assert server.worker() != worker


def test_a_phone_that_gives_up_while_its_hand_is_booked_gets_that_hand_on_sending_again(
    server: Gunicorn, table: Any, member: Any
) -> None:
    phone = Phone(server.port, member)
    form = phone.preview(table.pk, QUICK)
    request = raw_request(server.port, f"/play/{table.pk}/hands/book/", form, phone.cookies)
    with lines_held():
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            raw.sendall(request)
            booking_waiting()  # truly mid-request: the server is booking it
        # the phone has given up: its connection is closed before any answer
    # the server finishes the booking; its answer goes nowhere
    eventually(lambda: Hand.objects.filter(session=table).exists(), "the hand is booked")
    answer = phone.confirm(table.pk, form)
    assert answer.json() == {"location": f"/play/{table.pk}/"}
    assert _booked(table) == [form["key"]]


def test_a_phone_that_gives_up_while_sending_books_nothing_until_it_sends_again(
    server: Gunicorn, table: Any, member: Any
) -> None:
    phone = Phone(server.port, member)
    form = phone.preview(table.pk, QUICK)
    request = raw_request(server.port, f"/play/{table.pk}/hands/book/", form, phone.cookies)
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(request[: len(request) - 40])  # the last of the form never leaves
    answer = phone.confirm(table.pk, form)
    assert answer.json() == {"location": f"/play/{table.pk}/"}
    assert _booked(table) == [form["key"]]


def test_the_database_away_gives_the_503_page_and_the_app_recovers_by_itself(
    server: Gunicorn, relay: Relay, table: Any, member: Any
) -> None:
    phone = Phone(server.port, member)
    first = phone.book(table.pk, QUICK)
    form = phone.preview(table.pk, QUICK)
    worker = server.worker()
    logged = len(server.lines())
    relay.cut()
    page = phone.get(f"/play/{table.pk}/")
    assert page.status == 503 and page.headers["retry-after"] == "30"
    assert BUSY in page.body and "请等 30 秒后再试" in page.body
    health = phone.get("/healthz")
    assert (health.status, health.body) == (503, "database unavailable")
    confirm = phone.confirm(table.pk, form)  # entry.js sends it again later
    assert confirm.status == 503 and BUSY in confirm.body
    assert _booked(table) == [first]  # (the test's own connection, not the relay's)
    relay.restore()
    # no restart: the same worker connects again at its next request
    assert phone.confirm(table.pk, form).json() == {"location": f"/play/{table.pk}/"}
    assert phone.get("/healthz").body == "ok"
    assert phone.get(f"/play/{table.pk}/").status == 200
    assert _booked(table) == [first, form["key"]]
    assert server.worker() == worker
    lines = server.lines(logged)
    assert lines.count("database unavailable, answered 503") == 2  # the page, the confirm
    assert lines.count("healthz: database unavailable") == 1
    assert "Traceback" not in lines


def test_the_database_lost_in_the_middle_of_a_booking_saves_nothing_and_says_so(
    server: Gunicorn, relay: Relay, table: Any, member: Any
) -> None:
    phone = Phone(server.port, member)
    form = phone.preview(table.pk, QUICK)
    logged = len(server.lines())
    with lines_held():
        sending = Sending(lambda: phone.confirm(table.pk, form))
        backend = booking_waiting()
        relay.cut()  # the server's connection is lost inside the booking's transaction
        answer = sending.answer()
        assert answer.status == 503 and BUSY in answer.body
        assert phone.get("/healthz").status == 503
    backend_gone(backend)
    assert _booked(table) == []
    relay.restore()
    answer = phone.patiently(lambda: phone.confirm(table.pk, form))
    assert answer.json() == {"location": f"/play/{table.pk}/"}
    assert _booked(table) == [form["key"]]
    lines = server.lines(logged)
    assert "database unavailable, answered 503: POST" in lines
    assert "Traceback" not in lines


def test_a_restart_loses_nothing_a_phone_was_told_was_booked(
    server: Gunicorn, manager: Any
) -> None:
    """Three phones book at three tables while gunicorn reloads (SIGHUP: new workers,
    the old ones stopped gracefully) and then stops (SIGTERM, graceful) and starts
    again on the same port."""
    tables = [TableSessionFactory() for _ in range(3)]  # a manager books at every table
    phones = {session.pk: Phone(server.port, manager) for session in tables}
    told: dict[int, list[str]] = {session.pk: [] for session in tables}
    stop = threading.Event()
    errors: list[BaseException] = []

    def book_at(pk: int) -> None:
        try:
            while not stop.is_set():
                told[pk].append(phones[pk].book(pk, QUICK))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def booked_more_than(counts: dict[int, int]) -> dict[int, int]:
        """Waits until every phone was told of one more hand."""
        eventually(
            lambda: errors or all(len(told[pk]) > counts.get(pk, 0) for pk in told),
            "every phone books again",
        )
        assert errors == []
        return {pk: len(keys) for pk, keys in told.items()}

    threads = [threading.Thread(target=book_at, args=(pk,)) for pk in told]
    for thread in threads:
        thread.start()
    try:
        counts = booked_more_than({})
        server.reload()
        counts = booked_more_than(counts)
        server.stop()
        server.start()
        booked_more_than(counts)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert errors == []
    for session in tables:
        assert _booked(session) == told[session.pk]
