"""Voids: a reversal of a booked hand (a manager's, or a seated player's request that
a second seated player confirms)."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubapp.play import permissions, selectors
from clubapp.play.models import Hand, LedgerLine, TableSession, VoidRequest
from clubapp.play.services.common import SessionClosedError, account, session_locked
from clubapp.play.services.hands import ledger_lines
from clubapp.play.services.settlements import statement_freeze
from scoring import night
from scoring.errors import ScoringError


class AlreadyVoidedError(ValidationError):
    """The hand has a reversal already (this form's, sent again, or another's): nothing
    was voided by this request. ``reversal`` is the row that voided it."""

    def __init__(self, reversal: Hand) -> None:
        super().__init__(
            _("Hand %(number)s was already voided by #%(reversal)s: nothing changed.")
            % {
                "number": reversal.voids.number if reversal.voids else "?",
                "reversal": reversal.number,
            },
            code="already_voided",
        )
        self.reversal = reversal


def hand_void(
    *,
    hand: Hand,
    reason: str,
    by: User | None,
    idempotency_key: uuid.UUID | str | None = None,
) -> Hand:
    """Reverse a booked hand: a new row with every line negated and the reason.

    Who: a manager; or a seated player confirming another seated player's request
    (``hand_void_request``), which the reversal then answers. A seated player with no
    other player's request pending gets ``VoidConfirmationNeeded``.

    The hand stays in the journal, marked voided. The table's chain (dealer, doubling,
    passes, 园子) is rebuilt from the hands left standing, so voiding the last hand
    gives the table back its state before it; the balances move by the reversal.

    After the session ended only a manager voids, and the reversal goes into a final
    statement of its own, made in the same transaction. A hand already voided (this
    key sent again, or another void) raises AlreadyVoidedError: nothing is voided.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for voiding the hand."))
    key = uuid.UUID(str(idempotency_key)) if idempotency_key else uuid.uuid4()
    with transaction.atomic():
        locked = session_locked(hand.session_id)
        booked = (
            Hand.objects.filter(room=locked.room_id, idempotency_key=key)
            .select_related("voids")
            .first()
        )
        if booked is not None and booked.voids_id != hand.pk:
            raise ValidationError(_("This form belongs to another hand."))
        target = _standing(hand)
        if locked.ended_at is not None and by is not None and not permissions.is_manager(by):
            raise ValidationError(
                _("The session has ended: only a manager can void its hands."), code="ended"
            )
        pending = _void_authority(locked, hand, by)
        reversal = _reversal_write(locked, target, key=key, reason=reason, by=by)
        if pending is not None:
            pending.reversal = reversal
            pending.save(update_fields=["reversal"])
        if locked.ended_at is not None:
            statement_freeze(locked, selectors.journal_tip(session=locked), by)
        return reversal


def _standing(hand: Hand) -> Hand:
    """The hand, read again under the lock: a played hand not voided yet."""
    target = Hand.objects.get(room=hand.room_id, pk=hand.pk)
    if target.is_reversal:
        raise ValidationError(_("A reversal cannot be voided."))
    earlier = Hand.objects.filter(room=hand.room_id, voids=target).select_related("voids").first()
    if earlier is not None:
        raise AlreadyVoidedError(earlier)
    return target


def _reversal_write(
    locked: TableSession, target: Hand, *, key: uuid.UUID, reason: str, by: User | None
) -> Hand:
    """The reversal of ``target`` with its lines, and the state after it: the chain
    rebuilt from the hands left standing (the session locked)."""
    tip = selectors.journal_tip(session=locked)
    net = {seat: -points for seat, points in target.result["net"].items()}
    result = {"voids": target.number, "net": net, "payments": target.result["payments"]}
    row = night.Row.read(tip.state.number + 1, {}, result)
    standing = [
        r
        for r in selectors.journal_rows(session=locked, standing=True)
        if r.number != target.number
    ]
    try:
        state = night.after(
            tip.table,
            tip.state,
            row,
            settled_through=tip.settled_through,
            standing=standing,
        )
    except ScoringError as exc:
        # 进园子: a later hand paid from what this one put in a 园子 (docs/play.md)
        raise ValidationError(
            _(
                "Voiding this hand would take hand %(number)s below zero in the 园子: "
                "void the later hands first."
            )
            % {"number": exc.params.get("number", "?")},
            code=exc.code,
        ) from None
    lines = ledger_lines(result["payments"], sign=-1)
    reversal = Hand.objects.create(
        room_id=locked.room_id,
        session=locked,
        number=row.number,
        record={},
        result=result,
        ruleset_id=target.ruleset_id,
        idempotency_key=key,
        recorded_by=account(by),
        voids=target,
        void_reason=reason,
        line_count=len(lines),
        **Hand.state_fields(state),
    )
    for line in lines:
        line.hand, line.room_id = reversal, reversal.room_id
    LedgerLine.objects.bulk_create(lines)
    return reversal


class VoidConfirmationNeeded(ValidationError):
    """A seated player voids only with a second seated player: ask first."""


def void_request_pending(*, hand: Hand) -> VoidRequest | None:
    return (
        VoidRequest.objects.filter(room=hand.room_id, hand=hand, reversal__isnull=True)
        .select_related("requested_by")
        .first()
    )


def _void_authority(session: TableSession, hand: Hand, by: User | None) -> VoidRequest | None:
    """The pending request a void answers (None when there is none); refuses whoever
    may not void: not a manager, not seated, or the asker confirming their own."""
    pending = void_request_pending(hand=hand)
    if by is None or permissions.is_manager(by):
        return pending
    permissions.check_act_at_table(by, session)
    if pending is None:
        raise VoidConfirmationNeeded(
            _("A second player at the table must confirm a void: ask for it first."),
            code="void_needs_request",
        )
    if pending.requested_by_id == by.pk:
        raise VoidConfirmationNeeded(
            _("Another player at the table must confirm your request."),
            code="void_own_request",
        )
    return pending


def hand_void_request(*, hand: Hand, reason: str, by: User) -> VoidRequest:
    """A seated player asks to void a hand; a second seated player confirms it
    (``hand_void``). Asking again returns the pending request."""
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for voiding the hand."))
    with transaction.atomic():
        locked = session_locked(hand.session_id)
        seat = permissions.seat_of(by, locked)
        if seat is None or not permissions.may_act_at_table(by, locked):
            raise PermissionDenied
        if locked.ended_at is not None:
            raise SessionClosedError(_("The session has ended: a manager voids its hands."))
        target = _standing(hand)
        pending = void_request_pending(hand=target)
        if pending is not None:
            return pending
        try:
            with transaction.atomic():
                return VoidRequest.objects.create(
                    room_id=target.room_id,
                    hand=target,
                    reason=reason,
                    seat=seat.wind,
                    requested_by=by,
                )
        except IntegrityError:
            pending = void_request_pending(hand=target)
            if pending is None:
                raise
            return pending
