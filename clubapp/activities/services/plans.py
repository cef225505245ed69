"""活动计划: a manager drafts a month's or a quarter's activities, submits them, and an
approver who is not the drafter approves or rejects them (篇三 五.5).

A decided version changes only by a new version, drafted from it with a reason and
the next number; one version is open (drafted or waiting) at a time. The plan's
activities are those of its last approved version (docs/activities.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.activities.models import (
    ActivityKind,
    ActivityPlan,
    DraftActivity,
    Game,
    PlannedActivity,
    PlanPeriod,
    PlanVersion,
    VersionDecision,
    VersionState,
    VersionSubmission,
)
from clubapp.activities.permissions import can_approve, can_manage
from clubapp.activities.selectors import plans as selectors
from clubapp.books.models import PurchasePlan
from clubapp.books.money import CENT, LIMIT, total
from clubapp.core.models import Room

QUARTER_MONTHS = (1, 4, 7, 10)
MAX_EXPECTED = 10_000


@dataclass(frozen=True)
class ActivityIn:
    """One line of a plan as a form gives it."""

    date: dt.date
    kind: str
    title: str
    games: Sequence[str] = field(default_factory=tuple)
    expected: int = 0
    budget: Decimal = Decimal("0.00")
    purchase_plan: PurchasePlan | None = None


def _manager(user: User) -> None:
    if not can_manage(user):
        raise PermissionDenied(_("Only a manager may plan activities."))


def _refuse(n: int, message: str, code: str) -> ValidationError:
    return ValidationError(_("Line %(n)s: %(message)s") % {"n": n, "message": message}, code)


def _line_check(
    n: int, line: ActivityIn, *, room: Room, starts: dt.date, ends: dt.date
) -> ActivityIn:
    if not isinstance(line.date, dt.date) or not starts <= line.date <= ends:
        raise _refuse(
            n,
            _("the date must be inside the plan's period, %(starts)s to %(ends)s.")
            % {"starts": starts.isoformat(), "ends": ends.isoformat()},
            "date_outside",
        )
    if line.kind not in ActivityKind.values:
        raise _refuse(n, _("choose the kind of activity."), "kind")
    title = (line.title or "").strip()
    if not title:
        raise _refuse(n, _("give the activity a title."), "title")
    games = [g for g in Game.values if g in set(line.games or ())]
    if not games or len(set(line.games)) != len(games):
        raise _refuse(n, _("choose at least one of the six games."), "games")
    if not isinstance(line.expected, int) or not 0 <= line.expected <= MAX_EXPECTED:
        raise _refuse(n, _("the expected attendance is a number of people."), "expected")
    budget = line.budget
    if not isinstance(budget, Decimal) or not budget.is_finite():
        raise _refuse(n, _("enter the budget as a number of yuan, such as 120.00."), "budget")
    if budget < 0:
        raise _refuse(n, _("the budget cannot be negative."), "budget_negative")
    if budget != budget.quantize(CENT) or budget >= LIMIT:
        raise _refuse(n, _("the budget has at most two decimal places (fen)."), "budget")
    plan = line.purchase_plan
    if plan is not None:
        if plan.room_id != room.pk or not selectors.purchase_plans_linkable(room=room).filter(
            pk=plan.pk
        ):
            raise _refuse(
                n, _("link a purchase plan of this room that is not rejected."), "purchase_plan"
            )
        if budget == 0:
            raise _refuse(
                n, _("a purchase plan is linked only when the budget needs buying."), "purchase"
            )
    return ActivityIn(
        date=line.date,
        kind=line.kind,
        title=title[:100],
        games=tuple(games),
        expected=line.expected,
        budget=budget.quantize(CENT),
        purchase_plan=plan,
    )


def _lines_check(plan: ActivityPlan, lines: Sequence[ActivityIn]) -> list[ActivityIn]:
    ends = selectors.plan_end(plan)
    return [
        _line_check(n, line, room=plan.room, starts=plan.starts, ends=ends)
        for n, line in enumerate(lines, start=1)
    ]


def _drafts_write(version: PlanVersion, lines: list[ActivityIn]) -> None:
    DraftActivity.objects.filter(version=version).delete()
    DraftActivity.objects.bulk_create(
        DraftActivity(
            room_id=version.room_id,
            version=version,
            position=n,
            date=line.date,
            kind=line.kind,
            title=line.title,
            games=list(line.games),
            expected=line.expected,
            budget=line.budget,
            purchase_plan=line.purchase_plan,
        )
        for n, line in enumerate(lines, start=1)
    )


def _as_line(row: DraftActivity | PlannedActivity) -> ActivityIn:
    return ActivityIn(
        date=row.date,
        kind=row.kind,
        title=row.title,
        games=tuple(row.games),
        expected=row.expected,
        budget=row.budget,
        purchase_plan=row.purchase_plan,
    )


def _lock(plan: ActivityPlan) -> ActivityPlan:
    return ActivityPlan.objects.select_for_update().select_related("room").get(pk=plan.pk)


def _version(version: PlanVersion) -> PlanVersion:
    """The version read again, with its submission and decision, once the plan is locked."""
    return PlanVersion.objects.select_related("submission", "decision", "plan__room").get(
        pk=version.pk
    )


@transaction.atomic
def plan_create(
    *,
    room: Room,
    period: str,
    starts: dt.date,
    by: User,
    lines: Sequence[ActivityIn] = (),
    now: dt.datetime | None = None,
) -> ActivityPlan:
    """A new plan for a month (starting on its 1st) or a quarter (on 1 January, April,
    July or October), with its version 1 as a draft."""
    _manager(by)
    now = now or timezone.now()
    if period not in PlanPeriod.values:
        raise ValidationError(_("Choose a month or a quarter."), code="period")
    if not isinstance(starts, dt.date) or starts.day != 1:
        raise ValidationError(_("A plan starts on the first day of a month."), code="starts")
    if period == PlanPeriod.QUARTER and starts.month not in QUARTER_MONTHS:
        raise ValidationError(
            _("A quarter starts on 1 January, 1 April, 1 July or 1 October."), code="starts"
        )
    ends = selectors.period_end(period=period, starts=starts)
    clash = selectors.plans_overlapping(room=room, starts=starts, ends=ends)
    if clash:
        raise ValidationError(
            _("The period already has a plan (%(plan)s): change it by a new version.")
            % {"plan": str(clash[0])},
            code="period_taken",
        )
    try:
        with transaction.atomic():
            plan = ActivityPlan.objects.create(
                room=room, period=period, starts=starts, created_at=now, created_by=by
            )
    except IntegrityError:
        raise ValidationError(
            _("The period already has a plan: change it by a new version."), code="period_taken"
        ) from None
    checked = _lines_check(plan, lines)
    version = PlanVersion.objects.create(
        room=room, plan=plan, number=1, drafted_by=by, created_at=now
    )
    _drafts_write(version, checked)
    return plan


def _draft_only(version: PlanVersion) -> None:
    if selectors.version_state(version) != VersionState.DRAFT:
        raise ValidationError(
            _("Version %(n)s is submitted and can no longer change: draft a new version.")
            % {"n": version.number},
            code="frozen",
        )


@transaction.atomic
def draft_update(*, version: PlanVersion, lines: Sequence[ActivityIn], by: User) -> PlanVersion:
    """Change a draft's lines (all of them at once)."""
    _manager(by)
    plan = _lock(version.plan)
    version = _version(version)
    _draft_only(version)
    _drafts_write(version, _lines_check(plan, lines))
    return version


