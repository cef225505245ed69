"""Every row of a session: its history, totals and statements."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, drawn_hand

pytestmark = pytest.mark.django_db


def test_it_lists_every_row_with_totals_and_statements(client, accountant):
    session = TableSessionFactory()
    for _ in range(10):
        book(session, drawn_hand())
    hand = book(session, discard_win("S", "E"))
    services.settlement_make(session=session, by=None)
    services.hand_void(hand=hand, reason="记错了", by=None)
    client.force_login(accountant)
    response = client.get(reverse("play:session_hands", args=[session.pk]))
    assert [line.hand.number for line in response.context["lines"]] == list(range(12, 0, -1))
    body = response.content.decode()
    assert "记错了" in body and reverse("play:settlement", args=[session.pk, 1]) in body
    seats = {s["wind"]: s["balance"] for s in response.context["seats"]}
    assert seats == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_a_member_reads_only_a_table_where_they_sit(client, member, accountant):
    session = TableSessionFactory()
    client.force_login(member)
    assert client.get(reverse("play:session_hands", args=[session.pk])).status_code == 403
    client.force_login(accountant)
    assert client.get(reverse("play:session_hands", args=[session.pk])).status_code == 200
