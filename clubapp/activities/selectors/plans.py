"""Reads of the activity plans (活动计划): states, versions, the activities in force."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import OuterRef, QuerySet, Subquery

from clubapp.activities.models import (
    ActivityPlan,
    DraftActivity,
    PlannedActivity,
    PlanPeriod,
    PlanVersion,
    VersionState,
)
from clubapp.books.models import PlanState
from clubapp.books.selectors import plan_list as purchase_plan_list
from clubapp.core.models import Room

if TYPE_CHECKING:
    from clubapp.books.selectors.lists import PlanWithRow


def period_end(*, period: str, starts: dt.date) -> dt.date:
    """The last day of the month or quarter starting on ``starts``."""
    months = 3 if period == PlanPeriod.QUARTER else 1
    month = starts.month - 1 + months
    first_after = dt.date(starts.year + month // 12, month % 12 + 1, 1)
    return first_after - dt.timedelta(days=1)


def plan_end(plan: ActivityPlan) -> dt.date:
    return period_end(period=plan.period, starts=plan.starts)


def version_state(version: PlanVersion) -> VersionState:
    """Read from the rows: a decision says approved or rejected, a submission
    submitted, else the version is a draft."""
    decision = getattr(version, "decision", None)
    if decision is not None:
        return VersionState.APPROVED if decision.approved else VersionState.REJECTED
    if getattr(version, "submission", None) is not None:
        return VersionState.SUBMITTED
    return VersionState.DRAFT


def plan_versions(*, plan: ActivityPlan) -> list[PlanVersion]:
    return list(
        PlanVersion.objects.filter(plan=plan)
        .select_related("drafted_by", "submission__submitted_by", "decision__decided_by")
        .order_by("number")
    )


def plan_open_version(*, plan: ActivityPlan) -> PlanVersion | None:
    """The version being drafted or waiting for a decision (at most one)."""
    for version in reversed(plan_versions(plan=plan)):
        if version_state(version) in (VersionState.DRAFT, VersionState.SUBMITTED):
            return version
    return None


def plan_approved_version(*, plan: ActivityPlan) -> PlanVersion | None:
    """The version in force: the last approved one."""
    return (
        PlanVersion.objects.filter(plan=plan, decision__approved=True)
        .select_related("decision__decided_by")
        .order_by("-number")
        .first()
    )


def version_lines(version: PlanVersion) -> QuerySet[DraftActivity] | QuerySet[PlannedActivity]:
    """A draft's lines, or the lines as submitted."""
    if version_state(version) == VersionState.DRAFT:
        return version.drafts.select_related("purchase_plan").order_by("date", "position")
    return version.activities.select_related("purchase_plan").order_by("date", "position")


@dataclass(frozen=True)
class PlanRow:
    plan: ActivityPlan
    ends: dt.date
    #: the last version's state and number
    state: VersionState
    number: int
    #: a version approved at some time: the plan has activities in force
    in_force: bool


def plan_list(*, room: Room) -> list[PlanRow]:
    """The room's plans, newest period first (a few a year: no paging)."""
    rows = []
    plans = ActivityPlan.objects.filter(room=room).order_by("-starts", "period")
    versions: dict[int, list[PlanVersion]] = {}
    for version in (
        PlanVersion.objects.filter(plan__in=plans)
        .select_related("submission", "decision")
        .order_by("number")
    ):
        versions.setdefault(version.plan_id, []).append(version)
    for plan in plans:
        mine = versions.get(plan.pk, [])
        last = mine[-1]
        rows.append(
            PlanRow(
                plan=plan,
                ends=plan_end(plan),
                state=version_state(last),
                number=last.number,
                in_force=any(version_state(v) == VersionState.APPROVED for v in mine),
            )
        )
    return rows


def plans_overlapping(*, room: Room, starts: dt.date, ends: dt.date) -> list[ActivityPlan]:
    """Plans whose period shares a day with ``starts``–``ends``."""
    return [
        plan
        for plan in ActivityPlan.objects.filter(
            room=room, starts__lte=ends, starts__gte=starts - dt.timedelta(days=92)
        )
        if plan_end(plan) >= starts
    ]


def activities_in_force(*, room: Room, first: dt.date, last: dt.date) -> QuerySet[PlannedActivity]:
    """The planned activities of ``first``–``last``: of each plan's last approved version."""
    in_force = (
        PlanVersion.objects.filter(plan=OuterRef("version__plan"), decision__approved=True)
        .order_by("-number")
        .values("pk")[:1]
    )
    return (
        PlannedActivity.objects.filter(room=room, date__gte=first, date__lte=last)
        .filter(version_id=Subquery(in_force))
        .select_related("version__plan")
        .order_by("date", "position")
    )


def purchase_plans_linkable(*, room: Room) -> QuerySet[PlanWithRow]:
    """The room's purchase plans an activity's budget may buy through: not rejected."""
    return purchase_plan_list(room=room).exclude(state=PlanState.REJECTED.value).order_by("-pk")
