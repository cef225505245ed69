"""Statements (结账): a window of the journal's sums, frozen when made."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubapp.play import permissions, selectors
from clubapp.play.models import Settlement, TableSession
from clubapp.play.services.common import SESSION_ENDED, SessionClosedError, account, session_locked
from scoring import settle


def settlement_make(*, session: TableSession, by: User | None) -> Settlement:
    """Freeze a statement of every row since the last one: each seat's net and the
    fewest transfers that settle it (and, on 进园子 tables, the 园子 balances).

    An ended session takes none: its end made the final one (``session_end``)."""
    with transaction.atomic():
        locked = session_locked(session.pk)
        permissions.check_act_at_table(by, locked)
        if locked.ended_at is not None:
            raise SessionClosedError(SESSION_ENDED, code="ended")
        tip = selectors.journal_tip(session=locked)
        if tip.state.number <= tip.settled_through:
            raise ValidationError(_("There is nothing to settle since the last statement."))
        return statement_freeze(locked, tip, by)


def statement_freeze(locked: TableSession, tip: selectors.Tip, by: User | None) -> Settlement:
    """The statement of the rows after ``tip.settled_through`` (the session locked)."""
    state = tip.state
    statement: dict[str, Any] = {
        "net": dict(state.unsettled),
        "transfers": settle.fewest_transfers(state.unsettled),
        "names": locked.names(),
    }
    if state.garden_left is not None:
        statement["garden"] = {
            "size": locked.garden_size,
            "number": state.garden,
            "left": dict(state.garden_left),
            "closed": selectors.gardens_closed(session=locked, after=tip.settled_through),
        }
    last = locked.settlements.aggregate(last=Max("number"))["last"] or 0
    return Settlement.objects.create(
        room_id=locked.room_id,
        session=locked,
        number=last + 1,
        first_number=tip.settled_through + 1,
        last_number=state.number,
        statement=statement,
        created_by=account(by),
    )
