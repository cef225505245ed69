"""Writes of the play app: keyword-only, typed, atomic (``<entity>_<action>``).

The acting user is ``by`` everywhere (as in the members app). A hand is booked on one
path: ``hand_record`` locks the session row, reads the end of the journal, scores
the record on the table's state, and writes the hand (record, result, ruleset
version, the table's state after it) and its ledger lines in one transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
import scoring.liability
import scoring.rulesets
from clubapp.core.models import Room
from clubapp.members import services as members_services
from clubapp.members.models import Table, Visit
from clubapp.play import permissions, selectors
from clubapp.play.models import (
    SEATS,
    Hand,
    HandSignoff,
    LedgerLine,
    Mode,
    RulesetVersion,
    Seat,
    SettleEvery,
    Settlement,
    TableSession,
    VoidRequest,
    night_row,
)
from scoring import night, settle


@dataclass(frozen=True)
class SeatIn:
    """A player to place at a wind: a checked-in visit, or a guest by name."""

    wind: str
    #: a typed guest name (a manager's, with ``reason``)
    name: str = ""
    #: an account seated without a visit: only from the room's own code (``by=None``)
    user: User | None = None
    #: the player's open visit (members app); gives the name and the member's account
    visit: Visit | None = None
    reason: str = ""


#: said wherever a write meets a session already ended (services and views)
SESSION_ENDED = gettext_lazy("The session has ended.")


class SessionClosedError(ValidationError):
    """The session has ended: no more hands."""


class TableChangedError(ValidationError):
    """Another row was booked since the recorder's preview."""


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


def _account(by: User | None) -> User | None:
    return by if by is not None and by.is_authenticated else None


def _locked(pk: int) -> TableSession:
    """The session row, locked until the transaction ends (two phones take turns)."""
    return TableSession.objects.select_for_update(of=("self",)).select_related("ruleset").get(pk=pk)


# --------------------------------------------------------------------- rulesets


def ruleset_version_save(*, params: Mapping[str, Any]) -> RulesetVersion:
    """Store a ruleset's parameters as a version; the same numbers give the same row.

    scoring checks the parameters (``from_mapping`` raises ScoringError with the key at
    fault); an id that is no slug, or an id or a name too long for its column, raises
    ValidationError. A changed number hashes to a new version, so hands booked under
    the old one keep it.
    """
    ruleset = scoring.rulesets.from_mapping(params)
    defaults = {"name": ruleset.name, "family": ruleset.family, "params": dict(ruleset.params)}
    # what the columns hold (a slug id of 60, a name of 100) is the model's to say: a
    # ValidationError naming the field, not a database error; the row itself is unique
    # by (id, version), and the same numbers give the same row
    RulesetVersion(ruleset_id=ruleset.id, version=ruleset.version, **defaults).full_clean(
        exclude=["params"], validate_unique=False, validate_constraints=False
    )
    row, _created = RulesetVersion.objects.get_or_create(
        ruleset_id=ruleset.id, version=ruleset.version, defaults=defaults
    )
    return row


def ruleset_versions_sync() -> list[RulesetVersion]:
    """Make sure the version of every ruleset shipped with scoring/ is stored."""
    return [
        ruleset_version_save(params=scoring.rulesets.get(ident).params)
        for ident in scoring.rulesets.available()
    ]


# --------------------------------------------------------------------- sessions


#: how long after its end a manager may still reopen a session ended by mistake
REOPEN_WITHIN = timedelta(hours=6)


class SeatError(ValidationError):
    """What is wrong with the player at one wind (the form shows it beside that seat)."""

    def __init__(self, message: str, *, wind: str, code: str) -> None:
        super().__init__(message, code=code)
        self.wind = wind


def _lock_table(table: Table, room: Room) -> Table:
    """The room's table, locked; it must be in use and have no open session."""
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if locked.room_id != room.pk:
        raise ValidationError(_("This table is not one of this room's."), code="table_other_room")
    if not locked.active:
        raise ValidationError(_("This table is out of use."), code="table_inactive")
    if TableSession.objects.filter(table=locked, ended_at__isnull=True).exists():
        raise ValidationError(
            _("%(table)s is in play already.") % {"table": locked.label}, code="table_in_play"
        )
    return locked


