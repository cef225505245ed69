"""器材基金: the check made before a plan is approved and before an expense is booked.

The fund collects the non-members' equipment fees and pays equipment and facility
lines (``FUND_CATEGORIES``). Spending more than it holds leaves it below zero (the
unit's funds pay the rest): ``core.Room.fund_may_go_negative`` says whether a room
allows that at all; if it does, the person is told the amount it will reach and
confirms (``confirmed``); if not, the write is refused (docs/books.md).
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from clubapp.books import selectors
from clubapp.core.models import Room


def fund_check(*, room: Room, spend: Decimal, confirmed: bool, what: str) -> None:
    """Refuse, or ask to confirm, ``spend`` from the fund when it leaves it below zero.

    ``what`` names the write in the message (a plan's approval, an expense)."""
    if spend <= 0:
        return
    balance = selectors.fund_balance(room=room)
    after = balance - spend
    if after >= 0:
        return
    figures = {"what": what, "spend": spend, "balance": balance, "after": after}
    if not room.fund_may_go_negative:
        raise ValidationError(
            _(
                "%(what)s would take %(spend)s yuan from the equipment fund, which holds "
                "%(balance)s yuan: it would fall to %(after)s yuan, and this room does not "
                "allow the fund below zero (room settings)."
            )
            % figures,
            code="fund_negative_refused",
        )
    if not confirmed:
        raise ValidationError(
            _(
                "%(what)s would take %(spend)s yuan from the equipment fund, which holds "
                "%(balance)s yuan: it would fall to %(after)s yuan, the rest paid from the "
                "unit's funds. Tick “below zero” to go on."
            )
            % figures,
            code="fund_negative",
        )
