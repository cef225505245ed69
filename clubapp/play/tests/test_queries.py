"""Query counts stay constant however many hands a table has booked."""

from __future__ import annotations

import pytest
from django.db import connection  # noqa: F401
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubapp.play.tests.conftest import forget_states
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, self_drawn

pytestmark = pytest.mark.django_db


def _fill(session, n):
    for i in range(n):
        book(session, discard_win("S", "E") if i % 2 else self_drawn("W"))


def _count(fn):
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_the_session_page_makes_the_same_queries_for_2_or_20_hands(client, member):
    small, big = TableSessionFactory(), TableSessionFactory()
    _fill(small, 2)
    _fill(big, 20)
    client.force_login(member)
    client.get(small.get_absolute_url())  # the login's first request
    forget_states()
    cold = [_count(lambda s=s: client.get(s.get_absolute_url())) for s in (small, big)]
    warm = [_count(lambda s=s: client.get(s.get_absolute_url())) for s in (small, big)]
    assert cold[0] == cold[1] and warm[0] == warm[1]


def test_the_session_page_query_count(client, member, django_assert_num_queries):
    session = TableSessionFactory()
    _fill(session, 5)
    client.force_login(member)
    client.get(session.get_absolute_url())
    forget_states()
    # session + user (2), roles (1: the permission and the menu share it), room (1),
    # the table session with its ruleset, marks and seats (1); then the state: entries,
    # a few keys each (1), the latest in full (1), statements (1), every sum in one (1)
    with django_assert_num_queries(9):
        client.get(session.get_absolute_url())
    # the same state again comes from the cache, under the table's marks
    with django_assert_num_queries(5):
        client.get(session.get_absolute_url())
    book(session, discard_win("S", "E"))
    with django_assert_num_queries(9):
        response = client.get(session.get_absolute_url())
    assert response.context["state"].last_entry == 6


def test_booking_makes_the_same_queries_for_the_2nd_or_the_20th_hand(client, member):
    session = TableSessionFactory()
    url = reverse("play:hand_entry", args=[session.pk])
    data = {"winners": ["S"], "discarder": "E", "hard_S": "4", "soft_S": "0"}
    client.force_login(member)

    def confirm():
        preview = client.post(url, {"preview": "1", **data})
        ctx = preview.context
        payload = {"confirm": "1", **data, "key": ctx["key"], "previewed": ctx["previewed"]}
        payload["basis"], payload["ruleset"] = ctx["basis"], ctx["ruleset_token"]
        return lambda: client.post(url, payload)

    post = confirm()
    post()  # the first hand
    second = _count(confirm())
    _fill(session, 17)
    twentieth = _count(confirm())
    assert second == twentieth


def test_the_hand_service_query_count(django_assert_num_queries):
    session = TableSessionFactory()
    _fill(session, 3)
    # savepoint, the session read with its lock (FOR UPDATE on PostgreSQL; SQLite
    # locks the whole file on write), the marks read under it, entries (a few keys
    # each), the latest in full, statements, sums, insert hand, insert lines, release
    # (the state was not cached yet; the key's unique constraint catches a second submit)
    with django_assert_num_queries(10):
        book(session, discard_win("S", "E"))


def test_a_confirm_books_without_reading_the_table_first(client, member, django_assert_num_queries):
    """The preview page carries what the confirm needs; the booking reads and locks the
    table in one statement: session, user and roles, then the booking itself."""
    session = TableSessionFactory()
    _fill(session, 3)
    url = reverse("play:hand_entry", args=[session.pk])
    data = {"winners": ["S"], "discarder": "E", "hard_S": "4", "soft_S": "0"}
    client.force_login(member)
    ctx = client.post(url, {"preview": "1", **data}).context
    payload = {"confirm": "1", **data, "key": ctx["key"], "previewed": ctx["previewed"]}
    payload["basis"], payload["ruleset"] = ctx["basis"], ctx["ruleset_token"]
    # session + user (2), roles (1); then the booking: the session with its lock, the
    # marks, insert hand, insert lines (the state came from the preview), in a
    # transaction of its own (here a savepoint and its release, inside the test's)
    with django_assert_num_queries(9):
        response = client.post(url, payload)
    assert response.status_code == 302
    assert session.hands.count() == 4
