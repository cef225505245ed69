"""The tournaments' demo: a finished 麻将 tournament and a running 象棋 Swiss."""

from __future__ import annotations

import pytest

from clubapp.activities.demo import MAHJONG, XIANGQI, demo_tournaments
from clubapp.activities.models import FinalStanding, Result, Tournament
from clubapp.activities.selectors import tournaments as selectors
from clubapp.play.models import LedgerLine

pytestmark = pytest.mark.django_db


def test_it_seeds_both_tournaments_once(room, manager):
    demo_tournaments(room, manager)
    demo_tournaments(room, manager)
    mahjong = Tournament.objects.get(name=MAHJONG)
    assert mahjong.is_closed
    assert mahjong.rounds.count() == 2
    tables = [t for r in mahjong.rounds.all() for t in r.tables.all()]
    assert len(tables) == 4 and all(t.session and t.session.ended_at for t in tables)
    assert LedgerLine.objects.filter(hand__session__in=[t.session for t in tables]).exists()
    final = FinalStanding.objects.filter(tournament=mahjong)
    assert final.count() == 8
    assert sum(f.points for f in final) == 0  # the ledgers are zero-sum
    assert mahjong.entrants.filter(fee__isnull=False).count() == 8
    swiss = Tournament.objects.get(name=XIANGQI)
    assert not swiss.is_closed
    rounds = selectors.rounds_view(tournament=swiss)
    assert [len(v.pairings) for v in rounds] == [4, 4]
    assert [v.missing for v in rounds] == [0, 2]
    assert Result.objects.filter(pairing__round__tournament=swiss).count() == 6
    assert Tournament.objects.count() == 2
