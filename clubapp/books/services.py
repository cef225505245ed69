"""Writes of the cash book. Other apps book money only through these functions."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.core.models import Room


@transaction.atomic
def income_record(
    *,
    room: Room,
    category: IncomeCategory,
    amount: Decimal,
    received_at: datetime,
    reference: str,
    recorded_by: User,
    description: str = "",
) -> IncomeEntry:
    """Append one 收 entry. The amount must be a positive Decimal (never a float)."""
    if not isinstance(amount, Decimal):
        raise ValidationError(_("The amount must be a decimal number."), code="amount_type")
    if amount <= 0:
        raise ValidationError(_("An income must be more than zero."), code="amount_not_positive")
    return IncomeEntry.objects.create(
        room=room,
        category=category,
        amount=amount.quantize(Decimal("0.01")),
        received_at=received_at,
        reference=reference,
        recorded_by=recorded_by,
        description=description,
    )
