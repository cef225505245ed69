"""Admin of the cash book: every row can be read, none added, changed or deleted here,
and each room's admin lists its own rows only (``InRoom``).

The books change only through ``clubapp.books.services`` (and most of their rows never
change at all); a plan's draft is edited on its page, not here.
"""

from __future__ import annotations

from django.contrib import admin

from clubapp.books.models import (
    DayClosing,
    Expense,
    ExpenseConfirmation,
    HandOverLine,
    HandOverSlip,
    IncomeEntry,
    PlanCompletion,
    PlanDecision,
    PlanDraftLine,
    PlanLine,
    PlanSubmission,
    PurchasePlan,
    Reversal,
    SlipDecision,
)
from clubapp.core.adminbase import InRoom, ReadOnlyAdmin


class RoomReadOnlyAdmin(InRoom, ReadOnlyAdmin):
    """A book row of the request's room, read only."""


@admin.register(IncomeEntry)
class IncomeEntryAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["reference", "received_at", "book_date", "late_for", "category", "amount"]
    list_filter = ["category", "book_date"]
    search_fields = ["reference", "payer", "description"]


@admin.register(HandOverSlip)
class HandOverSlipAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["number", "handed_over_at", "book_date", "amount", "handed_over_by"]
    search_fields = ["number"]


@admin.register(Expense)
class ExpenseAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["number", "recorded_at", "book_date", "amount", "supplier", "invoice_number"]
    search_fields = ["number", "supplier", "invoice_number"]


@admin.register(PurchasePlan)
class PurchasePlanAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["number", "title", "drafted_by", "created_at"]
    search_fields = ["number", "title"]


@admin.register(DayClosing)
class DayClosingAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["date", "income_total", "handed_over_total", "cash_on_hand", "closed_by"]


@admin.register(Reversal)
class ReversalAdmin(InRoom, ReadOnlyAdmin):
    list_display = ["number", "kind", "amount", "reason", "reversed_by", "reversed_at"]


for model in (
    HandOverLine,
    SlipDecision,
    PlanDraftLine,
    PlanSubmission,
    PlanLine,
    PlanDecision,
    PlanCompletion,
    ExpenseConfirmation,
):
    admin.site.register(model, RoomReadOnlyAdmin)
