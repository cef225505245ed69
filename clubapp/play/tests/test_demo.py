"""The play app's demo data: sessions with hands booked through the service."""

from __future__ import annotations

import pytest

from clubapp.members import demo as members_demo
from clubapp.members import selectors as members_selectors
from clubapp.play import demo, selectors, services
from clubapp.play.models import Hand, HandSignoff, Seat, Settlement, TableSession, VoidRequest
from clubapp.play.tests.factories import state_of

pytestmark = pytest.mark.django_db


def _seed(room, manager, member):
    users = {"manager": manager, "member": member}
    members_demo.seed(room=room, users=users)
    demo.seed(room=room, users=users)


def test_it_seeds_three_tables_with_booked_hands(room, manager, member):
    _seed(room, manager, member)
    sessions = list(TableSession.objects.order_by("table_number"))
    assert [s.table_number for s in sessions] == [1, 2, 3]
    # table 2: six hands and the reversal of one
    assert [Hand.objects.filter(session=s).count() for s in sessions] == [12, 7, 8]
    assert sessions[1].mode == "garden" and sessions[2].ruleset.family == "worksite"
    assert Settlement.objects.count() == 1
    for session in sessions:
        assert sum(state_of(session).balances.values()) == 0
    assert selectors.member_stats(room=room, user=member).hands == 20


def test_it_shows_a_voided_hand_and_hands_confirmed_by_a_player(room, manager, member):
    _seed(room, manager, member)
    one, two, _three = TableSession.objects.order_by("table_number")
    reversal = Hand.objects.get(voids__isnull=False)
    assert reversal.session == two and reversal.voids.number == 6
    assert reversal.recorded_by == manager and reversal.void_reason
    signoffs = HandSignoff.objects.order_by("hand__number")
    assert [(s.hand.session, s.hand.number, s.user) for s in signoffs] == [
        (one, 1, member),
        (one, 2, member),
        (one, 3, member),
    ]
    assert {s.seat for s in signoffs} == {"E"}


def test_every_seat_is_a_checked_in_visit_and_the_states_show(room, manager, member):
    _seed(room, manager, member)
    assert not Seat.objects.filter(visit__isnull=True).exists()
    one, two, three = TableSession.objects.order_by("table_number")
    assert not one.is_open and two.is_open and three.is_open
    assert services.session_may_reopen(one)
    states = {t.number: state for t, state in members_selectors.tables_all(room=room)}
    assert (states[1], states[2], states[3], states[4]) == ("occupied", "play", "play", "free")
    pending = VoidRequest.objects.get()
    assert pending.hand.session == three and pending.requested_by == member
    # 散客小王 is checked in and at no table: the new-table form offers them
    assert [v.visitor_name for v in selectors.visits_seatable(room=room)] == ["散客小王"]