def _seat_player(seat: SeatIn, room: Room, by: User | None) -> tuple[str, User | None, str]:
    """(name, account, reason) of the player at ``seat``, checked.

    A request seats checked-in players (their open visit: a member by card, a paying
    non-member); a name typed instead of a visit is a manager's, with a reason; an
    account without a visit only from the room's own code (``by=None``).
    """
    name, user, reason = seat.name.strip(), seat.user, seat.reason.strip()
    if seat.visit is not None:
        visit = _seatable_visit(seat.visit, room, wind=seat.wind)
        name = visit.visitor_name
        user = visit.member.user if visit.member is not None else None
        return name, user, ""
    if by is not None:
        if user is not None:
            raise SeatError(
                _("Seat a member through their check-in at the desk."),
                wind=seat.wind,
                code="account_not_checked_in",
            )
        if not name:
            raise SeatError(_("Every seat needs a player."), wind=seat.wind, code="seat_empty")
        if not permissions.is_manager(by):
            raise SeatError(
                _("Only a manager types a guest's name: seat a checked-in player."),
                wind=seat.wind,
                code="typed_name",
            )
        if not reason:
            raise SeatError(
                _("Give the reason for typing a name instead of a check-in."),
                wind=seat.wind,
                code="typed_name_reason",
            )
    if not name and user is not None:
        name = user.get_short_name() or user.get_username()
    if not name:
        raise SeatError(_("Every seat needs a player."), wind=seat.wind, code="seat_empty")
    return name, user, reason


@transaction.atomic
def session_create(
    *,
    room: Room,
    table: Table,
    ruleset: RulesetVersion,
    seats: Sequence[SeatIn],
    by: User | None,
    mode: str = Mode.OPEN,
    garden_size: int | None = None,
    end_when_out: int = 2,
    settle_every: str | None = None,
    jiang_count: int = 2,
    started_at: datetime | None = None,
) -> TableSession:
    """Open a table session at one of the room's tables with its four seats (winds as
    drawn).

    Who: a manager, or a member who takes one of the seats. Each seat is a checked-in
    player (``SeatIn.visit``: open, in this room, at no other open table), or a
    name a manager types with a reason; one account or visit takes one seat. The
    table must be in use with no open session (the database refuses a second one).

    The settlement default follows the ruleset: 工地 tables settle on the worksite
    timing, 进园子 tables when a 园子 closes, other 南京 tables per 圈. 进园子 is a 南京
    mode only. The table is marked in play (members app).
    """
    if by is not None and not permissions.can_record(by):
        raise PermissionDenied
    winds = sorted(seat.wind for seat in seats)
    if winds != sorted(SEATS):
        raise ValidationError(_("Each wind E, S, W, N needs exactly one player."))
    if mode == Mode.GARDEN:
        if ruleset.family != "nanjing":
            raise ValidationError(_("The garden is a mode of Nanjing mahjong."))
        if not garden_size or garden_size <= 0:
            raise ValidationError(_("A garden table needs the size of its garden."))
    else:
        garden_size = None
    if settle_every is None:
        if ruleset.family == "worksite":
            settle_every = SettleEvery.WORKSITE
        elif mode == Mode.GARDEN:
            # RULES.md: a 进园子 table settles the 园子's final balances against its size
            settle_every = SettleEvery.GARDEN
        else:
            settle_every = SettleEvery.QUAN
    table = _lock_table(table, room)
    players = []
    visits: set[int] = set()
    accounts: set[int] = set()
    for seat in sorted(seats, key=lambda s: SEATS.index(s.wind)):
        name, user, reason = _seat_player(seat, room, by)
        if (seat.visit is not None and seat.visit.pk in visits) or (
            user is not None and user.pk in accounts
        ):
            raise SeatError(
                _("%(name)s has a seat already: one player, one seat.") % {"name": name},
                wind=seat.wind,
                code="seated_twice",
            )
        if seat.visit is not None:
            visits.add(seat.visit.pk)
        if user is not None:
            accounts.add(user.pk)
        players.append((seat, name, user, reason))
    if by is not None and not permissions.is_manager(by) and by.pk not in accounts:
        raise ValidationError(
            _("A member opens a table only where they sit: take one of the seats."),
            code="opener_not_seated",
        )
    try:
        with transaction.atomic():
            session = TableSession.objects.create(
                room=room,
                table=table,
                table_number=table.number,
                ruleset=ruleset,
                mode=mode,
                garden_size=garden_size,
                end_when_out=end_when_out,
                settle_every=settle_every,
                jiang_count=jiang_count,
                started_at=started_at or timezone.now(),
                created_by=_account(by),
            )
    except IntegrityError:
        raise ValidationError(
            _("%(table)s is in play already.") % {"table": table.label}, code="table_in_play"
        ) from None
    Seat.objects.bulk_create(
        Seat(
            session=session,
            wind=seat.wind,
            name=name,
            user=user,
            visit=seat.visit,
            guest_reason=reason,
        )
        for seat, name, user, reason in players
    )
    members_services.table_set_in_play(room=room, number=table.number, in_play=True)
    return session


