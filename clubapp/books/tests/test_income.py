"""income_record: the one way a fee enters the cash book (the members app calls it)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from clubapp.books import services
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.books.selectors import cash_through
from clubapp.books.tests.factories import at, day, fee
from clubapp.core.appendonly import AppendOnlyError
from clubapp.members.services import card_issue
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def _record(room, user, amount=Decimal("50.00"), reference="R2026-00001", when=None):
    return services.income_record(
        room=room,
        category=IncomeCategory.CARD_FEE,
        amount=amount,
        received_at=when or timezone.now(),
        reference=reference,
        recorded_by=user,
    )


def test_it_records_an_income_entry_on_the_day_it_was_received(room, manager):
    entry = _record(room, manager, when=at(2, 23, 30))
    assert entry.amount == Decimal("50.00")
    assert (entry.book_date, entry.late_for) == (day(2), None)
    assert cash_through(room=room) == Decimal("50.00")


@pytest.mark.parametrize("amount", [Decimal("0"), Decimal("-1.00"), Decimal("1.005")])
def test_it_refuses_amounts_that_are_not_positive_or_over_precise(room, manager, amount):
    with pytest.raises(ValidationError):
        _record(room, manager, amount=amount)
    assert IncomeEntry.objects.count() == 0


def test_it_refuses_a_float(room, manager):
    with pytest.raises(ValidationError):
        _record(room, manager, amount=50.0)
    assert IncomeEntry.objects.count() == 0


@pytest.mark.parametrize("who", ["accountant", "approver", "member", "outsider"])
def test_only_a_manager_records_income(room, request, who):
    with pytest.raises(PermissionDenied):
        _record(room, request.getfixturevalue(who))
    assert IncomeEntry.objects.count() == 0


def test_a_fee_paid_on_a_closed_day_is_booked_on_the_next_open_day(room, manager, accountant):
    fee(room, manager, when=at(2))
    services.day_close(room=room, day=day(2), by=accountant, now=at(2, 18))
    late = fee(room, manager, "2.00", when=at(2, 18, 30))  # a guest pays after closing
    assert (late.book_date, late.late_for) == (day(3), day(2))
    assert late.belongs_to == day(2)


def test_a_card_issued_on_a_closed_day_lands_on_the_next_open_day(room, manager, accountant):
    fee(room, manager, when=at(3))
    services.day_close(room=room, day=day(3), by=accountant, now=at(3, 12))
    card_issue(member=MemberFactory(room=room), by=manager, now=at(3, 15))
    entry = IncomeEntry.objects.get(category=IncomeCategory.CARD_FEE, received_at=at(3, 15))
    assert (entry.book_date, entry.late_for) == (day(4), day(3))


def test_it_refuses_to_save_an_existing_entry(room, manager):
    entry = _record(room, manager)
    entry.amount = Decimal("1.00")
    with pytest.raises(AppendOnlyError):
        entry.save()
    assert IncomeEntry.objects.get().amount == Decimal("50.00")


def test_it_refuses_delete_and_queryset_update_and_delete(room, manager):
    entry = _record(room, manager)
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        IncomeEntry.objects.filter(pk=entry.pk).update(amount=Decimal("1.00"))
    with pytest.raises(AppendOnlyError):
        IncomeEntry.objects.all().delete()
    assert IncomeEntry.objects.count() == 1


def _bare(room, manager, **fields):
    values = {
        "room": room,
        "category": IncomeCategory.GUEST_FEE,
        "amount": Decimal("2.00"),
        "received_at": at(2),
        "book_date": day(2),
        "reference": "X-1",
        "recorded_by": manager,
        **fields,
    }
    return IncomeEntry(**values)


def test_the_database_refuses_a_negative_amount(room, manager):
    with pytest.raises(IntegrityError), transaction.atomic():
        IncomeEntry.objects.bulk_create([_bare(room, manager, amount=Decimal("-2.00"))])


def test_the_database_refuses_a_reference_twice(room, manager):
    _record(room, manager)
    with pytest.raises(IntegrityError), transaction.atomic():
        IncomeEntry.objects.bulk_create([_bare(room, manager, reference="R2026-00001")])


def test_the_database_refuses_a_late_mark_not_before_the_book_day(room, manager):
    with pytest.raises(IntegrityError), transaction.atomic():
        IncomeEntry.objects.bulk_create([_bare(room, manager, late_for=day(2))])


def test_the_database_refuses_update_and_delete(room, manager):
    entry = _record(room, manager)
    table = IncomeEntry._meta.db_table
    for sql in (
        f"UPDATE {table} SET amount = 1 WHERE id = %s",
        f"DELETE FROM {table} WHERE id = %s",
    ):
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql, [entry.pk])
    assert IncomeEntry.objects.get().amount == Decimal("50.00")
