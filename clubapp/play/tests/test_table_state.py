"""The table's state each booking stores on its row: dealer, 比下胡, 圈 and 将."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from clubapp.play import selectors
from clubapp.play.models import SEATS, Hand
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, shipped, state_of
from scoring import night

pytestmark = pytest.mark.django_db


def _pass_the_deal(session, times: int) -> None:
    """Book hands that each pass the deal: the dealer's right wins on the dealer's tile."""
    for _ in range(times):
        dealer = state_of(session).dealer
        right = SEATS[(SEATS.index(dealer) + 1) % 4]
        book(session, discard_win(right, dealer))


def test_a_new_table_starts_with_east_in_the_first_quan_of_the_first_jiang():
    session = TableSessionFactory()
    state = state_of(session)
    assert (state.dealer, state.doubled) == ("E", False)
    p = state.position
    assert (p.jiang, p.quan, p.turn, p.hand) == (1, 1, 1, 1)
    assert state.night_over(session.night()) is False


def test_four_changes_of_dealer_make_a_quan():
    session = TableSessionFactory()
    _pass_the_deal(session, 3)
    state = state_of(session)
    assert state.dealer == "N" and (state.position.quan, state.position.turn) == (1, 4)
    _pass_the_deal(session, 1)
    state = state_of(session)
    assert state.dealer == "E" and (state.position.jiang, state.position.quan) == (1, 2)


def test_four_quan_make_a_jiang_and_the_night_ends_after_its_jiang():
    session = TableSessionFactory(jiang_count=2)
    _pass_the_deal(session, 16)
    assert state_of(session).position.jiang == 2
    _pass_the_deal(session, 16)
    state = state_of(session)
    assert state.position.jiang == 3 and state.night_over(session.night()) is True


def test_a_third_jiang_by_agreement_keeps_the_night_going():
    session = TableSessionFactory(jiang_count=3)
    _pass_the_deal(session, 32)
    assert state_of(session).night_over(session.night()) is False


def test_each_hand_knows_its_jiang_and_quan():
    session = TableSessionFactory()
    _pass_the_deal(session, 5)
    lines = selectors.journal_lines(session=session)[::-1]
    assert [(line.position.quan, line.position.turn) for line in lines] == [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 1),
    ]


def test_the_doubling_comes_from_the_previous_result():
    session = TableSessionFactory()
    book(session, {"wins": []})  # a drawn hand forms 比下胡 and keeps the dealer
    state = state_of(session)
    assert (state.dealer, state.doubled) == ("E", True)
    book(session, discard_win("S", "E"))
    assert state_of(session).doubled is False


def test_a_worksite_dealer_stays_while_winning_and_never_doubles():
    session = TableSessionFactory(ruleset=shipped("jiangsu-worksite"))
    win = {"seat": "E", "hard_flowers": 5, "soft_flowers": 0, "features": []}
    first = book(session, {"wins": [win]})
    assert first.record["doubled"] is False
    state = state_of(session)
    assert (state.dealer, state.doubled) == ("E", False)
    book(session, {"wins": [{**win, "seat": "S", "discarder": "E"}]})
    assert state_of(session).dealer == "S"


def test_the_page_shows_jiang_and_quan(client, member):
    session = TableSessionFactory(seated=member)
    _pass_the_deal(session, 4)
    client.force_login(member)
    response = client.get(session.get_absolute_url())
    assert response.context["state"].position.quan == 2
    assert "圈 2" in response.content.decode() or "第 2 圈" in response.content.decode()


# issue 22 item 1: the state mapped once, one name from scoring.night to the column


def test_every_field_of_the_state_has_exactly_one_column_of_its_name():
    state_fields = [field.name for field in dataclasses.fields(night.State)]
    assert ["number", *Hand.STATE_FIELDS] == state_fields
    columns = {field.name for field in Hand._meta.concrete_fields}
    assert set(state_fields) <= columns


def test_a_state_goes_into_its_columns_and_comes_back_the_same():
    garden = night.State(
        number=7,
        dealer="W",
        doubled=True,
        passes=9,
        hands=6,
        balances=MappingProxyType({"E": 10, "S": -4, "W": -6, "N": 0}),
        unsettled={"E": 2, "S": -2, "W": 0, "N": 0},
        due=True,
        garden=3,
        garden_left={"E": 40, "S": 60, "W": 50, "N": 50},
    )
    for state in (night.State(number=7), garden):
        fields = Hand.state_fields(state)
        assert all(type(fields[name]) is dict for name in ("balances", "unsettled"))
        assert Hand(number=7, **fields).state() == state


def test_the_stored_state_comes_back_from_the_database_as_it_was_booked():
    session = TableSessionFactory()
    hand = book(session, {"wins": []})
    assert Hand.objects.get(pk=hand.pk).state() == state_of(session)
    assert state_of(session).number == hand.number == 1
