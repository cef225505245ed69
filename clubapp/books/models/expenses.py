"""支: an expense is booked against one line of an approved plan, never out of the
cash on hand. The unit's finance pays it, or reimburses a named person."""

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


class PaidBy(models.TextChoices):
    FINANCE = "finance", _("The unit's finance")
    REIMBURSEMENT = "reimbursement", _("Reimbursed to a person")


class Expense(BookDated, AppendOnlyModel):
    """支出 (ZC2026-0001): what was actually paid for a plan line, with its invoice."""

    number = models.CharField(_("expense number"), max_length=20)
    line = models.ForeignKey(
        "books.PlanLine",
        on_delete=models.PROTECT,
        related_name="expenses",
        verbose_name=_("plan line"),
    )
    amount = models.DecimalField(_("amount (yuan)"), **MONEY)
    supplier = models.CharField(_("supplier"), max_length=100)
    invoice_number = models.CharField(_("invoice number"), max_length=40)
    purchased_on = models.DateField(_("purchase date"))
    paid_by = models.CharField(_("paid by"), max_length=20, choices=PaidBy.choices)
    reimbursed_to = models.CharField(_("reimbursed to"), max_length=50, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = by_field(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))
    request_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        verbose_name = _("expense")
        verbose_name_plural = _("expenses")
        ordering = ["-recorded_at", "-pk"]
        constraints = [
            positive("amount", "books_expense_amount_positive"),
            models.CheckConstraint(
                condition=~models.Q(supplier="") & ~models.Q(invoice_number=""),
                name="books_expense_supplier_and_invoice",
            ),
            models.CheckConstraint(
                condition=models.Q(paid_by="finance", reimbursed_to="")
                | (models.Q(paid_by="reimbursement") & ~models.Q(reimbursed_to="")),
                name="books_expense_reimbursement_named",
            ),
            late_for_before_book_date("books_expense_late_before_book_date"),
            per_room("number", "books_expense_number_per_room"),
        ]
        indexes = [room_index("book_date", "books_expense_room_day")]

    def __str__(self) -> str:
        return self.number

    def get_absolute_url(self) -> str:
        return reverse("books:expense_detail", args=[self.pk])


class ExpenseConfirmation(AppendOnlyModel):
    """The accountant has checked the expense against its invoice (once)."""

    room = room_field()
    expense = models.OneToOneField(
        Expense, on_delete=models.PROTECT, related_name="confirmation", verbose_name=_("expense")
    )
    confirmed_by = by_field(_("confirmed by"))
    confirmed_at = models.DateTimeField(_("confirmed at"))

    class Meta:
        verbose_name = _("expense confirmation")
        verbose_name_plural = _("expense confirmations")

    def __str__(self) -> str:
        return str(self.expense_id)
