"""Hands: a preview scored on the table's state, and the booking of a hand with its
ledger lines (one path, under the session lock); a player's sign-off."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

import scoring
import scoring.liability
from clubapp.play import permissions, selectors
from clubapp.play.models import Hand, HandSignoff, LedgerLine, Seat, TableSession
from clubapp.play.services.common import (
    SESSION_ENDED,
    SessionClosedError,
    TableChangedError,
    account,
    session_locked,
)
from scoring import night
from scoring.rulesets import Ruleset


@dataclass(frozen=True)
class Preview:
    """A hand scored on the table's state, not booked."""

    #: the record as scored: the table's ruleset, dealer, doubling and 园子, and the
    #: 包牌 seats proposed from the melds where none was given
    record: dict[str, Any]
    result: dict[str, Any]
    #: (winner, liable seat, reason code) for each 包牌 proposed
    proposals: list[tuple[str, str, str]]
    #: the state it was scored on (the number of its last row is what a booking follows)
    state: night.State


def hand_preview(
    *, session: TableSession, ruleset: Ruleset, record: Mapping[str, Any], state: night.State
) -> Preview:
    """Score ``record`` on the table's ``state`` without booking it, under ``ruleset``:
    the session's version as scoring reads it (``session.ruleset.as_ruleset()``, parsed
    once by the caller). Raises ScoringError.

    The table sets the ruleset, the dealer, the doubling (比下胡) and the 园子 balances
    (what the recorder sent for them is replaced); where the melds show who pays as
    包牌 and no liable seat was given, it is proposed (``scoring.liability.propose``),
    the same way for a preview and a booking.
    """
    out = dict(record)
    out["format"] = "mahjong-hand/1"
    out["ruleset"] = session.ruleset.ruleset_id
    out["dealer"] = state.dealer
    out["doubled"] = state.doubled
    out.pop("garden", None)
    if state.garden_left is not None:
        out["garden"] = {
            "size": session.garden_size,
            "left": dict(state.garden_left),
            "end_when_out": session.end_when_out,
        }
    prepared, proposals = scoring.liability.propose(out, session.ruleset.family)
    result = scoring.score(prepared, ruleset=ruleset)
    return Preview(record=prepared, result=result, proposals=proposals, state=state)


def ledger_lines(payments: list[dict[str, Any]], sign: int = 1) -> list[LedgerLine]:
    """Each payment as two lines: the payer's −amount and the payee's +amount (without
    their row: the row is written first, knowing how many)."""
    lines = []
    for payment in payments:
        amount = int(payment["amount"]) * sign
        if amount == 0:
            continue
        payer, payee = payment["from"], payment["to"]
        reason = payment["reason"] if sign > 0 else f"void:{payment['reason']}"
        lines.append(LedgerLine(seat=payer, counterparty=payee, points=-amount, reason=reason))
        lines.append(LedgerLine(seat=payee, counterparty=payer, points=amount, reason=reason))
    return lines


