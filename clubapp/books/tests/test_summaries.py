"""The figures: cash on hand, a day, a month, the equipment fund (books.selectors)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubapp.books import selectors, services
from clubapp.books.models import ExpenseCategory, IncomeCategory
from clubapp.books.selectors import DaySummary, FundSummary, MonthSummary
from clubapp.books.tests.factories import (
    approved,
    at,
    day,
    expense,
    fee,
    first_line,
    line,
    other_income,
)

pytestmark = pytest.mark.django_db


def _by_key(lines):
    return {x.key: x.amount for x in lines}


@pytest.fixture
def november(room, manager, accountant, approver):
    """October: a 40.00 card fee. November: fees, a donation, slips, two plans' expenses."""
    old = fee(room, manager, "40.00", when=at(20, month=10))
    fee(room, manager, "50.00", when=at(2, 10))
    guest = fee(room, manager, "6.00", when=at(2, 15), category=IncomeCategory.GUEST_FEE)
    other_income(room, manager, "500.00", category=IncomeCategory.DONATION, received_at=at(3))
    slip = services.slip_create(
        room=room, incomes=[old, guest], amount=Decimal("46.00"), by=manager, now=at(3, 17)
    )
    services.slip_confirm(slip=slip, by=accountant, now=at(4, 9))
    equipment = approved(room, manager, approver)  # 麻将 300.00
    water = approved(
        room, manager, approver, line(ExpenseCategory.CONSUMABLES, "纯净水", "10", "桶", "18.00")
    )
    expense(first_line(equipment), manager, "280.00", now=at(4, 16))
    expense(first_line(water), manager, "90.00", now=at(4, 16))
    wrong = expense(first_line(water), manager, "10.00", now=at(4, 16))
    services.expense_reverse(expense=wrong, reason="录错", by=accountant, now=at(5, 9))
    return {"equipment": equipment, "water": water}


def test_the_day_summary(room, november):
    summary = selectors.day_summary(room=room, day=day(3))
    assert isinstance(summary, DaySummary)
    assert _by_key(summary.income)["donation"] == Decimal("500.00")
    assert (summary.cash_opening, summary.income_total, summary.handed_over) == (
        Decimal("96.00"),
        Decimal("500.00"),
        Decimal("46.00"),
    )
    assert summary.cash_closing == Decimal("550.00")
    assert summary.pending_slips == []  # what still waits now: the slip was confirmed on the 4th


def test_the_day_summary_of_expenses_by_category_and_plan(room, november):
    summary = selectors.day_summary(room=room, day=day(4))
    assert _by_key(summary.expenses) == {
        "chess": Decimal("0.00"),
        "cards": Decimal("0.00"),
        "mahjong": Decimal("280.00"),
        "consumables": Decimal("100.00"),
        "facilities": Decimal("0.00"),
        "other": Decimal("0.00"),
    }
    assert summary.expense_total == Decimal("380.00")
    assert [(x.key, x.amount) for x in summary.expenses_by_plan] == [
        ("JH2026-0001", Decimal("280.00")),
        ("JH2026-0002", Decimal("100.00")),
    ]
    # The reversal of the 5th counts on the 5th.
    assert selectors.day_summary(room=room, day=day(5)).expense_total == Decimal("-10.00")


def test_the_month_summary(room, november):
    month = selectors.month_summary(room=room, year=2026, month=11)
    assert isinstance(month, MonthSummary)
    assert (month.first_day, month.last_day) == (day(1), day(30))
    assert month.opening_balance == Decimal("40.00")
    assert _by_key(month.income) == {
        "card_fee": Decimal("50.00"),
        "renewal_fee": Decimal("0.00"),
        "guest_fee": Decimal("6.00"),
        "tournament": Decimal("0.00"),
        "donation": Decimal("500.00"),
        "other": Decimal("0.00"),
        "compensation": Decimal("0.00"),
    }
    assert (month.income_total, month.expense_total) == (Decimal("556.00"), Decimal("370.00"))
    assert month.closing_balance == Decimal("40.00") + Decimal("556.00") - Decimal("370.00")
    assert (month.cash_opening, month.handed_over, month.cash_closing) == (
        Decimal("40.00"),
        Decimal("46.00"),
        Decimal("550.00"),
    )
    assert month.cash_closing == selectors.desk_cash(room=room, now=at(30)).cash_on_hand
    assert (month.closed_through, month.all_closed) == (None, False)


def test_the_month_before_is_the_opening(room, november):
    october = selectors.month_summary(room=room, year=2026, month=10)
    november_ = selectors.month_summary(room=room, year=2026, month=11)
    assert october.closing_balance == november_.opening_balance
    assert october.cash_closing == november_.cash_opening


def test_the_equipment_fund(room, november):
    """The fund collects non-members' fees and pays equipment and facility lines."""
    month = selectors.month_summary(room=room, year=2026, month=11)
    assert month.fund == FundSummary(
        opening=Decimal("0.00"),
        collected=Decimal("6.00"),
        spent=Decimal("280.00"),  # the mahjong line; water is not equipment
        closing=Decimal("-274.00"),
    )
    assert selectors.fund_summary(room=room) == month.fund
    assert selectors.fund_balance(room=room) == Decimal("-274.00")


