"""Helpers of the plans' and records' tests: December 2026 in the room's time zone, a
plan's lines, a plan in each state, members with visits, a record."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from clubapp.activities.models import ActivityKind, ActivityPlan, ActivityRecord, Game
from clubapp.activities.services import plans, records
from clubapp.members.models import Member, Visit
from clubapp.members.tests.factories import CardFactory, MemberFactory

SHANGHAI = ZoneInfo("Asia/Shanghai")
DECEMBER = dt.date(2026, 12, 1)


def at(day: int, hour: int = 10, minute: int = 0, *, month: int = 12) -> dt.datetime:
    """A moment of December 2026 (the 2nd is a Wednesday, the room's day off)."""
    return dt.datetime(2026, month, day, hour, minute, tzinfo=SHANGHAI)


def activity(day: int = 5, *, month: int = 12, year: int = 2026, **kwargs: Any) -> plans.ActivityIn:
    kwargs.setdefault("kind", ActivityKind.TOURNAMENT)
    kwargs.setdefault("title", "象棋月赛")
    kwargs.setdefault("games", (Game.XIANGQI,))
    kwargs.setdefault("expected", 16)
    kwargs.setdefault("budget", Decimal("120.00"))
    return plans.ActivityIn(date=dt.date(year, month, day), **kwargs)


def draft_plan(room: Any, manager: Any, *lines: plans.ActivityIn, **kwargs: Any) -> ActivityPlan:
    kwargs.setdefault("period", "month")
    kwargs.setdefault("starts", DECEMBER)
    kwargs.setdefault("now", at(1, 9))
    return plans.plan_create(
        room=room, lines=list(lines) or [activity(5), activity(12)], by=manager, **kwargs
    )


def submitted_plan(room: Any, manager: Any, *lines: plans.ActivityIn, **kw: Any) -> ActivityPlan:
    plan = draft_plan(room, manager, *lines, **kw)
    plans.version_submit(version=plan.versions.get(), by=manager, now=at(1, 10))
    return plan


def approved_plan(room: Any, manager: Any, approver: Any, *lines: plans.ActivityIn) -> ActivityPlan:
    plan = submitted_plan(room, manager, *lines)
    plans.version_decide(version=plan.versions.get(), approved=True, by=approver, now=at(1, 11))
    return plan


def visitor(room: Any, manager: Any, when: dt.datetime, name: str = "") -> Member:
    """A member who visited the room at ``when``."""
    member = MemberFactory(room=room, **({"name": name} if name else {}))
    visit_again(member, manager, when)
    return member


def visit_again(member: Member, manager: Any, when: dt.datetime) -> Visit:
    card = member.cards.first() or CardFactory(member=member)
    return Visit.objects.create(
        room=member.room,
        member=member,
        card=card,
        checked_in_at=when,
        checked_out_at=when + dt.timedelta(hours=1),
        checked_in_by=manager,
        checked_out_by=manager,
    )


def what_happened(day: int = 5, *, month: int = 12, **kwargs: Any) -> records.RecordIn:
    kwargs.setdefault("starts", dt.time(14))
    kwargs.setdefault("ends", dt.time(17))
    kwargs.setdefault("kind", ActivityKind.TOURNAMENT)
    kwargs.setdefault("game", Game.XIANGQI)
    kwargs.setdefault("title", "象棋月赛")
    kwargs.setdefault("led_by", "王经理")
    return records.RecordIn(date=dt.date(2026, month, day), **kwargs)


def a_record(room: Any, manager: Any, **kwargs: Any) -> ActivityRecord:
    return records.record_create(room=room, data=what_happened(**kwargs), by=manager, now=at(5, 18))
