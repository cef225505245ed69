"""Demo data of the tournaments: a finished 麻将 tournament and a running 象棋 Swiss.

Everything is written through the services, so the rows are what the app itself
would have written: the entry fees are income with receipts, the 麻将 tables'
hands are booked through play's services and their ledgers are real.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

from django.utils import timezone

from clubapp.activities.models import Format, Game, RankBy, Tournament
from clubapp.activities.services import tournaments as tournament_services
from clubapp.core.models import Room
from clubapp.members import selectors as members_selectors
from clubapp.members import services as members_services
from clubapp.members.demo import demo_id_number, demo_photo
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
                photo=demo_photo(("#c8d8e8", "#e8d8c8", "#d8e8c8", "#e0d0e8")[n % 4]),
            )
        card = members_selectors.member_current_card(member=member)
        if card is None or card.state_on(timezone.localdate(now)) != CardState.ACTIVE:
            members_services.card_issue(member=member, by=manager, now=now)
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
