"""The monthly report's table play: sessions and hands per ruleset, big hands, each
member's points (花 only, never money)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

import scoring.nanjing
import scoring.worksite
from clubapp.core.models import Room
from clubapp.members.models import Card, CardStatus, Member
from clubapp.play.models import (
    Hand,
    LedgerLine,
    Seat,
    TableSession,
)
from clubapp.reports.selectors.common import SEAT_NAMES
from clubapp.reports.selectors.month import Month, in_month
from scoring.features import big_hand_codes, is_big_hand


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


def big_hand_pattern(family: str) -> str:
    """A regular expression over a hand's wins (JSON text) that every big win of
    ``family`` matches (``scoring.features.big_hand_codes``): the database's quick
    filter; each candidate is checked exactly with ``is_big_hand``."""
    return '"(' + "|".join(sorted(big_hand_codes(family))) + ')"'


def _big_candidates() -> Q:
    worksite = Q(ruleset__family="worksite")
    return (worksite & Q(result__wins__regex=big_hand_pattern("worksite"))) | (
        ~worksite & Q(result__wins__regex=big_hand_pattern("nanjing"))
    )


def _feature_names(family: str) -> dict[str, str]:
    return scoring.worksite.NAMES if family == "worksite" else scoring.nanjing.NAMES


def play_section(*, room: Room, month: Month, big_hands_limit: int = 100) -> PlaySection:
    sessions = (
        TableSession.objects.filter(room=room).filter(in_month(month, "started_at")).order_by()
    )
    hands = Hand.objects.filter(session__in=sessions).order_by()
    per_ruleset_sessions = {
        row["ruleset__name"]: row["n"]
        for row in sessions.values("ruleset__name").annotate(n=Count("id"))
    }
    per_ruleset_hands = {
        row["ruleset__name"]: (row["played"], row["reversals"])
        for row in hands.values("ruleset__name").annotate(
            played=Count("id", filter=Q(voids__isnull=True)),
            reversals=Count("id", filter=Q(voids__isnull=False)),
        )
    }
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
    seats = _seats_of(sessions)
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


def _seats_of(sessions: QuerySet[TableSession]) -> dict[tuple[int, str], _SeatRow]:
    """Each seat of the sessions, with the member behind it: through the visit it was
    seated with, or through the member account that sat there."""
    seats = Seat.objects.filter(session__in=sessions).values_list(
        "session_id", "wind", "name", "user_id", "visit__member_id"
    )
    rows = list(seats)
    users = {user for *_rest, user, _m in rows if user is not None}
    by_user = dict(Member.objects.filter(user_id__in=users).values_list("user_id", "id"))
    ids = {m for *_rest, m in rows if m is not None} | set(by_user.values())
    members = {m.pk: m for m in Member.objects.filter(pk__in=ids)}
    cards = {
        c.member_id: c.number
        for c in Card.objects.filter(member_id__in=ids)
        .exclude(status=CardStatus.VOID)
        .order_by("issued_on", "pk")
    }
    out = {}
    for session_id, wind, name, user, visit_member in rows:
        member_id = visit_member or by_user.get(user)
        member = members.get(member_id) if member_id else None
        out[(session_id, wind)] = _SeatRow(
            name=name,
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
    ids = list(sessions.order_by("started_at", "id").values_list("id", flat=True))
    out: list[BigHand] = []
    for first in range(0, len(ids), 50):
        candidates = (
            Hand.objects.filter(
                _big_candidates(),
                session_id__in=ids[first : first + 50],
                voids__isnull=True,
            )
            .order_by("session__started_at", "session_id", "number")
            .values_list(
                "session_id",
                "number",
                "created_at",
                "session__table_number",
                "ruleset__family",
                "result__wins",
                "voided_by",
            )
        )
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
    sums = (
        LedgerLine.objects.filter(hand__session__in=sessions)
        .order_by()
        .values_list("hand__session_id", "seat")
        .annotate(points=Sum("points"))
    )
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
    members = [(name, card, len(s), points) for name, card, s, points in per_member.values()]
    members.sort(key=lambda r: (-r[3], r[0]))
    return members, guest_points, len(guest_seats)
