from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.books.selectors import income_total
from clubapp.books.services import income_record
from clubapp.core.appendonly import AppendOnlyError

pytestmark = pytest.mark.django_db


def _record(room, user, amount=Decimal("50.00"), reference="R2026-00001"):
    return income_record(
        room=room,
        category=IncomeCategory.CARD_FEE,
        amount=amount,
        received_at=timezone.now(),
        reference=reference,
        recorded_by=user,
    )


def test_it_records_an_income_entry(room, manager):
    entry = _record(room, manager)
    assert entry.amount == Decimal("50.00")
    assert income_total(room=room) == Decimal("50.00")


@pytest.mark.parametrize("amount", [Decimal("0"), Decimal("-1.00")])
def test_it_refuses_amounts_that_are_not_positive(room, manager, amount):
    with pytest.raises(ValidationError):
        _record(room, manager, amount=amount)
    assert IncomeEntry.objects.count() == 0


def test_it_refuses_a_float(room, manager):
    with pytest.raises(ValidationError):
        _record(room, manager, amount=50.0)
    assert IncomeEntry.objects.count() == 0


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


def test_the_database_refuses_a_negative_amount(room, manager):
    with pytest.raises(IntegrityError), transaction.atomic():
        IncomeEntry.objects.bulk_create(
            [
                IncomeEntry(
                    room=room,
                    category=IncomeCategory.GUEST_FEE,
                    amount=Decimal("-2.00"),
                    received_at=timezone.now(),
                    reference="X-1",
                    recorded_by=manager,
                )
            ]
        )


def test_the_database_refuses_a_reference_twice(room, manager):
    _record(room, manager)
    with pytest.raises(IntegrityError), transaction.atomic():
        IncomeEntry.objects.bulk_create(
            [
                IncomeEntry(
                    room=room,
                    category=IncomeCategory.CARD_FEE,
                    amount=Decimal("50.00"),
                    received_at=timezone.now(),
                    reference="R2026-00001",
                    recorded_by=manager,
                )
            ]
        )


def test_on_postgresql_a_trigger_refuses_update_and_delete(room, manager):
    if connection.vendor != "postgresql":
        pytest.skip("the append-only trigger exists on PostgreSQL only")
    entry = _record(room, manager)
    table = IncomeEntry._meta.db_table
    for sql in (
        f"UPDATE {table} SET amount = 1 WHERE id = %s",
        f"DELETE FROM {table} WHERE id = %s",
    ):
        with pytest.raises(Exception, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql, [entry.pk])
    assert IncomeEntry.objects.get().amount == Decimal("50.00")
