"""日结 and corrections: the accountant closes a day; a wrong entry, slip or expense
is corrected by a reversing entry with a reason, never changed."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.books.models.base import (
    MONEY,
    BookDated,
    late_for_before_book_date,
    per_room,
    positive,
    room_index,
)
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field, room_field


class DayClosing(AppendOnlyModel):
    """日结: the accountant closed this day (and with it every earlier day).

    The figures are the day's summary as it stood, kept as checked: nothing can be
    booked on a closed day any more, so they stay true (``books_check`` recomputes).
    """

    room = room_field()
    date = models.DateField(_("date"))
    income_total = models.DecimalField(_("income (yuan)"), **MONEY)
    handed_over_total = models.DecimalField(_("handed over (yuan)"), **MONEY)
    expense_total = models.DecimalField(_("expenses (yuan)"), **MONEY)
    cash_on_hand = models.DecimalField(_("cash on hand (yuan)"), **MONEY)
    note = models.CharField(_("note"), max_length=200, blank=True)
    closed_by = by_field(_("closed by"))
    closed_at = models.DateTimeField(_("closed at"))

    class Meta:
        verbose_name = _("day closing")
        verbose_name_plural = _("day closings")
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["room", "date"], name="books_dayclosing_once"),
            models.CheckConstraint(
                condition=models.Q(cash_on_hand__gte=0), name="books_dayclosing_cash_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d}"


class ReversalKind(models.TextChoices):
    INCOME = "income", _("Income entry")
    SLIP = "slip", _("Hand-over slip")
    EXPENSE = "expense", _("Expense")


class Reversal(BookDated, AppendOnlyModel):
    """冲正 (CZ2026-0001): cancels one income entry, confirmed slip or expense, with a
    reason, on the day it is booked. The original stays as it was, on its own day."""

    number = models.CharField(_("reversal number"), max_length=20)
    kind = models.CharField(_("kind"), max_length=10, choices=ReversalKind.choices)
    income = models.OneToOneField(
        "books.IncomeEntry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversal",
        verbose_name=_("income entry"),
    )
    slip = models.OneToOneField(
        "books.HandOverSlip",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversal",
        verbose_name=_("hand-over slip"),
    )
    expense = models.OneToOneField(
        "books.Expense",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversal",
        verbose_name=_("expense"),
    )
    amount = models.DecimalField(_("amount (yuan)"), **MONEY)
    reason = models.CharField(_("reason"), max_length=200)
    reversed_by = by_field(_("reversed by"))
    reversed_at = models.DateTimeField(_("reversed at"))

    class Meta:
        verbose_name = _("reversal")
        verbose_name_plural = _("reversals")
        ordering = ["-reversed_at", "-pk"]
        constraints = [
            positive("amount", "books_reversal_amount_positive"),
            models.CheckConstraint(condition=~models.Q(reason=""), name="books_reversal_reason"),
            # Exactly the one target its kind names.
            models.CheckConstraint(
                condition=models.Q(
                    kind="income", income__isnull=False, slip__isnull=True, expense__isnull=True
                )
                | models.Q(
                    kind="slip", income__isnull=True, slip__isnull=False, expense__isnull=True
                )
                | models.Q(
                    kind="expense", income__isnull=True, slip__isnull=True, expense__isnull=False
                ),
                name="books_reversal_one_target",
            ),
            late_for_before_book_date("books_reversal_late_before_book_date"),
            per_room("number", "books_reversal_number_per_room"),
        ]
        indexes = [room_index("book_date", "books_reversal_room_day")]

    def __str__(self) -> str:
        return self.number