def _seatable_visit(visit: Visit, room: Room, *, wind: str) -> Visit:
    """A seat's visit must be open, in this room, and not at another open table."""
    locked = Visit.objects.select_for_update(of=("self",)).select_related("member").get(pk=visit.pk)
    if locked.room_id != room.pk or locked.checked_out_at is not None:
        raise SeatError(
            _("%(name)s is not checked in.") % {"name": locked.visitor_name},
            wind=wind,
            code="visit_closed",
        )
    if Seat.objects.filter(visit=locked, session__ended_at__isnull=True).exists():
        raise SeatError(
            _("%(name)s already sits at an open table.") % {"name": locked.visitor_name},
            wind=wind,
            code="visit_seated",
        )
    member_user = locked.member.user_id if locked.member is not None else None
    if (
        member_user is not None
        and Seat.objects.filter(user_id=member_user, session__ended_at__isnull=True).exists()
    ):
        raise SeatError(
            _("%(name)s already sits at an open table.") % {"name": locked.visitor_name},
            wind=wind,
            code="account_seated",
        )
    return locked


@transaction.atomic
def session_end(
    *, session: TableSession, by: User | None = None, ended_at: datetime | None = None
) -> TableSession:
    """散场: close the session (idempotent: an ended session keeps its end). A manager
    or a player seated at it. Whatever is not settled yet goes into a final statement,
    made in the same transaction: an ended session takes no other. Its table is free
    again at the desk."""
    locked = _locked(session.pk)
    permissions.check_act_at_table(by, locked)
    if locked.ended_at is None:
        locked.ended_at = ended_at or timezone.now()
        locked.save(update_fields=["ended_at"])
        tip = selectors.journal_tip(session=locked)
        if tip.state.number > tip.settled_through:
            _statement(locked, tip, by)
        members_services.table_set_in_play(
            room=locked.room, number=locked.table_number, in_play=False
        )
    return locked


def session_may_reopen(session: TableSession, now: datetime | None = None) -> bool:
    """Ended at most ``REOPEN_WITHIN`` ago: the same night."""
    now = now or timezone.now()
    return session.ended_at is not None and now - session.ended_at <= REOPEN_WITHIN


@transaction.atomic
def session_reopen(
    *, session: TableSession, by: User | None, now: datetime | None = None
) -> TableSession:
    """A manager reopens a session ended by mistake, the same night (``REOPEN_WITHIN``),
    while its table has no other open session and each seated visit is still in the
    room (nobody plays again after paying out at the desk)."""
    if by is not None and not permissions.is_manager(by):
        raise PermissionDenied
    now = now or timezone.now()
    locked = _locked(session.pk)
    if locked.ended_at is None:
        raise ValidationError(_("The session is open."), code="session_open")
    if not session_may_reopen(locked, now):
        raise ValidationError(
            _("Only a session ended tonight can be reopened: open a new table instead."),
            code="reopen_too_late",
        )
    Table.objects.select_for_update().get(pk=locked.table_id)
    if TableSession.objects.filter(table_id=locked.table_id, ended_at__isnull=True).exists():
        raise ValidationError(_("Another session is open at this table."), code="table_in_play")
    for seat in locked.seats.select_related("visit__member"):
        if seat.visit is None:
            continue
        if seat.visit.checked_out_at is not None:
            raise ValidationError(
                _("%(name)s has checked out: open a new table instead.") % {"name": seat.name},
                code="visit_closed",
            )
        if Seat.objects.filter(visit=seat.visit, session__ended_at__isnull=True).exists():
            raise ValidationError(
                _("%(name)s already sits at an open table.") % {"name": seat.name},
                code="visit_seated",
            )
    locked.ended_at = None
    locked.reopened_at = now
    locked.reopened_by = _account(by)
    try:
        with transaction.atomic():
            locked.save(update_fields=["ended_at", "reopened_at", "reopened_by"])
    except IntegrityError:
        raise ValidationError(
            _("Another session is open at this table."), code="table_in_play"
        ) from None
    members_services.table_set_in_play(room=locked.room, number=locked.table_number, in_play=True)
    return locked


