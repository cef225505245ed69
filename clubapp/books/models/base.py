"""What every dated book row shares: its room, the day it is booked on, and 补记."""

from __future__ import annotations

from typing import Final, TypedDict

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.core.models import room_field


class MoneyDigits(TypedDict):
    """The keyword arguments of every yuan ``DecimalField`` (typed, for django-stubs)."""

    max_digits: int
    decimal_places: int


# Yuan with fen: up to 99,999,999.99. Never a float.
MONEY: Final[MoneyDigits] = {"max_digits": 10, "decimal_places": 2}


class BookDated(models.Model):
    """A row booked on one day of the cash book.

    ``book_date`` is the day whose summary it belongs to. A row whose own day was
    already closed is booked on the next open day instead, and ``late_for`` keeps
    the day it belongs to (补记). The database refuses a row on a closed day
    (``clubapp.books.guards.closed_day``).
    """

    room = room_field()
    book_date = models.DateField(_("booked on"), db_index=True)
    late_for = models.DateField(_("late entry for"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_late(self) -> bool:
        return self.late_for is not None


def late_for_before_book_date(name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=models.Q(late_for__isnull=True) | models.Q(late_for__lt=models.F("book_date")),
        name=name,
    )


def positive(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=models.Q(**{f"{field}__gt": 0}), name=name)


def per_room(field: str, name: str) -> models.UniqueConstraint:
    """A document number unique in its room: each room counts its own
    (``core.services.next_number``), so two rooms both have their number 1."""
    return models.UniqueConstraint(fields=["room", field], name=name)


def room_index(field: str, name: str) -> models.Index:
    """The lists' index: a room's rows by ``field``, the room first."""
    return models.Index(fields=["room", field], name=name)
