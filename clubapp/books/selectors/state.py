"""The state of one row, read from the append-only rows that follow it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Case, CharField, Exists, OuterRef, QuerySet, Sum, Value, When
from django.utils import timezone

from clubapp.books.models import (
    Expense,
    ExpenseConfirmation,
    HandOverLine,
    HandOverSlip,
    IncomeEntry,
    PlanDecision,
    PlanLine,
    PlanOutcome,
    PlanState,
    PlanSubmission,
    PurchasePlan,
    Reversal,
    SlipDecision,
    SlipOutcome,
)
from clubapp.books.money import ZERO

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class State(TypedDict):
    """The ``state`` a ``*_with_state`` queryset annotates on each row."""

    state: str


if TYPE_CHECKING:
    SlipWithState = WithAnnotations[HandOverSlip, State]
    IncomeWithState = WithAnnotations[IncomeEntry, State]
    ExpenseWithState = WithAnnotations[Expense, State]
    PlanWithState = WithAnnotations[PurchasePlan, State]

# ------------------------------------------------------------------ slips


def live_slips(slips: QuerySet[HandOverSlip] | None = None) -> QuerySet[HandOverSlip]:
    """Slips whose cash has left the desk: waiting or confirmed, not sent back or reversed."""
    slips = HandOverSlip.objects.all() if slips is None else slips
    return slips.exclude(decision__outcome=SlipOutcome.RETURNED).filter(reversal__isnull=True)


def slip_decision(*, slip: HandOverSlip) -> SlipDecision | None:
    return SlipDecision.objects.filter(slip=slip).select_related("decided_by").first()


def slip_is_reversed(*, slip: HandOverSlip) -> bool:
    return Reversal.objects.filter(slip=slip).exists()


class SlipState:
    PENDING = "pending"
    CONFIRMED = "confirmed"
    RETURNED = "returned"
    REVERSED = "reversed"


def slips_with_state(slips: QuerySet[HandOverSlip]) -> QuerySet[SlipWithState]:
    return slips.annotate(
        state=Case(
            When(reversal__isnull=False, then=Value(SlipState.REVERSED)),
            When(decision__isnull=True, then=Value(SlipState.PENDING)),
            When(decision__outcome=SlipOutcome.RETURNED, then=Value(SlipState.RETURNED)),
            default=Value(SlipState.CONFIRMED),
            output_field=CharField(),
        )
    )


# ----------------------------------------------------------------- income


def income_is_reversed(*, entry: IncomeEntry) -> bool:
    return Reversal.objects.filter(income=entry).exists()


def income_live_slip(*, entry: IncomeEntry) -> HandOverSlip | None:
    """The slip that has this receipt's cash, if any."""
    return live_slips(HandOverSlip.objects.filter(lines__income=entry)).first()


class IncomeState:
    AT_DESK = "at_desk"
    ON_SLIP = "on_slip"
    HANDED_OVER = "handed_over"
    REVERSED = "reversed"


def _live_line(**decision: object) -> QuerySet[HandOverLine]:
    return (
        HandOverLine.objects.filter(income=OuterRef("pk"), slip__reversal__isnull=True)
        .exclude(slip__decision__outcome=SlipOutcome.RETURNED)
        .filter(**decision)
    )


def income_with_state(entries: QuerySet[IncomeEntry]) -> QuerySet[IncomeWithState]:
    return entries.annotate(
        state=Case(
            When(Exists(Reversal.objects.filter(income=OuterRef("pk"))), then=Value("reversed")),
            When(
                Exists(_live_line(slip__decision__outcome=SlipOutcome.CONFIRMED)),
                then=Value(IncomeState.HANDED_OVER),
            ),
            When(Exists(_live_line()), then=Value(IncomeState.ON_SLIP)),
            default=Value(IncomeState.AT_DESK),
            output_field=CharField(),
        )
    )


def income_at_desk(entries: QuerySet[IncomeEntry]) -> QuerySet[IncomeEntry]:
    """Receipts whose cash is still at the desk: not reversed, on no live slip."""
    return entries.filter(reversal__isnull=True).exclude(Exists(_live_line()))


# --------------------------------------------------------------- expenses


def expense_is_reversed(*, expense: Expense) -> bool:
    return Reversal.objects.filter(expense=expense).exists()


def expense_is_confirmed(*, expense: Expense) -> bool:
    return ExpenseConfirmation.objects.filter(expense=expense).exists()


class ExpenseState:
    BOOKED = "booked"
    CONFIRMED = "confirmed"
    REVERSED = "reversed"


def expenses_with_state(expenses: QuerySet[Expense]) -> QuerySet[ExpenseWithState]:
    return expenses.annotate(
        state=Case(
            When(reversal__isnull=False, then=Value(ExpenseState.REVERSED)),
            When(confirmation__isnull=False, then=Value(ExpenseState.CONFIRMED)),
            default=Value(ExpenseState.BOOKED),
            output_field=CharField(),
        )
    )


# ------------------------------------------------------------------ plans


def plans_with_state(plans: QuerySet[PurchasePlan]) -> QuerySet[PlanWithState]:
    """Each plan's ``state`` (a PlanState value), read from its rows:
    no submission → draft; a completion → done; no decision → submitted; rejected;
    approved with a standing expense → in progress; else approved."""
    spending = Expense.objects.filter(line__submission__plan=OuterRef("pk"), reversal__isnull=True)
    return plans.annotate(
        state=Case(
            When(submission__isnull=True, then=Value(PlanState.DRAFT.value)),
            When(submission__completion__isnull=False, then=Value(PlanState.DONE.value)),
            When(submission__decision__isnull=True, then=Value(PlanState.SUBMITTED.value)),
            When(
                submission__decision__outcome=PlanOutcome.REJECTED,
                then=Value(PlanState.REJECTED.value),
            ),
            When(Exists(spending), then=Value(PlanState.IN_PROGRESS.value)),
            default=Value(PlanState.APPROVED.value),
            output_field=CharField(),
        )
    )


def plan_state(*, plan: PurchasePlan) -> PlanState:
    state = plans_with_state(PurchasePlan.objects.filter(pk=plan.pk)).values_list(
        "state", flat=True
    )
    return PlanState(state.get())


def plan_submission(*, plan: PurchasePlan) -> PlanSubmission | None:
    return PlanSubmission.objects.filter(plan=plan).select_related("submitted_by").first()


def plan_decision(*, plan: PurchasePlan) -> PlanDecision | None:
    return PlanDecision.objects.filter(submission__plan=plan).select_related("decided_by").first()


def plan_approved_on(*, plan: PurchasePlan) -> dt.date | None:
    decision = plan_decision(plan=plan)
    if decision is None or decision.outcome != PlanOutcome.APPROVED:
        return None
    return timezone.localdate(decision.decided_at)


def line_spent(*, line_id: int) -> Decimal:
    spent = (
        Expense.objects.filter(line_id=line_id, reversal__isnull=True)
        .aggregate(total=Sum("amount"))
        .get("total")
    )
    return spent if spent is not None else ZERO


def line_left(*, line: PlanLine) -> Decimal:
    """What is left of a plan line's approved amount (standing expenses deducted)."""
    return line.amount - line_spent(line_id=line.pk)