# --------------------------------------------------------------------- hands


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


def hand_prepare(
    *, session: TableSession, record: Mapping[str, Any], state: night.State
) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    """The record as it will be scored, and the 包牌 proposals made for it.

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
    return scoring.liability.propose(out, session.ruleset.family)


def hand_preview(
    *, session: TableSession, record: Mapping[str, Any], state: night.State
) -> Preview:
    """Score without booking. Raises ScoringError."""
    prepared, proposals = hand_prepare(session=session, record=record, state=state)
    result = scoring.score(prepared, ruleset=session.ruleset.as_ruleset())
    return Preview(record=prepared, result=result, proposals=proposals, state=state)


def _ledger_lines(payments: list[dict[str, Any]], sign: int = 1) -> list[dict[str, Any]]:
    """Each payment as two lines: the payer's −amount and the payee's +amount (the
    fields of each line but its row: the row is written first, knowing how many)."""
    lines = []
    for payment in payments:
        amount = int(payment["amount"]) * sign
        if amount == 0:
            continue
        payer, payee = payment["from"], payment["to"]
        reason = payment["reason"] if sign > 0 else f"void:{payment['reason']}"
        lines.append({"seat": payer, "counterparty": payee, "points": -amount, "reason": reason})
        lines.append({"seat": payee, "counterparty": payer, "points": amount, "reason": reason})
    return lines


def hand_record(
    *,
    session: TableSession,
    record: Mapping[str, Any],
    idempotency_key: uuid.UUID | str,
    by: User | None,
    after: int | None = None,
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
    """
    key = uuid.UUID(str(idempotency_key))
    try:
        with transaction.atomic():
            locked = _locked(session.pk)
            permissions.check_act_at_table(by, locked)
            # The end of the journal is read after the lock, in a second statement, on
            # purpose: a SELECT … FOR UPDATE that waited for another phone's lock reads
            # the locked row again, but the rest of its statement (a join, a subquery)
            # keeps the snapshot taken before the wait and would miss the hand just
            # booked (test_concurrency fails without this).
            tip = selectors.journal_tip(session=locked)
            if after is not None and tip.state.number != after:
                booked = _booked_with(key, locked)
                if booked is not None:
                    return booked  # a double tap: this key booked the row since
                raise TableChangedError(_("Another hand was booked at this table meanwhile."))
            if locked.ended_at is not None:
                raise SessionClosedError(SESSION_ENDED)
            preview = hand_preview(session=locked, record=record, state=tip.state)
            row = night_row(tip.state.number + 1, preview.record, preview.result)
            state = night.after(locked.night(), tip.state, row, settled_through=tip.settled_through)
            lines = _ledger_lines(preview.result["payments"])
            hand = Hand.objects.create(
                session=locked,
                number=row.number,
                record=preview.record,
                result=preview.result,
                ruleset=locked.ruleset,
                idempotency_key=key,
                recorded_by=_account(by),
                line_count=len(lines),
                **Hand.state_fields(state),
            )
            LedgerLine.objects.bulk_create([LedgerLine(hand=hand, **line) for line in lines])
            return hand
    except IntegrityError:
        # A concurrent submit with the same key won the race: return its hand.
        booked = _booked_with(key, session)
        if booked is None:
            raise
        return booked


