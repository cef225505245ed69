"""购置计划: draft → submitted → approved / rejected → in progress → done.

A draft changes freely; submitting freezes it into append-only rows; the decision
and the completion are append-only rows too. "In progress" is an approved plan with
an expense booked against it (docs/books.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books import selectors
from clubapp.books.models import (
    ExpenseCategory,
    PlanCompletion,
    PlanDecision,
    PlanDraftLine,
    PlanLine,
    PlanOutcome,
    PlanState,
    PlanSubmission,
    PurchasePlan,
)
from clubapp.books.money import CENT, LIMIT, amount_check, total
from clubapp.books.permissions import can_approve, can_record
from clubapp.books.services.fund import fund_check
from clubapp.core.models import Room
from clubapp.core.services import next_number


@dataclass(frozen=True)
class LineIn:
    """One line of a plan as a form gives it."""

    category: str
    item: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    reason: str = ""

    @property
    def amount(self) -> Decimal:
        return (self.quantity * self.unit_price).quantize(CENT)


def _recorder(user: User) -> None:
    if not can_record(user):
        raise PermissionDenied(_("Only a manager may draft purchase plans."))


def _line_check(n: int, line: LineIn) -> LineIn:
    def refuse(message: str, code: str) -> ValidationError:
        return ValidationError(_("Line %(n)s: %(message)s") % {"n": n, "message": message}, code)

    if line.category not in ExpenseCategory.values:
        raise refuse(_("choose a category."), "category")
    item, unit = (line.item or "").strip(), (line.unit or "").strip()
    if not item:
        raise refuse(_("enter the item."), "item")
    if not unit:
        raise refuse(_("enter the unit (set, box, bottle…)."), "unit")
    for value in (line.quantity, line.unit_price):
        try:
            amount_check(value)
        except ValidationError as exc:
            raise refuse(exc.messages[0], "amount") from None
    if line.amount <= 0 or line.amount >= LIMIT:
        raise refuse(_("the line's amount is out of range."), "amount")
    return LineIn(
        category=line.category,
        item=item[:100],
        quantity=line.quantity,
        unit=unit[:10],
        unit_price=line.unit_price,
        reason=(line.reason or "").strip()[:200],
    )


def _lines_check(lines: Sequence[LineIn]) -> list[LineIn]:
    return [_line_check(n, line) for n, line in enumerate(lines, start=1)]


def _title(title: str) -> str:
    title = (title or "").strip()
    if not title:
        raise ValidationError(_("Give the plan a title."), code="title")
    return title[:100]


def _draft_lines_write(plan: PurchasePlan, lines: list[LineIn]) -> None:
    PlanDraftLine.objects.filter(plan=plan).delete()
    PlanDraftLine.objects.bulk_create(
        PlanDraftLine(
            room=plan.room,
            plan=plan,
            position=n,
            category=line.category,
            item=line.item,
            quantity=line.quantity,
            unit=line.unit,
            unit_price=line.unit_price,
            reason=line.reason,
        )
        for n, line in enumerate(lines, start=1)
    )


def _lock_plan(plan: PurchasePlan) -> PurchasePlan:
    return PurchasePlan.objects.select_for_update(of=("self",)).get(pk=plan.pk)


@transaction.atomic
def plan_create(
    *,
    room: Room,
    title: str,
    by: User,
    purpose: str = "",
    lines: Sequence[LineIn] = (),
    copied_from: PurchasePlan | None = None,
    supplement_for: PurchasePlan | None = None,
    now: dt.datetime | None = None,
) -> PurchasePlan:
    """A new draft (JH2026-0001). Lines are checked now too, so a draft is never nonsense."""
    _recorder(by)
    for other in (copied_from, supplement_for):
        if other is not None and other.room_id != room.pk:
            raise ValidationError(_("That plan is not in this room's books."), code="room")
    now = now or timezone.now()
    title = _title(title)
    checked = _lines_check(lines)
    year = timezone.localtime(now).year
    plan = PurchasePlan.objects.create(
        room=room,
        number=f"JH{year}-{next_number(room=room, key=f'plan-{year}'):04d}",
        title=title,
        purpose=(purpose or "").strip(),
        drafted_by=by,
        created_at=now,
        copied_from=copied_from,
        supplement_for=supplement_for,
    )
    _draft_lines_write(plan, checked)
    return plan


@transaction.atomic
def plan_update(
    *,
    plan: PurchasePlan,
    title: str,
    lines: Sequence[LineIn],
    by: User,
    purpose: str = "",
) -> PurchasePlan:
    """Change a draft: its title, purpose and all its lines."""
    _recorder(by)
    plan = _lock_plan(plan)
    if selectors.plan_submission(plan=plan) is not None:
        raise ValidationError(
            _("Plan %(plan)s is submitted and can no longer change.") % {"plan": plan.number},
            code="frozen",
        )
    plan.title = _title(title)
    plan.purpose = (purpose or "").strip()
    plan.save(update_fields=["title", "purpose"])
    _draft_lines_write(plan, _lines_check(lines))
    return plan


@transaction.atomic
def plan_submit(*, plan: PurchasePlan, by: User, now: dt.datetime | None = None) -> PlanSubmission:
    """提交: the draft is frozen into the submitted plan the approver decides on."""
    _recorder(by)
    now = now or timezone.now()
    plan = _lock_plan(plan)
    if selectors.plan_submission(plan=plan) is not None:
        raise ValidationError(
            _("Plan %(plan)s is already submitted.") % {"plan": plan.number}, code="submitted"
        )
    drafts = list(plan.draft_lines.order_by("position"))
    if not drafts:
        raise ValidationError(_("A plan needs at least one line."), code="no_lines")
    lines = _lines_check(
        [LineIn(d.category, d.item, d.quantity, d.unit, d.unit_price, d.reason) for d in drafts]
    )
    # The draft lines go first: once the submission exists the database refuses any
    # change to them (books.guards.PLAN_FROZEN).
    PlanDraftLine.objects.filter(plan=plan).delete()
    try:
        with transaction.atomic():
            submission = PlanSubmission.objects.create(
                room=plan.room,
                plan=plan,
                title=plan.title,
                purpose=plan.purpose,
                total=total(line.amount for line in lines),
                submitted_by=by,
                submitted_at=now,
            )
    except IntegrityError:
        raise ValidationError(
            _("Plan %(plan)s is already submitted.") % {"plan": plan.number}, code="submitted"
        ) from None
    PlanLine.objects.bulk_create(
        PlanLine(
            room=plan.room,
            submission=submission,
            position=n,
            category=line.category,
            item=line.item,
            quantity=line.quantity,
            unit=line.unit,
            unit_price=line.unit_price,
            amount=line.amount,
            reason=line.reason,
        )
        for n, line in enumerate(lines, start=1)
    )
    return submission


@transaction.atomic
def plan_decide(
    *,
    plan: PurchasePlan,
    outcome: PlanOutcome,
    by: User,
    comment: str = "",
    now: dt.datetime | None = None,
    fund_negative_ok: bool = False,
) -> PlanDecision:
    """审批: an approver who did not draft (or submit) the plan approves or rejects it.

    Approving a plan whose equipment and facility lines would take the equipment
    fund below zero is refused if the room does not allow it, and otherwise needs
    the approver to confirm it (``fund_negative_ok``), having seen the figure."""
    if not can_approve(by):
        raise PermissionDenied(_("Only an approver may approve or reject a plan."))
    now = now or timezone.now()
    plan = _lock_plan(plan)
    submission = selectors.plan_submission(plan=plan)
    if submission is None:
        raise ValidationError(
            _("Plan %(plan)s is not submitted yet.") % {"plan": plan.number}, code="draft"
        )
    if by.pk in (plan.drafted_by_id, submission.submitted_by_id):
        raise ValidationError(
            _("You drafted this plan: another approver must decide on it."), code="own_plan"
        )
    if outcome not in PlanOutcome.values:
        raise ValidationError(_("Approve or reject the plan."), code="outcome")
    comment = (comment or "").strip()[:200]
    if outcome == PlanOutcome.REJECTED and not comment:
        raise ValidationError(_("Say why the plan is rejected."), code="comment")
    if PlanDecision.objects.filter(submission=submission).exists():
        raise ValidationError(
            _("Plan %(plan)s is already decided.") % {"plan": plan.number}, code="decided"
        )
    if outcome == PlanOutcome.APPROVED:
        fund_check(
            room=plan.room,
            spend=selectors.plan_fund_part(submission=submission),
            confirmed=fund_negative_ok,
            what=_("Approving plan %(plan)s") % {"plan": plan.number},
        )
    try:
        with transaction.atomic():
            return PlanDecision.objects.create(
                room=plan.room,
                submission=submission,
                outcome=outcome,
                comment=comment,
                decided_by=by,
                decided_at=now,
            )
    except IntegrityError:
        raise ValidationError(
            _("Plan %(plan)s is already decided.") % {"plan": plan.number}, code="decided"
        ) from None


@transaction.atomic
def plan_copy(*, plan: PurchasePlan, by: User, now: dt.datetime | None = None) -> PurchasePlan:
    """A rejected plan, copied into a new draft (its lines as submitted)."""
    _recorder(by)
    if selectors.plan_state(plan=plan) != PlanState.REJECTED:
        raise ValidationError(
            _("Only a rejected plan can be copied into a new draft."), code="not_rejected"
        )
    submission = selectors.plan_submission(plan=plan)
    assert submission is not None
    return plan_create(
        room=plan.room,
        title=submission.title,
        purpose=submission.purpose,
        lines=[
            LineIn(line.category, line.item, line.quantity, line.unit, line.unit_price, line.reason)
            for line in submission.lines.order_by("position")
        ],
        copied_from=plan,
        supplement_for=plan.supplement_for,
        by=by,
        now=now,
    )


@transaction.atomic
def plan_supplement(
    *, plan: PurchasePlan, by: User, now: dt.datetime | None = None
) -> PurchasePlan:
    """补充计划: a new draft for what an approved plan's lines cannot pay for."""
    _recorder(by)
    if selectors.plan_state(plan=plan) not in (PlanState.APPROVED, PlanState.IN_PROGRESS):
        raise ValidationError(
            _("A supplementary plan is drafted for an approved plan."), code="not_approved"
        )
    return plan_create(
        room=plan.room,
        title=_("Supplement to %(plan)s") % {"plan": plan.number},
        purpose=_("Supplementary plan to %(plan)s %(title)s.")
        % {"plan": plan.number, "title": plan.title},
        supplement_for=plan,
        by=by,
        now=now,
    )


@transaction.atomic
def plan_complete(
    *, plan: PurchasePlan, by: User, note: str = "", now: dt.datetime | None = None
) -> PlanCompletion:
    """完成: the purchases are done; the plan takes no more expenses."""
    _recorder(by)
    now = now or timezone.now()
    plan = _lock_plan(plan)
    state = selectors.plan_state(plan=plan)
    if state == PlanState.DONE:
        raise ValidationError(
            _("Plan %(plan)s is already done.") % {"plan": plan.number}, code="done"
        )
    if state not in (PlanState.APPROVED, PlanState.IN_PROGRESS):
        raise ValidationError(_("Only an approved plan can be done."), code="not_approved")
    submission = selectors.plan_submission(plan=plan)
    assert submission is not None
    try:
        with transaction.atomic():
            return PlanCompletion.objects.create(
                room=plan.room,
                submission=submission,
                completed_by=by,
                completed_at=now,
                note=(note or "").strip()[:200],
            )
    except IntegrityError:
        raise ValidationError(
            _("Plan %(plan)s is already done.") % {"plan": plan.number}, code="done"
        ) from None
