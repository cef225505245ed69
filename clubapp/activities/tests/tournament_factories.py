"""Helpers of the tournaments' tests: members with valid cards, tournaments entered."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from clubapp.activities.models import Entrant, Format, Game, Tournament
from clubapp.activities.services import tournaments as services
from clubapp.members import services as member_services
from clubapp.members.models import Member, Table
from clubapp.members.tests.factories import make_id_number
from clubapp.play.tests.factories import shipped

NAMES = ("陈一", "林二", "张三", "李四", "王五", "赵六", "孙七", "周八", "吴九", "郑十")


def card_member(room: Any, manager: Any, n: int, *, user: Any = None) -> Member:
    """A member of ``room`` with a card valid today (its fee booked as the desk does)."""
    member = member_services.member_create(
        room=room,
        name=NAMES[n % len(NAMES)] + ("" if n < len(NAMES) else str(n)),
        phone=f"1390000{n:04d}",
        id_number=make_id_number(500 + n),
        user=user,
        by=manager,
    )
    member_services.card_issue(member=member, by=manager)
    return member


def tournament(
    room: Any,
    manager: Any,
    *,
    game: str = Game.XIANGQI,
    format: str = Format.SWISS,
    rounds: int = 3,
    fee: str = "0.00",
    **extra: Any,
) -> Tournament:
    today = timezone.localdate()
    if game == Game.MAHJONG:
        format = Format.TABLES
        extra.setdefault("ruleset", shipped("nanjing"))
    return services.tournament_create(
        room=room,
        name=extra.pop("name", "秋季象棋赛" if game != Game.MAHJONG else "麻将邀请赛"),
        game=game,
        format=format,
        starts=today,
        ends=today + dt.timedelta(days=1),
        rounds_planned=rounds,
        entry_fee=Decimal(fee),
        by=manager,
        **extra,
    )


def entered(room: Any, manager: Any, t: Tournament, count: int) -> list[Entrant]:
    return [
        services.entrant_add(tournament=t, member=card_member(room, manager, n), by=manager)
        for n in range(count)
    ]


def boards(room: Any, count: int) -> list[Table]:
    return [Table.objects.get_or_create(room=room, number=50 + n)[0] for n in range(count)]
