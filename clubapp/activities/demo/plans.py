"""Demo data of the activity plans and records: this month's plan and what was held.

Every row is written by the services, at moments of the current month, silently;
it does nothing when the month already has a plan, so it may run again.
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from typing import Any

from django.utils import timezone
from PIL import Image

from clubapp.activities.models import ActivityKind, Game, PlannedActivity, RecordVersion
from clubapp.activities.selectors import plans as plan_selectors
from clubapp.activities.selectors import records as record_selectors
from clubapp.activities.services import plans, records
from clubapp.books.models import PlanState
from clubapp.core.models import Room
from clubapp.members.models import Visit

# day of the month, kind, title, games, expected, budget (yuan), what was held
_PLAN: list[tuple[int, str, str, tuple[str, ...], int, str, str]] = [
    (1, ActivityKind.PLAY, "月初棋牌交流日", (Game.XIANGQI, Game.POKER), 20, "0", "王经理"),
    (6, ActivityKind.TRAINING, "围棋入门辅导", (Game.WEIQI,), 8, "60.00", "陈老师"),
    (11, ActivityKind.TOURNAMENT, "象棋月赛", (Game.XIANGQI,), 16, "300.00", "王经理"),
    (16, ActivityKind.PLAY, "五子棋、跳棋趣味赛", (Game.WUZIQI, Game.TIAOQI), 12, "80.00", ""),
    (21, ActivityKind.TOURNAMENT, "麻将友谊赛", (Game.MAHJONG,), 16, "200.00", ""),
    (26, ActivityKind.OTHER, "月末器材整理与安全检查", (Game.MAHJONG, Game.POKER), 4, "0", ""),
]


def _photo() -> io.BytesIO:
    """A picture of a table with pieces on it, more or less."""
    image = Image.new("RGB", (1200, 800), "#d8c3a0")
    image.paste(Image.new("RGB", (700, 500), "#7a4a24"), (250, 150))
    for n in range(8):
        image.paste(
            Image.new("RGB", (60, 60), "#b3261e" if n % 2 else "#1d1d1f"), (300 + 75 * n, 350)
        )
    out = io.BytesIO()
    image.save(out, format="JPEG")
    out.seek(0)
    return out


def _at(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def demo_plans_and_records(room: Room, manager: Any, approver: Any) -> None:
    """This month's plan, approved, with a version 2 being drafted; a record of each
    planned activity held by today (attendees from the day's visits), one corrected."""
    now = timezone.now()
    today = timezone.localdate(now)
    first = today.replace(day=1)
    last = plan_selectors.period_end(period="month", starts=first)
    if plan_selectors.plans_overlapping(room=room, starts=first, ends=last):
        return
    version = _plan_approved(room, manager, approver, first, last, now)
    _version_two(version, manager, first, last, now)
    written = _records_held(room, version, manager, today, now)
    _daily_play(room, manager, now)
    if written:
        _correct(written[0], manager, now)


def _plan_approved(
    room: Room, manager: Any, approver: Any, first: dt.date, last: dt.date, now: dt.datetime
) -> Any:
    """Version 1 of the month's plan, submitted and approved; the tournament's prizes
    are bought through an approved purchase plan of the cash book."""
    buying = next(
        (
            p
            for p in plan_selectors.purchase_plans_linkable(room=room)
            if p.state in (PlanState.APPROVED, PlanState.IN_PROGRESS)
        ),
        None,
    )
    lines = [
        plans.ActivityIn(
            date=first.replace(day=min(day, last.day)),
            kind=kind,
            title=title,
            games=games,
            expected=expected,
            budget=Decimal(budget),
            purchase_plan=buying if kind == ActivityKind.TOURNAMENT and day == 11 else None,
        )
        for day, kind, title, games, expected, budget, _leader in _PLAN
    ]
    start = min(now, _at(first, 9))
    plan = plans.plan_create(
        room=room, period="month", starts=first, lines=lines, by=manager, now=start
    )
    version = plan.versions.get()
    plans.version_submit(version=version, by=manager, now=start + dt.timedelta(minutes=30))
    plans.version_decide(
        version=version, approved=True, note="同意", by=approver, now=start + dt.timedelta(hours=1)
    )
    return version


def _version_two(
    version: Any, manager: Any, first: dt.date, last: dt.date, now: dt.datetime
) -> None:
    """Version 2, drafted from version 1: a training session added, not yet submitted."""
    draft = plans.version_new(plan=version.plan, reason="增加一次象棋残局辅导", by=manager, now=now)
    extra = plans.ActivityIn(
        date=first.replace(day=min(18, last.day)),
        kind=ActivityKind.TRAINING,
        title="象棋残局辅导",
        games=(Game.XIANGQI,),
        expected=10,
        budget=Decimal("0.00"),
    )
    current = [
        plans.ActivityIn(
            date=a.date,
            kind=a.kind,
            title=a.title,
            games=tuple(a.games),
            expected=a.expected,
            budget=a.budget,
            purchase_plan=a.purchase_plan,
        )
        for a in version.activities.order_by("position")
    ]
    plans.draft_update(version=draft, lines=[*current, extra], by=manager)


def _records_held(
    room: Room, version: Any, manager: Any, today: dt.date, now: dt.datetime
) -> list[Any]:
    """A record of each planned activity held by today, its attendees the members who
    came that day; the first with a photo."""
    written: list[Any] = []
    held = PlannedActivity.objects.filter(version=version, date__lte=today).order_by("position")
    for line, (_d, _k, _t, _g, expected, _b, leader) in zip(held, _PLAN, strict=False):
        visits = record_selectors.member_visits_of_day(room=room, day=line.date)
        came = [v.member for v in visits if v.member is not None]
        record = records.record_create(
            room=room,
            data=records.RecordIn(
                date=line.date,
                starts=dt.time(14),
                ends=dt.time(17),
                kind=line.kind,
                game=line.games[0],
                title=line.title,
                led_by=leader or "王经理",
                attendees=came,
                others=max(0, expected // 2 - len(came)),
                notes="按计划进行。",
                planned=line,
            ),
            photos=[] if written else [_photo()],
            by=manager,
            now=min(now, _at(line.date, 18)),
        )
        written.append(record)
    return written


def _daily_play(room: Room, manager: Any, now: dt.datetime) -> None:
    """The daily play of the last day members came, unplanned, with those members."""
    last_visit = (
        Visit.objects.filter(room=room, member__isnull=False, checked_in_at__lte=now)
        .order_by("-checked_in_at")
        .first()
    )
    if last_visit is None:
        return
    day = timezone.localdate(last_visit.checked_in_at)
    came = [
        v.member
        for v in record_selectors.member_visits_of_day(room=room, day=day)
        if v.member is not None
    ]
    if not RecordVersion.objects.filter(room=room, date=day).exists():
        records.record_create(
            room=room,
            data=records.RecordIn(
                date=day,
                starts=dt.time(9),
                kind=ActivityKind.PLAY,
                game=Game.MAHJONG,
                title="日常棋牌活动",
                led_by="王经理",
                attendees=came,
                others=4,
            ),
            by=manager,
            now=now,
        )


def _correct(record: Any, manager: Any, now: dt.datetime) -> None:
    """The first record corrected once: it was held in the morning."""
    last_version: RecordVersion = record_selectors.record_last(record=record)
    records.record_correct(
        record=record,
        data=records.RecordIn(
            date=last_version.date,
            starts=dt.time(9),
            ends=dt.time(12),
            kind=last_version.kind,
            game=last_version.game,
            title=last_version.title,
            led_by=last_version.led_by,
            attendees=[a.member for a in last_version.attendees.select_related("member")],
            others=last_version.others,
            notes="上午举行（原记下午，更正）。",
            planned=last_version.planned,
        ),
        reason="时间记错：活动在上午",
        by=manager,
        now=now,
    )
