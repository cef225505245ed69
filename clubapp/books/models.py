"""The room's cash book in yuan: income 收 and expenses 支, purchase plans, day closing.

Only the income side exists so far, as much as the members' fees need (收 entries
written by ``clubapp.books.services.income_record``); the cash-book issue extends it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubapp.core.appendonly import AppendOnlyModel


class IncomeCategory(models.TextChoices):
    CARD_FEE = "card_fee", _("Card fee")
    RENEWAL_FEE = "renewal_fee", _("Yearly review fee")
    GUEST_FEE = "guest_fee", _("Non-member equipment fee")


class IncomeEntry(AppendOnlyModel):
    """One 收 line of the cash book. Never changed, never deleted."""

    room = models.ForeignKey(
        "core.Room", on_delete=models.PROTECT, related_name="+", verbose_name=_("room")
    )
    category = models.CharField(_("category"), max_length=20, choices=IncomeCategory.choices)
    amount = models.DecimalField(_("amount (yuan)"), max_digits=10, decimal_places=2)
    received_at = models.DateTimeField(_("received at"))
    # The receipt's number: where the money came from, for the auditor.
    reference = models.CharField(_("reference"), max_length=40)
    description = models.CharField(_("description"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("income entry")
        verbose_name_plural = _("income entries")
        ordering = ["-received_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="books_income_amount_positive"
            ),
            models.UniqueConstraint(fields=["reference"], name="books_income_reference_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.reference} {self.amount}"