@transaction.atomic
def version_submit(
    *, version: PlanVersion, by: User, now: dt.datetime | None = None
) -> VersionSubmission:
    """提交: the draft's lines are frozen into planned activities; the drafts go."""
    _manager(by)
    now = now or timezone.now()
    plan = _lock(version.plan)
    version = _version(version)
    if selectors.version_state(version) != VersionState.DRAFT:
        raise ValidationError(
            _("Version %(n)s is already submitted.") % {"n": version.number}, code="submitted"
        )
    drafts = list(version.drafts.select_related("purchase_plan").order_by("position"))
    if not drafts:
        raise ValidationError(_("A plan needs at least one activity."), code="no_lines")
    lines = _lines_check(plan, [_as_line(d) for d in drafts])
    DraftActivity.objects.filter(version=version).delete()
    submission = VersionSubmission.objects.create(
        room_id=version.room_id,
        version=version,
        submitted_by=by,
        submitted_at=now,
        budget=total(line.budget for line in lines),
    )
    PlannedActivity.objects.bulk_create(
        PlannedActivity(
            room_id=version.room_id,
            version=version,
            position=n,
            date=line.date,
            kind=line.kind,
            title=line.title,
            games=list(line.games),
            expected=line.expected,
            budget=line.budget,
            purchase_plan=line.purchase_plan,
        )
        for n, line in enumerate(lines, start=1)
    )
    return submission


@transaction.atomic
def version_decide(
    *,
    version: PlanVersion,
    approved: bool,
    by: User,
    note: str = "",
    now: dt.datetime | None = None,
) -> VersionDecision:
    """审批: an approver who neither drafted nor submitted the version, once."""
    if not can_approve(by):
        raise PermissionDenied(_("Only an approver may approve or reject a plan."))
    now = now or timezone.now()
    _lock(version.plan)
    version = _version(version)
    state = selectors.version_state(version)
    if state == VersionState.DRAFT:
        raise ValidationError(
            _("Version %(n)s is not submitted yet.") % {"n": version.number}, code="draft"
        )
    if state != VersionState.SUBMITTED:
        raise ValidationError(
            _("Version %(n)s is already decided.") % {"n": version.number}, code="decided"
        )
    if by.pk in (version.drafted_by_id, version.submission.submitted_by_id):
        raise ValidationError(
            _("You drafted this plan: another approver must decide on it."), code="own_plan"
        )
    note = (note or "").strip()[:200]
    if not approved and not note:
        raise ValidationError(_("Say why the plan is rejected."), code="note")
    try:
        with transaction.atomic():
            return VersionDecision.objects.create(
                room_id=version.room_id,
                version=version,
                approved=approved,
                note=note,
                decided_by=by,
                decided_at=now,
            )
    except IntegrityError:
        raise ValidationError(
            _("Version %(n)s is already decided.") % {"n": version.number}, code="decided"
        ) from None


@transaction.atomic
def version_new(
    *, plan: ActivityPlan, reason: str, by: User, now: dt.datetime | None = None
) -> PlanVersion:
    """A new draft version, drafted from the last one (approved or rejected), with the
    reason for the change. Refused while a version is drafted or waiting."""
    _manager(by)
    now = now or timezone.now()
    plan = _lock(plan)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the plan changes."), code="reason")
    if selectors.plan_open_version(plan=plan) is not None:
        raise ValidationError(
            _("The plan already has a version drafted or waiting for approval."),
            code="open_version",
        )
    last = selectors.plan_versions(plan=plan)[-1]
    version = PlanVersion.objects.create(
        room_id=plan.room_id,
        plan=plan,
        number=last.number + 1,
        reason=reason[:200],
        drafted_by=by,
        created_at=now,
    )
    rows = last.activities.select_related("purchase_plan").order_by("position")
    _drafts_write(version, [_as_line(row) for row in rows])
    return version
