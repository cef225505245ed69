"""The play app's demo data: sessions with hands booked through the service."""

from __future__ import annotations

import pytest

from clubapp.play import demo, selectors
from clubapp.play.models import Hand, Settlement, TableSession
from clubapp.play.tests.factories import state_of

pytestmark = pytest.mark.django_db


def test_it_seeds_three_tables_with_booked_hands(room, manager, member):
    demo.seed(room=room, users={"manager": manager, "member": member})
    sessions = list(TableSession.objects.order_by("table_number"))
    assert [s.table_number for s in sessions] == [1, 2, 3]
    assert [Hand.objects.filter(session=s).count() for s in sessions] == [12, 6, 8]
    assert sessions[1].mode == "garden" and sessions[2].ruleset.family == "worksite"
    assert Settlement.objects.count() == 1
    for session in sessions:
        assert sum(state_of(session).balances.values()) == 0
    assert selectors.member_stats(user=member).hands == 20
