"""缴款: the desk hands cash over to the unit's finance with a numbered slip.

A slip lists the receipts (income entries) it covers, each in full; the accountant
confirms it (入账) or sends it back with a reason. A receipt is on at most one live
slip: ``HandOverLine.attempt`` counts the slips it was on that were sent back or
reversed, and (income, attempt) is unique, so two slips racing for the same receipt
cannot both be written.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse
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


class HandOverSlip(BookDated, AppendOnlyModel):
    """缴款单 (JK2026-0001): cash counted and handed over, with the receipts it covers."""

    number = models.CharField(_("slip number"), max_length=20)
    amount = models.DecimalField(_("amount (yuan)"), **MONEY)
    handed_over_at = models.DateTimeField(_("handed over at"))
    handed_over_by = by_field(_("handed over by"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    # The slip form's key: the same form sent twice writes one slip (core.requestkeys).
    request_key = models.UUIDField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("hand-over slip")
        verbose_name_plural = _("hand-over slips")
        ordering = ["-handed_over_at", "-pk"]
        constraints = [
            positive("amount", "books_slip_amount_positive"),
            late_for_before_book_date("books_slip_late_before_book_date"),
            # Conditional, so that adding it keeps the table (and its triggers) on SQLite.
            models.UniqueConstraint(
                fields=["request_key"],
                condition=models.Q(request_key__isnull=False),
                name="books_slip_request_key_unique",
            ),
            per_room("number", "books_slip_number_per_room"),
        ]
        indexes = [room_index("book_date", "books_slip_room_day")]

    def __str__(self) -> str:
        return self.number

    def get_absolute_url(self) -> str:
        return reverse("books:slip_detail", args=[self.pk])


class HandOverLine(AppendOnlyModel):
    """One receipt on a slip, in full."""

    room = room_field()
    slip = models.ForeignKey(
        HandOverSlip, on_delete=models.PROTECT, related_name="lines", verbose_name=_("slip")
    )
    income = models.ForeignKey(
        "books.IncomeEntry",
        on_delete=models.PROTECT,
        related_name="handover_lines",
        verbose_name=_("receipt"),
    )
    # How many earlier slips of this receipt were sent back or reversed.
    attempt = models.PositiveSmallIntegerField(_("attempt"), default=0)

    class Meta:
        verbose_name = _("hand-over line")
        verbose_name_plural = _("hand-over lines")
        constraints = [
            models.UniqueConstraint(
                fields=["income", "attempt"], name="books_handoverline_once_per_attempt"
            ),
            models.UniqueConstraint(
                fields=["slip", "income"], name="books_handoverline_once_per_slip"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.slip_id}: {self.income_id}"


class SlipOutcome(models.TextChoices):
    CONFIRMED = "confirmed", _("Confirmed (booked)")
    RETURNED = "returned", _("Sent back")


class SlipDecision(BookDated, AppendOnlyModel):
    """The accountant's answer to a slip, once: confirmed, or sent back with a reason.

    A slip sent back puts its cash back on the desk (booked on the day it is sent back).
    """

    slip = models.OneToOneField(
        HandOverSlip, on_delete=models.PROTECT, related_name="decision", verbose_name=_("slip")
    )
    outcome = models.CharField(_("outcome"), max_length=10, choices=SlipOutcome.choices)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    decided_by = by_field(_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("slip decision")
        verbose_name_plural = _("slip decisions")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(outcome="confirmed") | ~models.Q(reason=""),
                name="books_slipdecision_return_has_reason",
            ),
            late_for_before_book_date("books_slipdecision_late_before_book_date"),
        ]
        indexes = [room_index("book_date", "books_slipdecision_room_day")]

    def __str__(self) -> str:
        return f"{self.slip_id}: {self.outcome}"