def test_the_fund_since_the_start_and_for_a_month(room, manager):
    fee(room, manager, "8.00", when=at(20, month=10), category=IncomeCategory.GUEST_FEE)
    fee(room, manager, "4.00", when=at(2), category=IncomeCategory.GUEST_FEE)
    fund = selectors.fund_summary(room=room, first=day(1), last=day(30))
    assert fund == FundSummary(
        opening=Decimal("8.00"),
        collected=Decimal("4.00"),
        spent=Decimal("0.00"),
        closing=Decimal("12.00"),
    )


def test_the_desk_flags_a_receipt_older_than_the_limit(room, manager):
    fee(room, manager, "50.00", when=at(1, 10))
    fee(room, manager, "6.00", when=at(5, 10))
    on_time = selectors.desk_cash(room=room, now=at(8, 18))  # 7 days: not late yet
    assert (on_time.oldest_days, on_time.late, on_time.late_count) == (7, False, 0)
    late = selectors.desk_cash(room=room, now=at(9, 9))
    assert (late.cash_on_hand, late.receipts, late.oldest_days, late.late) == (
        Decimal("56.00"),
        2,
        8,
        True,
    )
    assert late.late_count == 1
    room.handover_limit_days = 3
    room.save()
    assert selectors.desk_cash(room=room, now=at(9, 9)).late_count == 2


def test_an_empty_desk(room):
    desk = selectors.desk_cash(room=room, now=at(4))
    assert (desk.cash_on_hand, desk.oldest, desk.late) == (Decimal("0.00"), None, False)


def test_day_rows_list_the_days_with_entries(room, november):
    rows = selectors.day_rows(room=room, first=day(1), last=day(30))
    assert [r.day for r in rows] == [day(5), day(4), day(3), day(2)]
    assert (rows[2].income, rows[2].handed_over) == (Decimal("500.00"), Decimal("46.00"))


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["fee", "slip", "return", "confirm", "reverse"]), st.integers(1, 9)),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_cash_on_hand_is_the_same_however_it_is_summed(room, manager, accountant, actions):
    """Receipts at the desk, the sums by book day and the day summaries agree."""
    with transaction.atomic():
        sid = transaction.savepoint()
        for n, (action, amount) in enumerate(actions):
            when = at(1 + n, 10)
            at_desk = list(selectors.receipts_to_hand_over(room=room))
            pending = list(selectors.pending_slips(room=room))
            if action == "fee" or not at_desk and action in ("slip", "reverse"):
                fee(room, manager, f"{amount}.00", when=when)
            elif action == "slip":
                services.slip_create(
                    room=room,
                    incomes=at_desk[:2],
                    amount=sum((e.amount for e in at_desk[:2]), Decimal("0.00")),
                    by=manager,
                    now=when,
                )
            elif action == "reverse":
                services.income_reverse(entry=at_desk[0], reason="错", by=accountant, now=when)
            elif pending and action == "return":
                services.slip_return(slip=pending[0], reason="少", by=accountant, now=when)
            elif pending:
                services.slip_confirm(slip=pending[0], by=accountant, now=when)
        desk = selectors.desk_cash(room=room, now=at(30)).cash_on_hand
        assert desk == selectors.cash_through(room=room)
        last = day(len(actions))
        assert selectors.day_summary(room=room, day=last).cash_closing == desk
        month = selectors.month_summary(room=room, year=2026, month=11)
        assert month.cash_closing == desk >= 0
        transaction.savepoint_rollback(sid)


def test_the_income_booked_and_reversed_in_a_month(room, manager, accountant, november):
    """What the monthly report reads beside the summary: entries and gross by category
    (before reversals), the month's entries and the reversals booked in it."""
    wrong = other_income(
        room, manager, "20.00", category=IncomeCategory.DONATION, received_at=at(6)
    )
    services.income_reverse(entry=wrong, reason="重复登记", by=accountant, now=at(6, 12))
    booked = selectors.income_booked(room=room, first=day(1), last=day(30))
    assert booked == {
        "card_fee": (1, Decimal("50.00")),
        "guest_fee": (1, Decimal("6.00")),
        "donation": (2, Decimal("520.00")),
    }
    entries = selectors.income_booked_between(room=room, first=day(1), last=day(30))
    assert [e.amount for e in entries] == [
        Decimal("50.00"), Decimal("6.00"), Decimal("500.00"), Decimal("20.00")
    ]  # fmt: skip
    reversals = list(selectors.income_reversals_between(room=room, first=day(1), last=day(30)))
    assert [(r.income, r.amount) for r in reversals] == [(wrong, Decimal("20.00"))]
    month = selectors.month_summary(room=room, year=2026, month=11)
    assert month.income_reversed == Decimal("20.00")
    assert _by_key(month.income)["donation"] == Decimal("500.00")  # net of the reversal
    assert selectors.income_booked(room=room, first=day(1, month=10), last=day(31, month=10)) == {
        "card_fee": (1, Decimal("40.00"))
    }
