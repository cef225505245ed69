"""日结: the accountant closes days in order after checking them; a closed day takes no
new row, the database refusing it too."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction

from clubapp.books import selectors, services
from clubapp.books.models import DayClosing, IncomeCategory, IncomeEntry
from clubapp.books.tests.factories import approved, at, day, expense, fee, first_line

pytestmark = pytest.mark.django_db


def test_closing_keeps_the_days_figures(room, manager, accountant):
    fee(room, manager, "50.00", when=at(2, 10))
    fee(room, manager, "6.00", when=at(2, 15))
    entry = fee(room, manager, "4.00", when=at(1, 15))
    services.day_close(room=room, day=day(1), by=accountant, now=at(1, 18))
    slip = services.slip_create(
        room=room, incomes=[entry], amount=Decimal("4.00"), by=manager, now=at(2, 17)
    )
    services.slip_confirm(slip=slip, by=accountant, now=at(2, 17, 30))
    closing = services.day_close(room=room, day=day(2), by=accountant, note="已核对", now=at(2, 18))
    assert (closing.income_total, closing.handed_over_total, closing.cash_on_hand) == (
        Decimal("56.00"),
        Decimal("4.00"),
        Decimal("56.00"),
    )
    assert (closing.closed_by, closing.note, closing.closed_at) == (accountant, "已核对", at(2, 18))
    assert selectors.day_summary(room=room, day=day(2)).closed


def test_days_close_in_order(room, manager, accountant):
    fee(room, manager, when=at(1))
    fee(room, manager, when=at(3))
    with pytest.raises(ValidationError, match="请先结 2026-11-01 的账"):
        services.day_close(room=room, day=day(3), by=accountant, now=at(4))
    services.day_close(room=room, day=day(1), by=accountant, now=at(4))
    services.day_close(room=room, day=day(3), by=accountant, now=at(4))  # the 2nd had nothing
    assert selectors.last_closed_day(room=room) == day(3)
    assert selectors.day_summary(room=room, day=day(2)).closed


def test_a_day_is_closed_once(room, manager, accountant):
    fee(room, manager, when=at(2))
    services.day_close(room=room, day=day(2), by=accountant, now=at(3))
    for closed in (day(2), day(1)):
        with pytest.raises(ValidationError, match="已结账"):
            services.day_close(room=room, day=closed, by=accountant, now=at(3))
    assert DayClosing.objects.count() == 1


def test_a_day_is_not_closed_before_it_begins(room, accountant):
    with pytest.raises(ValidationError, match="未来"):
        services.day_close(room=room, day=day(5), by=accountant, now=at(4, 23))


def test_a_slip_waiting_keeps_the_day_open(room, manager, accountant):
    entry = fee(room, manager, when=at(2))
    slip = services.slip_create(
        room=room, incomes=[entry], amount=entry.amount, by=manager, now=at(2, 17)
    )
    with pytest.raises(ValidationError, match=f"请先确认或退回缴款单：{slip.number}"):
        services.day_close(room=room, day=day(2), by=accountant, now=at(2, 18))
    services.slip_return(slip=slip, reason="少10元", by=accountant, now=at(2, 18))
    services.day_close(room=room, day=day(2), by=accountant, now=at(2, 19))


def test_an_unconfirmed_expense_keeps_the_day_open(room, manager, accountant, approver):
    plan = approved(room, manager, approver)
    spent = expense(first_line(plan), manager, now=at(2, 16), purchased_on=day(2))
    with pytest.raises(ValidationError, match=f"请先确认或冲正支出：{spent.number}"):
        services.day_close(room=room, day=day(2), by=accountant, now=at(2, 18))
    services.expense_confirm(expense=spent, by=accountant, now=at(2, 18))
    services.day_close(room=room, day=day(2), by=accountant, now=at(2, 19))


@pytest.mark.parametrize("who", ["manager", "approver", "member", "outsider"])
def test_only_the_accountant_closes_a_day(room, request, who):
    with pytest.raises(PermissionDenied):
        services.day_close(room=room, day=day(2), by=request.getfixturevalue(who), now=at(3))
    assert DayClosing.objects.count() == 0


def test_every_write_after_closing_goes_to_the_next_open_day(room, manager, accountant, approver):
    plan = approved(room, manager, approver)
    entry = fee(room, manager, when=at(2, 9))
    services.day_close(room=room, day=day(2), by=accountant, now=at(2, 12))
    # Still the 2nd, after closing: each row lands on the 3rd, marked as the 2nd's.
    slip = services.slip_create(
        room=room, incomes=[entry], amount=entry.amount, by=manager, now=at(2, 17)
    )
    decision = services.slip_return(slip=slip, reason="少", by=accountant, now=at(2, 17, 30))
    spent = expense(first_line(plan), manager, now=at(2, 17), purchased_on=day(2))
    reversal = services.expense_reverse(expense=spent, reason="错", by=accountant, now=at(2, 18))
    for row in (slip, decision, spent, reversal):
        assert (row.book_date, row.late_for) == (day(3), day(2))
    assert selectors.day_summary(room=room, day=day(3)).late_entries == 4


def test_the_database_refuses_a_row_on_a_closed_day(room, manager, accountant):
    fee(room, manager, when=at(2))
    services.day_close(room=room, day=day(2), by=accountant, now=at(3))
    for closed in (day(2), day(1)):
        with pytest.raises(IntegrityError, match="closed day"), transaction.atomic():
            IncomeEntry.objects.create(
                room=room,
                category=IncomeCategory.OTHER,
                amount=Decimal("1.00"),
                received_at=at(2),
                book_date=closed,
                reference=f"X-{closed}",
                recorded_by=manager,
            )
    table = connection.ops.quote_name(IncomeEntry._meta.db_table)
    with pytest.raises(IntegrityError, match="closed day"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (room_id, category, amount, received_at, reference, payer,"
                " description, recorded_by_id, created_at, book_date) "
                "VALUES (%s, 'other', 1, %s, 'X-raw', '', '', %s, %s, %s)",
                [room.pk, at(2), manager.pk, at(2), day(2)],
            )
    assert IncomeEntry.objects.count() == 1
    # The next open day takes rows.
    IncomeEntry.objects.create(
        room=room,
        category=IncomeCategory.OTHER,
        amount=Decimal("1.00"),
        received_at=at(3),
        book_date=day(3),
        reference="X-open",
        recorded_by=manager,
    )
