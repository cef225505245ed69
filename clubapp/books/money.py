"""Yuan amounts: Decimal with at most two places (fen), never a float."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# The models' DecimalField(max_digits=10, decimal_places=2).
LIMIT = Decimal("100000000")


def amount_check(amount: Any) -> Decimal:
    """The amount as a 2-place Decimal, or a ValidationError saying what is wrong."""
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise ValidationError(
            _("Enter the amount as a number of yuan, such as 12.50."), code="amount_type"
        )
    if amount <= 0:
        raise ValidationError(_("The amount must be more than zero."), code="amount_not_positive")
    if amount != amount.quantize(CENT):
        raise ValidationError(
            _("An amount has at most two decimal places (fen)."), code="amount_precision"
        )
    if amount >= LIMIT:
        raise ValidationError(_("The amount is too large."), code="amount_too_large")
    return amount.quantize(CENT)


def total(amounts: Any) -> Decimal:
    """A sum of amounts (None, as an empty SQL SUM gives, is zero), to the fen."""
    return sum((Decimal(a) for a in amounts if a is not None), ZERO).quantize(CENT)
