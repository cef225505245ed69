"""The demo room gets a month of books in every state."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from clubapp.books import selectors
from clubapp.books.models import (
    DayClosing,
    Expense,
    HandOverSlip,
    IncomeEntry,
    PlanState,
    Reversal,
)
from clubapp.core.models import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(room):
    call_command("demo", verbosity=0)
    return Room.objects.get()


def test_it_has_slips_confirmed_sent_back_reversed_and_waiting(demo):
    states = {s.state for s in selectors.slip_list(room=demo)}
    assert states == {"confirmed", "returned", "reversed", "pending"}


def test_it_has_plans_in_every_state(demo):
    assert {p.state for p in selectors.plan_list(room=demo)} == set(PlanState.values)


def test_it_has_a_closed_week_and_a_late_entry(demo):
    closed = selectors.last_closed_day(room=demo)
    assert closed is not None
    assert all(
        selectors.day_summary(room=demo, day=closed - dt.timedelta(days=n)).closed for n in range(7)
    )
    assert DayClosing.objects.count() >= 7
    late = IncomeEntry.objects.get(late_for__isnull=False)
    assert late.late_for <= closed < late.book_date


def test_it_has_expenses_confirmed_waiting_reversed_and_reimbursed(demo):
    states = {e.state for e in selectors.expense_list(room=demo)}
    assert states == {"booked", "confirmed", "reversed"}
    assert Expense.objects.filter(paid_by="reimbursement").exists()
    assert set(Reversal.objects.values_list("kind", flat=True)) == {"income", "expense", "slip"}


def test_the_desk_flags_the_late_receipt(demo):
    desk = selectors.desk_cash(room=demo)
    assert desk.late and desk.oldest == IncomeEntry.objects.get(late_for__isnull=False)
    assert desk.cash_on_hand == selectors.cash_through(room=demo)


def test_it_runs_once(demo):
    counts = (IncomeEntry.objects.count(), HandOverSlip.objects.count())
    call_command("demo", verbosity=0)
    assert (IncomeEntry.objects.count(), HandOverSlip.objects.count()) == counts
