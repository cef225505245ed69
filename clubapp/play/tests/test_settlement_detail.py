"""A statement's page: who pays whom, printable."""

from __future__ import annotations

import pytest

from clubapp.play import services
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, self_drawn

pytestmark = pytest.mark.django_db


def test_it_shows_the_nets_and_transfers_and_prints(client, member):
    session = TableSessionFactory(seated=member)
    book(session, discard_win("S", "E"))
    settlement = services.settlement_make(session=session, by=None)
    client.force_login(member)
    body = client.get(settlement.get_absolute_url()).content.decode()
    assert "东 老王 → 南 小李 <b>28</b>" in body and "data-print" in body


def test_a_garden_statement_shows_the_closed_garden(client, member):
    session = TableSessionFactory(
        mode="garden", garden_size=30, settle_every="garden", seated=member
    )
    book(session, self_drawn("E"))
    settlement = services.settlement_make(session=session, by=None)
    client.force_login(member)
    body = client.get(settlement.get_absolute_url()).content.decode()
    assert "东 老王 120" in body and "东 老王 30" in body


def test_accountants_read_statements(client, accountant):
    session = TableSessionFactory()
    book(session, discard_win())
    settlement = services.settlement_make(session=session, by=None)
    client.force_login(accountant)
    assert client.get(settlement.get_absolute_url()).status_code == 200
