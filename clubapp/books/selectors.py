"""Reads of the cash book."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import QuerySet, Sum

from clubapp.books.models import IncomeEntry
from clubapp.core.models import Room


def income_list(*, room: Room) -> QuerySet[IncomeEntry]:
    return IncomeEntry.objects.filter(room=room).select_related("recorded_by")


def income_total(*, room: Room) -> Decimal:
    total = IncomeEntry.objects.filter(room=room).aggregate(total=Sum("amount"))["total"]
    return total if total is not None else Decimal("0.00")
