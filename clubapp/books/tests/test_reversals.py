"""冲正: income entries are corrected by a reversing entry with a reason, never changed."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubapp.books import selectors, services
from clubapp.books.models import IncomeEntry, Reversal
from clubapp.books.tests.factories import at, day, fee

pytestmark = pytest.mark.django_db


def test_the_accountant_reverses_an_income_entry(room, manager, accountant):
    entry = fee(room, manager, "50.00", when=at(2))
    reversal = services.income_reverse(entry=entry, reason="重复登记", by=accountant, now=at(3, 9))
    assert (reversal.number, reversal.kind, reversal.amount, reversal.reason) == (
        "CZ2026-0001",
        "income",
        Decimal("50.00"),
        "重复登记",
    )
    assert (reversal.reversed_by, reversal.book_date) == (accountant, day(3))
    # The entry stays as it was, on its own day; the reversal counts on its own.
    assert IncomeEntry.objects.get().amount == Decimal("50.00")
    assert selectors.day_summary(room=room, day=day(2)).income_total == Decimal("50.00")
    assert selectors.day_summary(room=room, day=day(3)).income_total == Decimal("-50.00")
    assert selectors.desk_cash(room=room, now=at(3, 9)).cash_on_hand == Decimal("0.00")
    assert selectors.income_list(room=room).get().state == "reversed"


def test_a_reversal_needs_a_reason(room, manager, accountant):
    entry = fee(room, manager, when=at(2))
    with pytest.raises(ValidationError, match="原因"):
        services.income_reverse(entry=entry, reason="  ", by=accountant)
    assert Reversal.objects.count() == 0


def test_an_entry_is_reversed_once(room, manager, accountant):
    entry = fee(room, manager, when=at(2))
    services.income_reverse(entry=entry, reason="错", by=accountant)
    with pytest.raises(ValidationError, match="已冲正"):
        services.income_reverse(entry=entry, reason="又错", by=accountant)


def test_an_entry_handed_over_is_not_reversed_until_its_slip_is_back(room, manager, accountant):
    entry = fee(room, manager, when=at(2))
    slip = services.slip_create(room=room, incomes=[entry], amount=entry.amount, by=manager)
    with pytest.raises(ValidationError, match="须先退回或冲正该缴款单"):
        services.income_reverse(entry=entry, reason="错", by=accountant)
    services.slip_return(slip=slip, reason="收据有误", by=accountant)
    services.income_reverse(entry=entry, reason="错", by=accountant)


@pytest.mark.parametrize("who", ["manager", "approver", "member", "outsider"])
def test_the_desk_cannot_make_a_receipt_disappear(room, manager, request, who):
    entry = fee(room, manager, when=at(2))
    with pytest.raises(PermissionDenied):
        services.income_reverse(entry=entry, reason="错", by=request.getfixturevalue(who))
    assert Reversal.objects.count() == 0
