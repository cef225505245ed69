"""结账: when a table is due to settle, and the statement frozen by settlement_make
(and its view, "Settle now")."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubapp.core.appendonly import AppendOnlyError
from clubapp.members.models import Table
from clubapp.play import services
from clubapp.play.models import SEATS, Settlement
from clubapp.play.tests.factories import (
    TableSessionFactory,
    book,
    discard_win,
    self_drawn,
    shipped,
    state_of,
)

pytestmark = pytest.mark.django_db


def _pass_the_deal(session):
    dealer = state_of(session).dealer
    right = SEATS[(SEATS.index(dealer) + 1) % 4]
    hard = 5 if session.ruleset.family == "worksite" else 4
    win = {"seat": right, "discarder": dealer, "hard_flowers": hard, "soft_flowers": 0}
    return book(session, {"wins": [win]})


def _points(session, hands: int) -> list[int]:
    """Book ``hands`` hands that each pass the deal, settling whenever a statement is
    due: the numbers of the hands after which it was."""
    points = []
    for _ in range(hands):
        hand = _pass_the_deal(session)
        if state_of(session).due:
            points.append(hand.number)
            services.settlement_make(session=session, by=None)
    return points


def test_nanjing_tables_settle_per_quan_by_default():
    assert _points(TableSessionFactory(settle_every="quan"), 9) == [4, 8]


def test_a_table_may_settle_every_hand_or_per_jiang_or_at_the_end():
    assert _points(TableSessionFactory(settle_every="hand"), 3) == [1, 2, 3]
    assert _points(TableSessionFactory(settle_every="jiang"), 17) == [16]
    end = TableSessionFactory(settle_every="session")
    assert _points(end, 5) == []
    services.session_end(session=end)
    final = end.settlements.get()  # the end freezes it
    assert (final.first_number, final.last_number) == (1, 5)


def test_worksite_tables_settle_the_first_quan_together_then_each_change():
    session = TableSessionFactory(ruleset=shipped("jiangsu-worksite"), settle_every="worksite")
    assert _points(session, 6) == [4, 5, 6]


def test_it_freezes_a_statement_of_the_window_since_the_last(member):
    session = TableSessionFactory(settle_every="hand", seated=member)
    book(session, discard_win("S", "E"))
    assert state_of(session).due
    first = services.settlement_make(session=session, by=member)
    assert (first.number, first.first_number, first.last_number) == (1, 1, 1)
    assert first.statement["net"] == {"E": -28, "S": 28, "W": 0, "N": 0}
    assert first.statement["transfers"] == [{"from": "E", "to": "S", "amount": 28}]
    assert first.statement["names"]["E"] == "老王"
    with pytest.raises(ValidationError):
        services.settlement_make(session=session, by=member)
    book(session, self_drawn("S"))
    assert state_of(session).unsettled == {"E": -50, "S": 150, "W": -50, "N": -50}
    second = services.settlement_make(session=session, by=member)
    assert (second.number, second.first_number, second.last_number) == (2, 2, 2)
    assert second.statement["net"] == {"E": -50, "S": 150, "W": -50, "N": -50}


def test_a_hand_voided_after_its_statement_is_reversed_in_the_next(member, manager):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    services.settlement_make(session=session, by=member)
    services.hand_void(hand=hand, reason="错", by=manager)
    later = services.settlement_make(session=session, by=member)
    assert later.statement["net"] == {"E": 28, "S": -28, "W": 0, "N": 0}
    assert later.statement["transfers"] == [{"from": "S", "to": "E", "amount": 28}]


def test_a_garden_table_settles_when_a_garden_closes_and_shows_it(member):
    room = TableSessionFactory(seated=member).room
    session = services.session_create(
        room=room,
        table=Table.objects.create(room=room, number=802),
        ruleset=shipped(),
        seats=[services.SeatIn(wind=w, name=w) for w in SEATS],
        by=None,
        mode="garden",
        garden_size=30,
    )
    assert session.settle_every == "garden"
    book(session, discard_win("S", "E"))
    assert not state_of(session).due
    book(session, self_drawn("E"))
    assert state_of(session).due
    statement = services.settlement_make(session=session, by=None).statement
    assert statement["garden"]["closed"] == [
        {"hand": 2, "left": {"E": 112, "S": 8, "W": 0, "N": 0}}
    ]
    assert statement["garden"]["number"] == 2
    # the statement is the 园子's final balances against its size
    assert statement["net"] == {"E": 112 - 30, "S": 8 - 30, "W": -30, "N": -30}


def test_a_statement_is_never_changed():
    session = TableSessionFactory()
    book(session, discard_win())
    settlement = services.settlement_make(session=session, by=None)
    with pytest.raises(AppendOnlyError):
        settlement.save()
    with pytest.raises(AppendOnlyError):
        Settlement.objects.all().delete()


def test_the_session_page_offers_to_settle_when_due(client, member):
    session = TableSessionFactory(settle_every="hand", seated=member)
    book(session, discard_win("S", "E"))
    client.force_login(member)
    body = client.get(session.get_absolute_url()).content.decode()
    assert reverse("play:settlement_create", args=[session.pk]) in body
    response = client.post(reverse("play:settlement_create", args=[session.pk]))
    settlement = Settlement.objects.get()
    assert response.status_code == 302 and response["Location"] == settlement.get_absolute_url()


def test_settling_nothing_says_so(client, member):
    session = TableSessionFactory(seated=member)
    client.force_login(member)
    response = client.post(reverse("play:settlement_create", args=[session.pk]), follow=True)
    assert not Settlement.objects.exists()
    assert [str(m) for m in response.context["messages"]] == ["上次结账后没有需要结算的记录。"]


def test_accountants_cannot_settle(client, accountant):
    session = TableSessionFactory()
    book(session, discard_win())
    client.force_login(accountant)
    assert client.post(reverse("play:settlement_create", args=[session.pk])).status_code == 403


def test_the_settle_button_of_an_ended_table_says_it_ended(client, member):
    session = TableSessionFactory(seated=member)
    book(session, discard_win("S", "E"))
    services.session_end(session=session)
    client.force_login(member)
    response = client.post(reverse("play:settlement_create", args=[session.pk]), follow=True)
    assert [str(m) for m in response.context["messages"]] == ["牌局已结束。"]
    assert session.settlements.count() == 1  # the end's own statement only
