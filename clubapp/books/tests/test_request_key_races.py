"""One form sent eight times at once books once: every caller gets the first's row.

Each form of the cash book that books something (other income, an expense, a
hand-over slip) carries a ``request_key``; ``core.requestkeys.book_once`` answers a
second request with the row already booked under it. The races need PostgreSQL
(SQLite serialises writers); the repeat in sequence runs on both.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from clubapp.books import services
from clubapp.books.models import Expense, HandOverLine, HandOverSlip, IncomeEntry
from clubapp.books.tests.factories import approved, at, expense, fee, first_line, other_income
from clubapp.core.tests.threads import THREADS, postgres_only, race


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_income_forms_with_one_key_book_one_entry(room, manager):
    key = uuid.uuid4()
    entries = race(lambda: other_income(room, manager, "120.00", request_key=key))
    booked = IncomeEntry.objects.get(request_key=key)
    assert [e.pk for e in entries] == [booked.pk] * THREADS
    assert IncomeEntry.objects.count() == 1
    # the seven answered from the first's row took no receipt number: none is skipped
    assert other_income(room, manager, "10.00").reference == "R2026-00002"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_expense_forms_with_one_key_book_one_expense(room, manager, approver):
    line = first_line(approved(room, manager, approver))
    key = uuid.uuid4()
    expenses = race(lambda: expense(line, manager, "100.00", request_key=key))
    booked = Expense.objects.get(request_key=key)
    assert [e.pk for e in expenses] == [booked.pk] * THREADS
    assert Expense.objects.count() == 1
    assert expense(line, manager, "10.00").number == "ZC2026-0002"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_eight_slip_forms_with_one_key_write_one_slip(room, manager):
    entries = [fee(room, manager, "50.00", when=at(2)), fee(room, manager, "6.00", when=at(2))]
    key = uuid.uuid4()
    slips = race(
        lambda: services.slip_create(
            room=room, incomes=entries, amount=Decimal("56.00"), by=manager, request_key=key
        )
    )
    booked = HandOverSlip.objects.get(request_key=key)
    assert [s.pk for s in slips] == [booked.pk] * THREADS
    assert HandOverSlip.objects.count() == 1
    assert HandOverLine.objects.filter(slip=booked).count() == 2


@pytest.mark.django_db
def test_a_slip_form_sent_again_gives_the_first_slip(room, manager):
    entry = fee(room, manager, "50.00", when=at(2))
    key = uuid.uuid4()

    def send() -> HandOverSlip:
        return services.slip_create(
            room=room, incomes=[entry], amount=Decimal("50.00"), by=manager, request_key=key
        )

    first = send()
    assert send() == first
    assert HandOverSlip.objects.count() == 1


@pytest.mark.django_db
def test_a_slip_form_with_a_new_key_is_refused_for_a_receipt_handed_over(room, manager):
    entry = fee(room, manager, "50.00", when=at(2))
    services.slip_create(
        room=room, incomes=[entry], amount=Decimal("50.00"), by=manager, request_key=uuid.uuid4()
    )
    with pytest.raises(ValidationError, match="R2026-9"):
        services.slip_create(
            room=room,
            incomes=[entry],
            amount=Decimal("50.00"),
            by=manager,
            request_key=uuid.uuid4(),
        )
