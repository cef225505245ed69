"""收: income entries, one per receipt."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubapp.books.models.base import (
    MONEY,
    BookDated,
    late_for_before_book_date,
    per_room,
    room_index,
)
from clubapp.core.appendonly import AppendOnlyModel
from clubapp.core.models import by_field


class IncomeCategory(models.TextChoices):
    # From the members app, each with its members.Receipt.
    CARD_FEE = "card_fee", _("Card fee")
    RENEWAL_FEE = "renewal_fee", _("Yearly review fee")
    GUEST_FEE = "guest_fee", _("Non-member equipment fee")
    # Recorded in the cash book by a manager, with a receipt of the same series.
    TOURNAMENT = "tournament", _("Tournament entry fee")
    DONATION = "donation", _("Donation")
    OTHER = "other", _("Other income")
    # 按价赔偿 (篇三 四.6): recorded with the damage by the activities app.
    COMPENSATION = "compensation", _("Compensation for damage")


# What a manager records by hand; the fees come from the members app only.
OTHER_INCOME = (
    IncomeCategory.TOURNAMENT,
    IncomeCategory.DONATION,
    IncomeCategory.OTHER,
    IncomeCategory.COMPENSATION,
)


class IncomeEntry(BookDated, AppendOnlyModel):
    """One 收 line of the cash book, one receipt. Never changed, never deleted."""

    category = models.CharField(_("category"), max_length=20, choices=IncomeCategory.choices)
    amount = models.DecimalField(_("amount (yuan)"), **MONEY)
    received_at = models.DateTimeField(_("received at"))
    # The receipt's number (R2026-00001): where the money came from, for the auditor.
    reference = models.CharField(_("reference"), max_length=40)
    payer = models.CharField(_("paid by"), max_length=50, blank=True, default="")
    description = models.CharField(_("description"), max_length=200, blank=True)
    recorded_by = by_field(_("recorded by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # From the form: the same form sent twice books once.
    request_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        verbose_name = _("income entry")
        verbose_name_plural = _("income entries")
        ordering = ["-received_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="books_income_amount_positive"
            ),
            per_room("reference", "books_income_reference_per_room"),
            late_for_before_book_date("books_income_late_before_book_date"),
        ]
        indexes = [room_index("book_date", "books_income_room_day")]

    def __str__(self) -> str:
        return f"{self.reference} {self.amount}"

    def get_absolute_url(self) -> str:
        return reverse("books:income_detail", args=[self.pk])

    @property
    def belongs_to(self) -> dt.date:
        """The day the money came in (补记 entries are booked later)."""
        return self.late_for or self.book_date
