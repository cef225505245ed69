"""The room's life in a month, for the monthly report (issue 23.6): the activities held
and their attendance, the tournaments and their winners, the duty (days covered and
uncovered, late and early, leave), the day's checks missed, damage and compensation,
violations. Each figure is read from the rows the month's pages list."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from clubapp.activities.models import Damage, Tournament, Violation
from clubapp.activities.selectors.checks import MonthChecks, month_checks
from clubapp.activities.selectors.duty import MonthDuty, month_days, month_duty
from clubapp.activities.selectors.plans import activities_in_force
from clubapp.activities.selectors.records import records_held
from clubapp.activities.selectors.tournaments import tournament_standings
from clubapp.core.models import Room


@dataclass(frozen=True)
class Held:
    """One activity held (a record's last version)."""

    date: dt.date
    title: str
    kind: str
    game: str
    members: int
    others: int
    planned: bool

    @property
    def attendance(self) -> int:
        return self.members + self.others


@dataclass(frozen=True)
class TournamentLine:
    name: str
    game: str
    starts: dt.date
    ends: dt.date
    entrants: int
    closed: bool
    #: the first of the final standings (closed) or the leader now (running)
    leader: str


@dataclass(frozen=True)
class DamageLine:
    date: dt.date
    equipment: str
    member: str
    compensation: Decimal
    receipt: str


@dataclass(frozen=True)
class MonthLife:
    held: list[Held]
    attendance: int
    #: the month's planned activities (of the plans in force) and how many were held
    planned: int
    planned_held: int
    tournaments: list[TournamentLine]
    duty: MonthDuty
    checks: MonthChecks
    damage: list[DamageLine]
    compensation: Decimal
    #: (kind label, count) of the month's violations
    violations: list[tuple[str, int]]


def month_life(*, room: Room, year: int, month: int, now: dt.datetime | None = None) -> MonthLife:
    days = month_days(year, month)
    first, last = days[0], days[-1]
    versions = list(records_held(room=room, first=first, last=last).order_by("date", "starts"))
    held = [
        Held(
            date=v.date,
            title=v.title,
            kind=v.get_kind_display(),
            game=v.get_game_display(),
            members=v.members,  # type: ignore[attr-defined]  # counted by records_held
            others=v.others,
            planned=v.planned_id is not None,
        )
        for v in versions
    ]
    planned = list(activities_in_force(room=room, first=first, last=last))
    linked = {v.planned_id for v in versions if v.planned_id is not None}
    tournaments = []
    running = Tournament.objects.filter(room=room, starts__lte=last, ends__gte=first)
    for t in running.order_by("starts", "pk"):
        standings = tournament_standings(tournament=t)
        tournaments.append(
            TournamentLine(
                name=t.name,
                game=t.get_game_display(),
                starts=t.starts,
                ends=t.ends,
                entrants=len(standings),
                closed=t.is_closed,
                leader=standings[0].entrant.member.name if standings else "",
            )
        )
    damage = [
        DamageLine(
            date=d.date,
            equipment=d.equipment,
            member=d.member.name if d.member else "",
            compensation=d.compensation,
            receipt=d.income.reference if d.income else "",
        )
        for d in Damage.objects.filter(room=room, date__gte=first, date__lte=last)
        .select_related("member", "income")
        .order_by("date", "pk")
    ]
    kinds = Counter(
        v.get_kind_display()
        for v in Violation.objects.filter(room=room, date__gte=first, date__lte=last)
    )
    return MonthLife(
        held=held,
        attendance=sum(h.attendance for h in held),
        planned=len(planned),
        planned_held=sum(1 for p in planned if p.pk in linked),
        tournaments=tournaments,
        duty=month_duty(room=room, year=year, month=month, now=now),
        checks=month_checks(room=room, year=year, month=month, now=now),
        damage=damage,
        compensation=sum((d.compensation for d in damage), Decimal("0.00")),
        violations=sorted(kinds.items()),
    )
