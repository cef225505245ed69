"""A hand's page: breakdown, payments, ledger lines, sign-offs, its reversal."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, self_drawn

pytestmark = pytest.mark.django_db


def test_it_shows_breakdown_payments_and_lines(client, accountant):
    session = TableSessionFactory()
    hand = book(session, self_drawn("E"))
    client.force_login(accountant)
    response = client.get(reverse("play:hand", args=[session.pk, hand.number]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "门清" in body and "跑20" in body and "→" in body
    assert "胡牌" in body and ">win<" not in body  # reasons by name, not code
    assert reverse("play:hand_void", args=[session.pk, hand.number]) not in body


def test_a_voided_hand_names_its_reversal_and_the_reversal_its_hand(client, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, self_drawn("E"))
    services.hand_void(hand=hand, reason="算错", by=None)
    client.force_login(member)
    body = client.get(reverse("play:hand", args=[session.pk, 1])).content.decode()
    assert "算错" in body
    body = client.get(reverse("play:hand", args=[session.pk, 2])).content.decode()
    assert "算错" in body


def test_an_unknown_hand_is_404(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    assert client.get(reverse("play:hand", args=[session.pk, 9])).status_code == 404


def test_a_member_reads_only_a_hand_of_a_table_where_they_sit(client, member, accountant):
    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    client.force_login(member)
    assert client.get(reverse("play:hand", args=[session.pk, 1])).status_code == 403
    client.force_login(accountant)
    assert client.get(reverse("play:hand", args=[session.pk, 1])).status_code == 200
