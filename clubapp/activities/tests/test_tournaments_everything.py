"""The tournaments' append-only rows (a result, final standings), written by the
services for ``clubapp/core/tests/test_appendonly.py`` (through ``everything.py``)."""

from __future__ import annotations

import pytest

from clubapp.activities.models import FinalStanding, Result
from clubapp.activities.services import tournaments as services
from clubapp.activities.tests.tournament_factories import entered, tournament
from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory


def tournaments_one_of_everything() -> None:
    room = RoomFactory()
    manager = UserFactory(roles=[Role.MANAGER])
    t = tournament(room, manager, name="一应俱全杯")
    entered(room, manager, t, 2)
    pairing = services.round_pair(tournament=t, by=manager).pairings.get()
    services.result_record(tournament=t, pairing=pairing, first_score=1, second_score=0, by=manager)
    services.tournament_close(tournament=t, by=manager)


@pytest.mark.django_db
def test_it_writes_a_row_of_each_append_only_table():
    tournaments_one_of_everything()
    assert Result.objects.count() == 1
    assert FinalStanding.objects.count() == 2
