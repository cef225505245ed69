"""Demo data of the activities app (each part adds its own function; silent).

Everything is written through the services, so the rows are what the app itself
would have written: the entry fees are income with receipts, the 麻将 tables'
hands are booked through play's services and their ledgers are real.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubapp.activities.models import Format, Game, RankBy, RosterEntry, Tournament, ViolationKind
from clubapp.activities.selectors.duty import open_days
from clubapp.activities.services import checks as check_services
from clubapp.activities.services import duty as duty_services
from clubapp.activities.services import tournaments as tournament_services
from clubapp.core.models import Room
from clubapp.members import selectors as members_selectors
from clubapp.members import services as members_services
from clubapp.members.demo import demo_id_number
from clubapp.members.models import CardState, Member, Table
from clubapp.play import services as play_services
from scoring import ScoringError
from scoring.generate import random_hands

#: the tournaments' own players (members with a card), so that none of them is
#: seated at another demo table
PLAYERS = ("韩立", "厉飞雨", "南宫婉", "墨大夫", "陈巧倩", "董萱儿", "宋玉", "韩云芝")
MAHJONG = "冬季麻将邀请赛"
XIANGQI = "周末象棋瑞士制公开赛"
#: the room's tables the 麻将 tournament plays at (beside the demo's 1–6)
BOARDS = (7, 8)


def _players(room: Room, manager: Any, now: dt.datetime) -> list[Member]:
    members = []
    for n, name in enumerate(PLAYERS):
        member = Member.objects.filter(room=room, name=name).first()
        if member is None:
            member = members_services.member_create(
                room=room,
                name=name,
                phone=f"1380000{n + 20:04d}",
                id_number=demo_id_number(f"19{70 + n}0{n % 9 + 1}1{n % 9}", 300 + n),
                by=manager,
            )
        card = members_selectors.member_current_card(member=member)
        if card is None or card.state_on(timezone.localdate(now)) != CardState.ACTIVE:
            members_services.card_issue(member=member, by=manager, now=now - dt.timedelta(days=30))
        members.append(member)
    return members


def _book_hands(session: Any, seed: int, count: int, manager: Any) -> None:
    booked = 0
    for record in random_hands(seed, count * 4, "nanjing"):
        if booked == count:
            break
        try:
            play_services.hand_record(
                session=session, record=record, idempotency_key=uuid.uuid4(), by=manager
            )
        except ScoringError:
            continue
        booked += 1


def _mahjong(room: Room, manager: Any, players: list[Member], now: dt.datetime) -> None:
    versions = {v.ruleset_id: v for v in play_services.ruleset_versions_sync()}
    today = timezone.localdate(now)
    t = tournament_services.tournament_create(
        room=room,
        name=MAHJONG,
        game=Game.MAHJONG,
        format=Format.TABLES,
        starts=today,
        ends=today,
        rounds_planned=2,
        entry_fee=Decimal("20.00"),
        ruleset=versions["nanjing"],
        rank_by=RankBy.POINTS,
        placings="4,2,1,0",
        by=manager,
        now=now - dt.timedelta(hours=6),
    )
    for member in players:
        tournament_services.entrant_add(tournament=t, member=member, by=manager, late=True)
    boards = [Table.objects.get_or_create(room=room, number=n)[0] for n in BOARDS]
    for number, seed in ((1, 20261), (2, 20262)):
        started = now - dt.timedelta(hours=5 - 2 * (number - 1))
        round_ = tournament_services.round_draw(tournament=t, seed=seed, by=manager)
        for table, board in zip(round_.tables.order_by("number"), boards, strict=True):
            session = tournament_services.round_table_open(
                table=table, board=board, by=manager, started_at=started
            )
            _book_hands(session, seed * 10 + table.number, 6, manager)
            play_services.session_end(
                session=session, by=manager, ended_at=min(now, started + dt.timedelta(hours=2))
            )
    tournament_services.tournament_close(tournament=t, by=manager, now=now)


def _xiangqi(room: Room, manager: Any, players: list[Member], now: dt.datetime) -> None:
    today = timezone.localdate(now)
    t = tournament_services.tournament_create(
        room=room,
        name=XIANGQI,
        game=Game.XIANGQI,
        format=Format.SWISS,
        starts=today,
        ends=today + dt.timedelta(days=1),
        rounds_planned=5,
        by=manager,
    )
    for member in players:
        tournament_services.entrant_add(tournament=t, member=member, by=manager)
    first = tournament_services.round_pair(tournament=t, by=manager)
    for pairing in first.pairings.order_by("board"):
        # odd boards: the first wins; even boards: a draw
        score = (1, 0) if pairing.board % 2 else (1, 1)
        tournament_services.result_record(
            tournament=t, pairing=pairing, first_score=score[0], second_score=score[1], by=manager
        )
    second = tournament_services.round_pair(tournament=t, by=manager)
    for pairing in second.pairings.order_by("board")[:2]:
        tournament_services.result_record(
            tournament=t, pairing=pairing, first_score=0, second_score=1, by=manager
        )


def demo_tournaments(room: Room, manager: Any) -> None:
    """A finished 麻将 tournament (two rounds of two tables, drawn, hands booked,
    closed with its final standings) and a running 象棋 Swiss (eight entrants, round 1
    complete, round 2 paired with two results in). Runs once: a second call finds
    the tournaments and does nothing."""
    now = timezone.now()
    players: list[Member] | None = None
    if not Tournament.objects.filter(room=room, name=MAHJONG).exists():
        players = _players(room, manager, now)
        _mahjong(room, manager, players, now)
    if not Tournament.objects.filter(room=room, name=XIANGQI).exists():
        players = players or _players(room, manager, now)
        _xiangqi(room, manager, players, now)


@transaction.atomic
def demo_duty_and_checks(*, room: Room, managers: list[Any], approver: Any) -> None:
    """The last four weeks: a roster taking turns, one approved leave with its cover and
    its 销假, sign-ons with one late and one early, one open day nobody signed on, the
    day's checks ticked on most open days (some missed), one damage compensated, one
    smoking violation. Does nothing if the room already has a roster. ``managers``: two or
    more (one takes leave, the next covers); ``approver`` is neither."""
    if len(managers) < 2:
        raise ValueError("the demo's duty needs two managers: one on leave, one covering")
    if RosterEntry.objects.filter(room=room).exists():
        return
    today = timezone.localdate()

    def moment(day: dt.date, time: dt.time, minutes: int = 0) -> dt.datetime:
        return timezone.make_aware(dt.datetime.combine(day, time)) + dt.timedelta(minutes=minutes)

    days = open_days(room=room, days=[today - dt.timedelta(days=n) for n in range(28, 0, -1)])
    if len(days) < 12:
        return
    first = days[0][0]
    on_duty = {day: managers[n % len(managers)] for n, (day, _periods) in enumerate(days)}
    duty_services.roster_set(
        room=room,
        days={day: [user] for day, user in on_duty.items()},
        by=managers[0],
        now=moment(first, dt.time(8)),
    )
    # managers[0] on leave for two of their days, covered by managers[1]
    theirs = [day for day, user in on_duty.items() if user == managers[0]]
    away = theirs[len(theirs) // 2]
    leave = duty_services.leave_request(
        room=room,
        starts=away,
        ends=away + dt.timedelta(days=1),
        reason="家中有事",
        cover=managers[1],
        by=managers[0],
        now=moment(first, dt.time(9)),
    )
    duty_services.leave_decide(
        leave=leave, approved=True, note="同意", by=approver, now=moment(first, dt.time(10))
    )
    duty_services.leave_back(
        leave=leave,
        back_on=leave.ends + dt.timedelta(days=1),
        by=managers[0],
        now=moment(leave.ends + dt.timedelta(days=1), dt.time(8, 50)),
    )
    uncovered, late, early = days[-4][0], days[-8][0], days[-6][0]
    items = check_services.check_items_ensure(room=room, since=first)
    for n, (day, periods) in enumerate(days):
        if day == uncovered:
            continue
        user = managers[1] if leave.starts <= day <= leave.ends else on_duty[day]
        opens, closes = periods[0][0], periods[-1][1]
        duty_services.duty_sign_on(
            room=room, by=user, now=moment(day, opens, 25 if day == late else -5)
        )
        duty_services.duty_sign_off(
            room=room, by=user, now=moment(day, closes, -40 if day == early else 5)
        )
        for k, item in enumerate(items):
            if n % 7 == 3 and k == n % len(items):
                continue  # one item missed about once a week
            check_services.check_tick(
                item=item, day=day, by=user, now=moment(day, opens if k < 3 else closes, -10)
            )
    members = list(Member.objects.filter(room=room).order_by("pk")[:2])
    damage_day = days[-5][0]
    check_services.damage_record(
        room=room,
        day=damage_day,
        equipment="象棋一副（摔坏两枚棋子）",
        member=members[0] if members else None,
        payer="" if members else "散客",
        notes="按价赔偿",
        compensation=Decimal("30.00"),
        by=on_duty[damage_day],
        now=moment(damage_day, dt.time(15)),
    )
    if members:
        smoke_day = days[-3][0]
        check_services.violation_record(
            room=room,
            day=smoke_day,
            member=members[-1],
            kind=ViolationKind.SMOKING,
            notes="室内吸烟，已劝阻",
            by=on_duty[smoke_day],
            now=moment(smoke_day, dt.time(16)),
        )
