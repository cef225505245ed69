"""Template filters of the cash book: people by name, yuan with two places, money with
its unit in the page's language."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils.translation import gettext as _

from clubapp.books.filters import person_name

register = template.Library()


@register.filter
def person(user: Any) -> str:
    """王经理, never a user id."""
    return person_name(user) if user is not None else ""


@register.filter
def yuan(amount: Any) -> str:
    """1,234.50 (a minus sign when negative)."""
    if amount is None or amount == "":
        return ""
    return f"{Decimal(amount):,.2f}"


@register.filter
def money(amount: Any) -> str:
    """An amount with its unit, the one way pages write money: ``1,234.50 元`` in
    Chinese, ``1,234.50 yuan`` in English (docs/foundation.md "English mode")."""
    if amount is None or amount == "":
        return ""
    return _("%(amount)s yuan") % {"amount": yuan(amount)}