def _booked_with(key: uuid.UUID, session: TableSession) -> Hand | None:
    booked = Hand.objects.filter(idempotency_key=key).first()
    if booked is not None and booked.session_id != session.pk:
        raise ValidationError(_("This form belongs to another table."))
    return booked


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
        locked = _locked(hand.session_id)
        booked = Hand.objects.filter(idempotency_key=key).select_related("voids").first()
        if booked is not None and booked.voids_id != hand.pk:
            raise ValidationError(_("This form belongs to another hand."))
        target = Hand.objects.get(pk=hand.pk)
        if target.is_reversal:
            raise ValidationError(_("A reversal cannot be voided."))
        earlier = Hand.objects.filter(voids=target).select_related("voids").first()
        if earlier is not None:
            raise AlreadyVoidedError(earlier)
        if locked.ended_at is not None and by is not None and not permissions.is_manager(by):
            raise ValidationError(
                _("The session has ended: only a manager can void its hands."), code="ended"
            )
        pending = _void_authority(locked, hand, by)
        tip = selectors.journal_tip(session=locked)
        net = {seat: -points for seat, points in target.result["net"].items()}
        result = {"voids": target.number, "net": net, "payments": target.result["payments"]}
        row = night_row(tip.state.number + 1, {}, result)
        standing = [
            r
            for r in selectors.journal_rows(session=locked, standing=True)
            if r.number != target.number
        ]
        state = night.after(
            locked.night(),
            tip.state,
            row,
            settled_through=tip.settled_through,
            standing=standing,
        )
        lines = _ledger_lines(result["payments"], sign=-1)
        reversal = Hand.objects.create(
            session=locked,
            number=row.number,
            record={},
            result=result,
            ruleset_id=target.ruleset_id,
            idempotency_key=key,
            recorded_by=_account(by),
            voids=target,
            void_reason=reason,
            line_count=len(lines),
            **Hand.state_fields(state),
        )
        LedgerLine.objects.bulk_create([LedgerLine(hand=reversal, **line) for line in lines])
        if pending is not None:
            pending.reversal = reversal
            pending.save(update_fields=["reversal"])
        if locked.ended_at is not None:
            _statement(locked, selectors.journal_tip(session=locked), by)
        return reversal


class VoidConfirmationNeeded(ValidationError):
    """A seated player voids only with a second seated player: ask first."""


def void_request_pending(*, hand: Hand) -> VoidRequest | None:
    return (
        VoidRequest.objects.filter(hand=hand, reversal__isnull=True)
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
        locked = _locked(hand.session_id)
        seat = permissions.seat_of(by, locked)
        if seat is None or not permissions.may_act_at_table(by, locked):
            raise PermissionDenied
        if locked.ended_at is not None:
            raise SessionClosedError(_("The session has ended: a manager voids its hands."))
        target = Hand.objects.get(pk=hand.pk)
        if target.is_reversal:
            raise ValidationError(_("A reversal cannot be voided."))
        earlier = Hand.objects.filter(voids=target).select_related("voids").first()
        if earlier is not None:
            raise AlreadyVoidedError(earlier)
        pending = void_request_pending(hand=target)
        if pending is not None:
            return pending
        try:
            with transaction.atomic():
                return VoidRequest.objects.create(
                    hand=target, reason=reason, seat=seat.wind, requested_by=by
                )
        except IntegrityError:
            pending = void_request_pending(hand=target)
            if pending is None:
                raise
            return pending


def hand_signoff(*, hand: Hand, by: User) -> HandSignoff:
    """A player confirms a booked hand on their own phone (once per seat).

    Only an account seated at the table can confirm, and only for its own seat; a
    reversal or a voided hand needs no confirmation.
    """
    seat = Seat.objects.filter(session_id=hand.session_id, user=by).first()
    if seat is None or not by.is_active:
        raise PermissionDenied(_("Only a player seated at this table can confirm its hands."))
    if hand.is_reversal:
        raise ValidationError(_("A reversal needs no confirmation."))
    try:
        with transaction.atomic():
            # under the session's lock, as a void takes it: a hand voided on another
            # phone meanwhile is seen voided here, never confirmed
            _locked(hand.session_id)
            if Hand.objects.filter(voids_id=hand.pk).exists():
                raise ValidationError(_("A voided hand needs no confirmation."))
            return HandSignoff.objects.create(hand=hand, seat=seat.wind, user=by)
    except IntegrityError:
        return HandSignoff.objects.get(hand=hand, seat=seat.wind)


# --------------------------------------------------------------------- statements


def settlement_make(*, session: TableSession, by: User | None) -> Settlement:
    """Freeze a statement of every row since the last one: each seat's net and the
    fewest transfers that settle it (and, on 进园子 tables, the 园子 balances).

    An ended session takes none: its end made the final one (``session_end``)."""
    with transaction.atomic():
        locked = _locked(session.pk)
        permissions.check_act_at_table(by, locked)
        if locked.ended_at is not None:
            raise SessionClosedError(SESSION_ENDED, code="ended")
        tip = selectors.journal_tip(session=locked)
        if tip.state.number <= tip.settled_through:
            raise ValidationError(_("There is nothing to settle since the last statement."))
        return _statement(locked, tip, by)


def _statement(locked: TableSession, tip: selectors.Tip, by: User | None) -> Settlement:
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
        session=locked,
        number=last + 1,
        first_number=tip.settled_through + 1,
        last_number=state.number,
        statement=statement,
        created_by=_account(by),
    )
