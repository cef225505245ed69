"""The monthly report's table play: sessions and hands per ruleset, big hands, each
member's points (花 only, never money)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

import scoring.nanjing
import scoring.worksite
from clubapp.core.models import Room
from clubapp.members import selectors as members
from clubapp.play import selectors as play
from clubapp.play.models import TableSession
from clubapp.reports.selectors.common import SEAT_NAMES
from clubapp.reports.selectors.month import Month
from scoring.features import is_big_hand


@dataclass
class BigHand:
    played_at: dt.datetime
    table: int
    session_id: int
    number: int
    winner: str
    features: list[str]
    value: int


@dataclass
class PlaySection:
    """Table sessions that started in the month and their hands (points 花 only)."""

    key = "play"
    sessions: int
    hands: int
    voided: int
    #: (ruleset name, sessions, hands standing)
    by_ruleset: list[tuple[str, int, int]]
    big_hands: list[BigHand]
    #: (member name, card number, sessions, points), the month's points of each member
    member_points: list[tuple[str, str, int, int]]
    #: points of the seats that were not a member's (guests)
    guest_points: int
    guest_seats: int

    @property
    def points_balance(self) -> int:
        """Every hand's points sum to zero, so members' and guests' points do too."""
        return sum(p for *_rest, p in self.member_points) + self.guest_points


def _feature_names(family: str) -> dict[str, str]:
    return scoring.worksite.NAMES if family == "worksite" else scoring.nanjing.NAMES


def play_section(*, room: Room, month: Month, big_hands_limit: int = 100) -> PlaySection:
    sessions = play.sessions_started(room=room, start=month.start, end=month.end)
    per_ruleset_sessions = play.sessions_by_ruleset(sessions=sessions)
    per_ruleset_hands = play.hands_by_ruleset(sessions=sessions)
    names = sorted(set(per_ruleset_sessions) | set(per_ruleset_hands))
    by_ruleset = [
        (
            name,
            per_ruleset_sessions.get(name, 0),
            per_ruleset_hands.get(name, (0, 0))[0] - per_ruleset_hands.get(name, (0, 0))[1],
        )
        for name in names
    ]
    voided = sum(r for _p, r in per_ruleset_hands.values())
    seats = _seats_of(sessions, room=room)
    big = _big_hands(sessions, seats, big_hands_limit)
    member_points, guest_points, guest_seats = _points(sessions, seats)
    return PlaySection(
        sessions=sum(per_ruleset_sessions.values()),
        hands=sum(h for _n, _s, h in by_ruleset),
        voided=voided,
        by_ruleset=by_ruleset,
        big_hands=big,
        member_points=member_points,
        guest_points=guest_points,
        guest_seats=guest_seats,
    )


@dataclass(frozen=True)
class _SeatRow:
    name: str
    member_id: int | None
    member_name: str
    card: str


def _seats_of(sessions: QuerySet[TableSession], *, room: Room) -> dict[tuple[int, str], _SeatRow]:
    """Each seat of the sessions, with the member behind it: through the visit it was
    seated with, or through the member account that sat there."""
    rows = play.seats_of(sessions=sessions)
    by_user = members.members_of_users(
        room=room, user_ids={row.user_id for row in rows if row.user_id is not None}
    )
    ids = {row.visit_member_id for row in rows if row.visit_member_id is not None}
    ids |= set(by_user.values())
    people = members.members_by_pk(room=room, pks=ids)
    cards = members.current_card_numbers(room=room, members=ids)
    out = {}
    for row in rows:
        member_id = row.visit_member_id
        if member_id is None and row.user_id is not None:
            member_id = by_user.get(row.user_id)
        member = people.get(member_id) if member_id else None
        out[(row.session_id, row.wind)] = _SeatRow(
            name=row.name,
            member_id=member.pk if member else None,
            member_name=member.name if member else "",
            card=cards.get(member.pk, "") if member else "",
        )
    return out


def _big_hands(
    sessions: QuerySet[TableSession], seats: dict[tuple[int, str], _SeatRow], limit: int
) -> list[BigHand]:
    """The month's big hands in the order the nights were played, at most ``limit``:
    read a few sessions at a time, so that the database stops looking once the list
    is full (one regular expression over each hand's wins as a quick filter; each
    candidate checked exactly here)."""
    ids = play.session_ids(sessions=sessions)
    out: list[BigHand] = []
    for first in range(0, len(ids), 50):
        candidates = play.hands_maybe_big(session_ids=ids[first : first + 50])
        for session_id, number, created, table, family, wins, voided in candidates:
            if voided is not None:
                continue
            for win in wins or []:
                if not is_big_hand(family, win.get("features", [])):
                    continue
                seat = seats.get((session_id, win["seat"]))
                labels = _feature_names(family)
                out.append(
                    BigHand(
                        played_at=created,
                        table=table,
                        session_id=session_id,
                        number=number,
                        winner=f"{SEAT_NAMES[win['seat']]} {seat.name if seat else ''}".strip(),
                        features=[labels.get(f, f) for f in win.get("features", [])],
                        value=win.get("value", 0),
                    )
                )
            if len(out) >= limit:
                return out[:limit]
    return out


def _points(
    sessions: QuerySet[TableSession], seats: dict[tuple[int, str], _SeatRow]
) -> tuple[list[tuple[str, str, int, int]], int, int]:
    sums = play.points_by_seat(sessions=sessions)
    per_member: dict[int, list[Any]] = {}
    guest_points = 0
    guest_seats: set[tuple[int, str]] = set()
    for session_id, wind, points in sums:
        seat = seats.get((session_id, wind))
        if seat is None or seat.member_id is None:
            guest_points += points
            guest_seats.add((session_id, wind))
            continue
        row = per_member.setdefault(seat.member_id, [seat.member_name, seat.card, set(), 0])
        row[2].add(session_id)
        row[3] += points
    totals = [(name, card, len(s), points) for name, card, s, points in per_member.values()]
    totals.sort(key=lambda r: (-r[3], r[0]))
    return totals, guest_points, len(guest_seats)
