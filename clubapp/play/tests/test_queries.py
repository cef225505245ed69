"""Query counts stay constant however many hands a table has booked."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

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
    client.get(small.get_absolute_url())  # warm the session and caches
    few = _count(lambda: client.get(small.get_absolute_url()))
    many = _count(lambda: client.get(big.get_absolute_url()))
    assert few == many


def test_the_session_page_query_count(client, member, django_assert_num_queries):
    session = TableSessionFactory()
    _fill(session, 5)
    client.force_login(member)
    client.get(session.get_absolute_url())
    # session + user (2), roles (1, and 1 for the menu), room (1), table session + seats (2),
    # entries: light (1) and the latest in full (1); last statement (1); every sum in
    # one query (1); statements (1)
    with django_assert_num_queries(12):
        client.get(session.get_absolute_url())


def test_booking_makes_the_same_queries_for_the_2nd_or_the_20th_hand(client, member):
    session = TableSessionFactory()
    url = reverse("play:hand_entry", args=[session.pk])
    data = {"winners": ["S"], "discarder": "E", "hard_S": "4", "soft_S": "0"}
    client.force_login(member)

    def confirm():
        preview = client.post(url, {"preview": "1", **data})
        ctx = preview.context
        payload = {"confirm": "1", **data, "key": ctx["key"], "previewed": ctx["previewed"]}
        payload["basis"] = ctx["basis"]
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
    # savepoint, lock, key check, number, entries (a few keys each), last statement,
    # sums, insert hand, insert lines, release
    with django_assert_num_queries(10):
        book(session, discard_win("S", "E"))
