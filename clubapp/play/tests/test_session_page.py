"""The session page: seats with balances, the dealer, doubling, 园子, hands."""

from __future__ import annotations

import pytest
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
    assert reverse("play:hand", args=[session.pk, 1]) in body


def test_it_shows_the_doubling_for_the_next_hand(client, member):
    session = TableSessionFactory()
    book(session, drawn_hand())
    client.force_login(member)
    response = client.get(session.get_absolute_url())
    assert response.context["state"].doubled is True
    assert "×2" in response.content.decode()


def test_it_shows_garden_balances(client, member):
    session = TableSessionFactory(mode="garden", garden_size=100)
    book(session, discard_win("S", "E"))
    client.force_login(member)
    response = client.get(session.get_absolute_url())
    seats = {s["wind"]: s for s in response.context["seats"]}
    assert seats["E"]["garden"] == 72 and seats["S"]["garden"] == 128


def test_the_hand_page_shows_breakdown_payments_and_lines(client, accountant):
    session = TableSessionFactory()
    hand = book(session, self_drawn("E"))
    client.force_login(accountant)
    response = client.get(reverse("play:hand", args=[session.pk, hand.number]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "门清" in body and "跑20" in body and "→" in body
    assert reverse("play:hand_void", args=[session.pk, hand.number]) not in body


def test_the_hand_page_of_a_voided_hand_names_the_reversal(client, member):
    session = TableSessionFactory()
    hand = book(session, self_drawn("E"))
    services.hand_void(hand=hand, reason="算错", user=None)
    client.force_login(member)
    body = client.get(reverse("play:hand", args=[session.pk, 1])).content.decode()
    assert "算错" in body
    body = client.get(reverse("play:hand", args=[session.pk, 2])).content.decode()
    assert "算错" in body


def test_an_unknown_hand_is_404(client, member):
    session = TableSessionFactory()
    client.force_login(member)
    assert client.get(reverse("play:hand", args=[session.pk, 9])).status_code == 404


def test_the_cached_state_follows_every_new_entry_and_statement(client, member):
    session = TableSessionFactory(settle_every="hand")
    client.force_login(member)

    def seats():
        response = client.get(session.get_absolute_url())
        return {s["wind"]: s["balance"] for s in response.context["seats"]}, response

    hand = book(session, discard_win("S", "E"))
    assert seats()[0]["S"] == 28
    services.hand_void(hand=hand, reason="错", user=None)
    assert seats()[0]["S"] == 0
    book(session, discard_win("S", "E"))
    balances, response = seats()
    assert balances["S"] == 28 and response.context["pending"].due
    services.settlement_make(session=session, user=None)
    balances, response = seats()
    assert response.context["pending"] is None and len(response.context["settlements"]) == 1


def test_the_cached_page_shows_each_new_state_and_renamed_seats(client, member):
    from clubapp.play.models import Seat

    session = TableSessionFactory()
    client.force_login(member)
    book(session, discard_win("S", "E"))
    body = client.get(session.get_absolute_url()).content.decode()
    assert body.count("+28") >= 2  # the seat and the hand row
    hand = book(session, discard_win("W", "S"))
    body = client.get(session.get_absolute_url()).content.decode()
    assert reverse("play:hand", args=[session.pk, hand.number]) in body
    Seat.objects.filter(session=session, wind="W").update(name="新来的")
    assert "新来的" in client.get(session.get_absolute_url()).content.decode()


def test_the_session_is_read_with_its_ruleset_marks_and_seats_in_one_query(
    django_assert_num_queries,
):
    from django.http import Http404

    from clubapp.play import selectors
    from clubapp.play.models import Seat

    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    selectors.session_get(session.pk)  # the ruleset row is read once per process
    with django_assert_num_queries(1):
        got = selectors.session_get(session.pk)
        assert [(s.wind, s.name) for s in got.seat_list()] == [
            ("E", "老王"), ("S", "小李"), ("W", "阿张"), ("N", "赵姐")
        ]  # fmt: skip
        assert (got.last_entry, got.last_statement) == (1, 0)
        assert got.ruleset.ruleset_id == "nanjing" and got.is_open
    # the seats are the rows themselves, field by field
    for seat in got.seat_list():
        assert seat.session_id == session.pk and not seat._state.adding
        row = Seat.objects.values().get(pk=seat.pk)
        assert {k: getattr(seat, k) for k in row} == row
    empty = TableSessionFactory(seats=False)
    assert selectors.session_get(empty.pk).seat_list() == []
    with pytest.raises(Http404):
        selectors.session_get(empty.pk + 1000)
    light = selectors.session_get(session.pk, seats=False)
    assert light.last_entry == 1 and "_seat_list" not in light.__dict__
    assert [s.wind for s in light.seat_list()] == list("ESWN")  # read when asked
