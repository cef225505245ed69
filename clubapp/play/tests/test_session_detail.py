"""The session page: seats with balances, the dealer, doubling, 园子, the latest hands,
what is owed since the last statement; the same few queries on any night."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import (
    TableSessionFactory,
    book,
    discard_win,
    drawn_hand,
    self_drawn,
)

pytestmark = pytest.mark.django_db


def test_it_shows_balances_and_hands(client, accountant):
    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    client.force_login(accountant)
    response = client.get(session.get_absolute_url())
    assert response.status_code == 200
    seats = {s["wind"]: s for s in response.context["seats"]}
    assert seats["E"]["balance"] == -28 and seats["S"]["balance"] == 28
    assert seats["S"]["dealer"] is True
    body = response.content.decode()
    assert "+28" in body and "-28" in body
    assert "南 小李 ← 东 老王 28" in re.sub(r"<[^>]+>", "", body)  # names, not winds
    assert reverse("play:hand", args=[session.pk, 1]) in body


def test_it_shows_the_doubling_for_the_next_hand(client, member):
    session = TableSessionFactory(seated=member)
    book(session, drawn_hand())
    client.force_login(member)
    response = client.get(session.get_absolute_url())
    assert response.context["state"].doubled is True
    assert "×2" in response.content.decode()


def test_it_shows_garden_balances(client, member):
    session = TableSessionFactory(mode="garden", garden_size=100, seated=member)
    book(session, discard_win("S", "E"))
    client.force_login(member)
    response = client.get(session.get_absolute_url())
    seats = {s["wind"]: s for s in response.context["seats"]}
    assert seats["E"]["garden"] == 72 and seats["S"]["garden"] == 128


def test_it_shows_each_new_row_statement_and_renamed_seat(client, member):
    session = TableSessionFactory(settle_every="hand", seated=member)
    client.force_login(member)

    def page():
        response = client.get(session.get_absolute_url())
        return {s["wind"]: s["balance"] for s in response.context["seats"]}, response

    hand = book(session, discard_win("S", "E"))
    assert page()[0]["S"] == 28
    services.hand_void(hand=hand, reason="错", by=None)
    balances, response = page()
    assert balances["S"] == 0 and "错" in response.content.decode()
    book(session, discard_win("S", "E"))
    balances, response = page()
    assert balances["S"] == 28 and response.context["pending"].due
    services.settlement_make(session=session, by=None)
    _balances, response = page()
    assert response.context["pending"] is None and len(response.context["statements"]) == 1


def test_it_lists_the_latest_hands_and_links_the_rest(client, member):
    session = TableSessionFactory(seated=member)
    for _ in range(10):
        book(session, drawn_hand())
    client.force_login(member)
    response = client.get(session.get_absolute_url())
    assert [line.hand.number for line in response.context["lines"]] == list(range(10, 2, -1))
    assert reverse("play:session_hands", args=[session.pk]) in response.content.decode()


def _queries(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def test_it_makes_the_same_queries_for_2_hands_as_for_200(client, member):
    short, long = TableSessionFactory(seated=member), TableSessionFactory(seated=member)
    client.force_login(member)
    for session, hands in ((short, 2), (long, 200)):
        for i in range(hands):
            book(session, self_drawn("E") if i % 2 else discard_win("S", "E"))
        if session is long:
            services.settlement_make(session=session, by=None)
            services.hand_void(hand=session.hands.get(number=3), reason="x", by=None)
    _queries(client, short.get_absolute_url())  # the session and the user warm up
    assert len(_queries(client, short.get_absolute_url())) == len(
        _queries(client, long.get_absolute_url())
    )


def test_outsiders_cannot_read_it(client, outsider):
    session = TableSessionFactory()
    client.force_login(outsider)
    assert client.get(session.get_absolute_url()).status_code == 403


def test_the_session_page_shows_seats_and_ruleset(client, accountant, manager):
    session = TableSessionFactory()
    client.force_login(accountant)
    body = client.get(session.get_absolute_url()).content.decode()
    assert "老王" in body and "赵姐" in body and session.ruleset.name in body
    assert session.ruleset.version not in body  # codes are for the rulesets page only
    client.force_login(manager)
    assert session.ruleset.version not in client.get(session.get_absolute_url()).content.decode()


def test_a_member_reads_only_a_table_where_they_sit(client, member, accountant):
    session = TableSessionFactory()
    client.force_login(member)
    assert client.get(reverse("play:session", args=[session.pk])).status_code == 403
    client.force_login(accountant)
    assert client.get(reverse("play:session", args=[session.pk])).status_code == 200
