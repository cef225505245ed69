"""The room's cash book in yuan, 收支两条线 (docs/books.md).

- income 收 (``IncomeEntry``): every yuan received, each with its receipt number;
- hand-over 缴款 (``HandOverSlip`` and its lines, ``SlipDecision``): cash leaves the
  desk only this way, confirmed (入账) or sent back by the accountant;
- purchase plans 购置计划 (``PurchasePlan`` while drafted; ``PlanSubmission``,
  ``PlanLine``, ``PlanDecision``, ``PlanCompletion`` once submitted, all frozen);
- expenses 支 (``Expense``, ``ExpenseConfirmation``): only against an approved line,
  paid by the unit's finance, never out of the cash on hand;
- day closing 日结 (``DayClosing``) and corrections (``Reversal``).

Every row of a book is append-only (``clubapp.core.appendonly``); only a plan's draft
(its header and draft lines) changes, and only until it is submitted.
"""

from clubapp.books.models.days import DayClosing, Reversal, ReversalKind
from clubapp.books.models.expenses import Expense, ExpenseConfirmation, PaidBy
from clubapp.books.models.handover import HandOverLine, HandOverSlip, SlipDecision, SlipOutcome
from clubapp.books.models.income import OTHER_INCOME, IncomeCategory, IncomeEntry
from clubapp.books.models.plans import (
    FUND_CATEGORIES,
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

__all__ = [
    "FUND_CATEGORIES",
    "OTHER_INCOME",
    "DayClosing",
    "Expense",
    "ExpenseCategory",
    "ExpenseConfirmation",
    "HandOverLine",
    "HandOverSlip",
    "IncomeCategory",
    "IncomeEntry",
    "PaidBy",
    "PlanCompletion",
    "PlanDecision",
    "PlanDraftLine",
    "PlanLine",
    "PlanOutcome",
    "PlanState",
    "PlanSubmission",
    "PurchasePlan",
    "Reversal",
    "ReversalKind",
    "SlipDecision",
    "SlipOutcome",
]
