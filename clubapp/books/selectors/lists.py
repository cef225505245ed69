"""The querysets behind the cash book's pages, each with what its rows show."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, TypedDict

from django.db.models import (
    DecimalField,
    ExpressionWrapper,
    F,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
)

from clubapp.books.models import (
    Expense,
    HandOverSlip,
    IncomeEntry,
    PlanDraftLine,
    PlanLine,
    PlanOutcome,
    PlanState,
    PurchasePlan,
    Reversal,
    ReversalKind,
)
from clubapp.books.selectors.state import (
    expenses_with_state,
    income_at_desk,
    income_with_state,
    plans_with_state,
    slips_with_state,
)
from clubapp.core.models import Room

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from clubapp.books.selectors.state import ExpenseWithState, IncomeWithState, SlipWithState


class PlanRow(TypedDict):
    """What ``plan_list`` annotates on each plan."""

    state: str
    draft_total: Decimal | None


if TYPE_CHECKING:
    PlanWithRow = WithAnnotations[PurchasePlan, PlanRow]


def income_list(*, room: Room) -> QuerySet[IncomeWithState]:
    return income_with_state(IncomeEntry.objects.filter(room=room)).select_related(
        "recorded_by", "reversal"
    )


def income_booked_between(
    *, room: Room, first: dt.date, last: dt.date
) -> QuerySet[IncomeWithState]:
    """The 收 entries booked from ``first`` to ``last`` (book days), oldest first."""
    return (
        income_list(room=room)
        .filter(book_date__gte=first, book_date__lte=last)
        .order_by("received_at", "pk")
    )


def income_reversals_between(*, room: Room, first: dt.date, last: dt.date) -> QuerySet[Reversal]:
    """The reversals of 收 entries booked from ``first`` to ``last``, oldest first."""
    return (
        Reversal.objects.filter(
            room=room, kind=ReversalKind.INCOME, book_date__gte=first, book_date__lte=last
        )
        .select_related("income", "reversed_by")
        .order_by("reversed_at", "pk")
    )


def receipts_to_hand_over(*, room: Room) -> QuerySet[IncomeEntry]:
    """Receipts whose cash is still at the desk, oldest first."""
    return (
        income_at_desk(IncomeEntry.objects.filter(room=room))
        .select_related("recorded_by")
        .order_by("received_at", "pk")
    )


def slip_list(*, room: Room) -> QuerySet[SlipWithState]:
    return slips_with_state(HandOverSlip.objects.filter(room=room)).select_related(
        "handed_over_by", "decision", "decision__decided_by"
    )


def slip_receipts(*, slip: HandOverSlip) -> QuerySet[IncomeEntry]:
    return IncomeEntry.objects.filter(handover_lines__slip=slip).order_by("received_at", "pk")


def expense_list(*, room: Room) -> QuerySet[ExpenseWithState]:
    return expenses_with_state(Expense.objects.filter(room=room)).select_related(
        "recorded_by", "line", "line__submission", "line__submission__plan"
    )


def plan_list(*, room: Room) -> QuerySet[PlanWithRow]:
    """Plans with their state and ``draft_total`` (a draft's lines, priced as estimated)."""
    priced = ExpressionWrapper(F("quantity") * F("unit_price"), output_field=DecimalField())
    draft_total = (
        PlanDraftLine.objects.filter(plan=OuterRef("pk"))
        .order_by()
        .values("plan")
        .annotate(total=Sum(priced))
        .values("total")
    )
    return (
        plans_with_state(PurchasePlan.objects.filter(room=room))
        .annotate(draft_total=Subquery(draft_total))
        .select_related("drafted_by", "submission")
    )


def plans_awaiting_approval(*, room: Room) -> QuerySet[PlanWithRow]:
    """Submitted plans with no decision yet, oldest submission first (the approver's list)."""
    return (
        plan_list(room=room)
        .filter(state=PlanState.SUBMITTED.value)
        .order_by("submission__submitted_at", "pk")
    )


def lines_open_for_expenses(*, room: Room) -> QuerySet[PlanLine]:
    """Lines of approved plans not done yet: what an expense may be booked against."""
    return (
        PlanLine.objects.filter(
            room=room,
            submission__decision__outcome=PlanOutcome.APPROVED,
            submission__completion__isnull=True,
        )
        .select_related("submission", "submission__plan")
        .order_by("-submission__plan__created_at", "position")
    )


def plan_lines(*, room: Room) -> QuerySet[PlanLine]:
    return PlanLine.objects.filter(room=room).select_related("submission", "submission__plan")