def hand_record(
    *,
    session: TableSession,
    record: Mapping[str, Any],
    idempotency_key: uuid.UUID | str,
    by: User | None,
    after: int | None = None,
    settled: int | None = None,
    ruleset: Ruleset | None = None,
) -> Hand:
    """Book one hand: score it and write it with its ledger lines, all or nothing.

    Under a row lock on the session, so two phones at one table take turns: the second
    sees the first's hand (its number, its dealer and doubling). The hand is scored
    once, under the lock, on the state after the journal's last row; its own state
    after is computed from that (``scoring.night.after``) and written in its INSERT.

    ``after``: the number of the row the recorder's preview followed; when another row
    has been booked since, TableChangedError (nothing booked, nothing scored) so that
    the recorder sees the hand scored on the table as it now is. The same idempotency
    key books once: a second submit gets the first hand back (a key of another table is
    refused). Raises ScoringError (nothing booked) or SessionClosedError.

    ``settled``: the last row of the table's last statement as a phone that kept the
    hand offline saw it; a statement since is a changed table too (docs/play.md
    "Offline": a kept hand is never booked on a basis that no longer holds).

    ``ruleset``: the session's version as the caller parsed it for its forms (read
    here when not given, or when it is not the locked session's version).
    """
    key = uuid.UUID(str(idempotency_key))
    recorded_by = account(by)
    try:
        with transaction.atomic():
            locked = session_locked(session.pk)
            permissions.check_act_at_table(by, locked)
            # The end of the journal is read after the lock, in a second statement, on
            # purpose: a SELECT … FOR UPDATE that waited for another phone's lock reads
            # the locked row again, but the rest of its statement (a join, a subquery)
            # keeps the snapshot taken before the wait and would miss the hand just
            # booked (test_concurrency fails without this).
            tip = selectors.journal_tip(session=locked)
            if (after is not None and tip.state.number != after) or (
                settled is not None and tip.settled_through != settled
            ):
                booked = _booked_with(key, locked)
                if booked is not None:
                    return booked  # a double tap: this key booked the row since
                raise TableChangedError(_("Another hand was booked at this table meanwhile."))
            if locked.ended_at is not None:
                raise SessionClosedError(SESSION_ENDED)
            if ruleset is None or (ruleset.id, ruleset.version) != (
                locked.ruleset.ruleset_id,
                locked.ruleset.version,
            ):
                ruleset = locked.ruleset.as_ruleset()
            preview = hand_preview(session=locked, ruleset=ruleset, record=record, state=tip.state)
            row = night.Row.read(tip.state.number + 1, preview.record, preview.result)
            state = night.after(tip.table, tip.state, row, settled_through=tip.settled_through)
            lines = ledger_lines(preview.result["payments"])
            hand = Hand.objects.create(
                room_id=locked.room_id,
                session=locked,
                number=row.number,
                record=preview.record,
                result=preview.result,
                ruleset=locked.ruleset,
                idempotency_key=key,
                recorded_by=recorded_by,
                line_count=len(lines),
                **Hand.state_fields(state),
            )
            for line in lines:
                line.hand, line.room_id = hand, hand.room_id
            LedgerLine.objects.bulk_create(lines)
            return hand
    except IntegrityError:
        # A concurrent submit with the same key won the race: return its hand.
        booked = _booked_with(key, session)
        if booked is None:
            raise
        return booked


def _booked_with(key: uuid.UUID, session: TableSession) -> Hand | None:
    booked = Hand.objects.filter(room=session.room_id, idempotency_key=key).first()
    if booked is not None and booked.session_id != session.pk:
        raise ValidationError(_("This form belongs to another table."))
    return booked


def hand_signoff(*, hand: Hand, by: User) -> HandSignoff:
    """A player confirms a booked hand on their own phone (once per seat).

    Only an account seated at the table can confirm, and only for its own seat; a
    reversal or a voided hand needs no confirmation.
    """
    seat = Seat.objects.filter(room=hand.room_id, session_id=hand.session_id, user=by).first()
    if seat is None or not by.is_active:
        raise PermissionDenied(_("Only a player seated at this table can confirm its hands."))
    if hand.is_reversal:
        raise ValidationError(_("A reversal needs no confirmation."))
    try:
        with transaction.atomic():
            # under the session's lock, as a void takes it: a hand voided on another
            # phone meanwhile is seen voided here, never confirmed
            session_locked(hand.session_id)
            if Hand.objects.filter(room=hand.room_id, voids_id=hand.pk).exists():
                raise ValidationError(_("A voided hand needs no confirmation."))
            return HandSignoff.objects.create(
                room_id=hand.room_id, hand=hand, seat=seat.wind, user=by
            )
    except IntegrityError:
        return HandSignoff.objects.get(room=hand.room_id, hand=hand, seat=seat.wind)
