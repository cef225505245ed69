"""Writes of the cash book. Other apps book money only through these functions.

Every function is keyword-only, typed and atomic; it checks who may make the write
(``PermissionDenied``) and refuses bad input with a ``ValidationError`` whose message
the page shows, having saved nothing. Dated rows are booked on their own day, or on
the next open day marked 补记 when their day is closed (``books.services.days``).
"""

from clubapp.books.services.days import book_day, day_close
from clubapp.books.services.expenses import expense_confirm, expense_record
from clubapp.books.services.handover import slip_confirm, slip_create, slip_return
from clubapp.books.services.income import income_other_record, income_record
from clubapp.books.services.plans import (
    LineIn,
    plan_complete,
    plan_copy,
    plan_create,
    plan_decide,
    plan_submit,
    plan_supplement,
    plan_update,
)
from clubapp.books.services.reversals import expense_reverse, income_reverse, slip_reverse

__all__ = [
    "LineIn",
    "book_day",
    "day_close",
    "expense_confirm",
    "expense_record",
    "expense_reverse",
    "income_other_record",
    "income_record",
    "income_reverse",
    "plan_complete",
    "plan_copy",
    "plan_create",
    "plan_decide",
    "plan_submit",
    "plan_supplement",
    "plan_update",
    "slip_confirm",
    "slip_create",
    "slip_return",
    "slip_reverse",
]
