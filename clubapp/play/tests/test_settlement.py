"""Settlement (结帐): when a table settles, the frozen statement, fewest transfers."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubapp.core.appendonly import AppendOnlyError
from clubapp.play import selectors, services
from clubapp.play.models import SEATS, Settlement
from clubapp.play.tests.factories import (
    TableSessionFactory,
    book,
    discard_win,
    self_drawn,
    shipped,
)


@pytest.mark.parametrize(
    ("net", "count"),
    [
        ({"E": 10, "S": -10, "W": 5, "N": -5}, 2),
        ({"E": 7, "S": 3, "W": -6, "N": -4}, 3),
        ({"E": 30, "S": -10, "W": -10, "N": -10}, 3),
        ({"E": 0, "S": 0, "W": 0, "N": 0}, 0),
        ({"E": 6, "S": -6, "W": 0, "N": 0}, 1),
        ({"E": 5, "S": 5, "W": -6, "N": -4}, 3),
    ],
)
def test_it_settles_with_the_fewest_transfers(net, count):
    transfers = selectors.fewest_transfers(net)
    assert len(transfers) == count
    settled = dict(net)
    for t in transfers:
        assert t["amount"] > 0
        settled[t["from"]] += t["amount"]
        settled[t["to"]] -= t["amount"]
    assert set(settled.values()) <= {0}


def _pass_the_deal(session, times):
    for _ in range(times):
        dealer = selectors.table_state(session).dealer
        book(session, discard_win(SEATS[(SEATS.index(dealer) + 1) % 4], dealer))


def _points(session):
    state = selectors.table_state(session)
    return [e.number for e in selectors.settlement_points(session, state)]


@pytest.mark.django_db
def test_nanjing_tables_settle_per_quan_by_default():
    session = TableSessionFactory(settle_every="quan")
    _pass_the_deal(session, 9)
    assert _points(session) == [4, 8]


@pytest.mark.django_db
def test_a_table_may_settle_every_hand_or_per_jiang_or_at_the_end():
    every = TableSessionFactory(settle_every="hand")
    _pass_the_deal(every, 3)
    assert _points(every) == [1, 2, 3]
    jiang = TableSessionFactory(settle_every="jiang")
    _pass_the_deal(jiang, 17)
    assert _points(jiang) == [16]
    end = TableSessionFactory(settle_every="session")
    _pass_the_deal(end, 5)
    assert _points(end) == []
    state = selectors.table_state(end)
    assert selectors.settlement_pending(end, state).due is False
    services.session_end(session=end)
    end.refresh_from_db()
    assert selectors.settlement_pending(end, selectors.table_state(end)).due is True


@pytest.mark.django_db
def test_worksite_tables_settle_the_first_quan_together_then_each_change():
    session = TableSessionFactory(ruleset=shipped("jiangsu-worksite"), settle_every="worksite")
    for _ in range(6):
        dealer = selectors.table_state(session).dealer
        right = SEATS[(SEATS.index(dealer) + 1) % 4]
        book(
            session,
            {"wins": [{"seat": right, "discarder": dealer, "hard_flowers": 5, "soft_flowers": 0}]},
        )
    assert _points(session) == [4, 5, 6]


@pytest.mark.django_db
def test_it_freezes_a_statement_of_the_window_since_the_last(member):
    session = TableSessionFactory(settle_every="hand")
    book(session, discard_win("S", "E"))
    state = selectors.table_state(session)
    assert selectors.settlement_pending(session, state).due is True
    first = services.settlement_make(session=session, user=member)
    assert (first.number, first.first_entry, first.last_entry) == (1, 1, 1)
    assert first.statement["net"] == {"E": -28, "S": 28, "W": 0, "N": 0}
    assert first.statement["transfers"] == [{"from": "E", "to": "S", "amount": 28}]
    assert first.statement["names"]["E"] == "老王"
    assert selectors.settlement_pending(session, selectors.table_state(session)) is None
    with pytest.raises(ValidationError):
        services.settlement_make(session=session, user=member)
    book(session, self_drawn("S"))
    second = services.settlement_make(session=session, user=member)
    assert (second.number, second.first_entry, second.last_entry) == (2, 2, 2)
    assert second.statement["net"] == {"E": -50, "S": 150, "W": -50, "N": -50}


@pytest.mark.django_db
def test_a_hand_voided_after_its_statement_is_reversed_in_the_next(member):
    session = TableSessionFactory()
    hand = book(session, discard_win("S", "E"))
    services.settlement_make(session=session, user=member)
    services.hand_void(hand=hand, reason="错", user=member)
    later = services.settlement_make(session=session, user=member)
    assert later.statement["net"] == {"E": 28, "S": -28, "W": 0, "N": 0}
    assert later.statement["transfers"] == [{"from": "S", "to": "E", "amount": 28}]


@pytest.mark.django_db
def test_a_garden_table_settles_when_a_garden_closes_and_shows_it(member):
    session = services.session_create(
        room=TableSessionFactory().room,
        table_number=2,
        ruleset=shipped(),
        seats=[services.SeatIn(wind=w, name=w) for w in SEATS],
        user=member,
        mode="garden",
        garden_size=30,
    )
    assert session.settle_every == "garden"
    book(session, discard_win("S", "E"))
    assert _points(session) == []
    book(session, self_drawn("E"))
    assert _points(session) == [2]
    statement = services.settlement_make(session=session, user=member).statement
    assert statement["garden"]["closed"] == [
        {"hand": 2, "left": {"E": 112, "S": 8, "W": 0, "N": 0}}
    ]
    assert statement["garden"]["number"] == 2
    # the statement is the 园子's final balances against its size
    assert statement["net"] == {"E": 112 - 30, "S": 8 - 30, "W": -30, "N": -30}


@pytest.mark.django_db
def test_a_statement_is_never_changed():
    session = TableSessionFactory()
    book(session, discard_win())
    settlement = services.settlement_make(session=session, user=None)
    with pytest.raises(AppendOnlyError):
        settlement.save()
    with pytest.raises(AppendOnlyError):
        Settlement.objects.all().delete()


# pages


@pytest.mark.django_db
def test_the_session_page_offers_to_settle_when_due(client, member):
    session = TableSessionFactory(settle_every="hand")
    book(session, discard_win("S", "E"))
    client.force_login(member)
    body = client.get(session.get_absolute_url()).content.decode()
    assert reverse("play:settlement_create", args=[session.pk]) in body
    response = client.post(reverse("play:settlement_create", args=[session.pk]))
    settlement = Settlement.objects.get()
    assert response.status_code == 302 and response["Location"] == settlement.get_absolute_url()
    page = client.get(settlement.get_absolute_url())
    assert page.status_code == 200
    assert "28" in page.content.decode() and "data-print" in page.content.decode()


@pytest.mark.django_db
def test_settling_nothing_says_so(client, member):
    session = TableSessionFactory()
    client.force_login(member)
    response = client.post(reverse("play:settlement_create", args=[session.pk]), follow=True)
    assert not Settlement.objects.exists()
    assert len(list(response.context["messages"])) == 1


@pytest.mark.django_db
def test_accountants_read_statements_but_cannot_settle(client, accountant):
    session = TableSessionFactory()
    book(session, discard_win())
    settlement = services.settlement_make(session=session, user=None)
    client.force_login(accountant)
    assert client.get(settlement.get_absolute_url()).status_code == 200
    assert client.post(reverse("play:settlement_create", args=[session.pk])).status_code == 403
