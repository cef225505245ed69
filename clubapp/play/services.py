"""Writes of the play app: keyword-only, typed, atomic (``<entity>_<action>``)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
import scoring.rulesets
from clubapp.core.models import Room
from clubapp.members.models import Visit
from clubapp.play import selectors
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
)


@dataclass(frozen=True)
class SeatIn:
    """A player to place at a wind: a member's account, or a guest by name."""

    wind: str
    name: str = ""
    user: AbstractBaseUser | None = None
    #: the player's open visit (members app); gives the name and the member's account
    visit: Visit | None = None


@transaction.atomic
def ruleset_version_save(*, params: Mapping[str, Any]) -> RulesetVersion:
    """Store a ruleset's parameters as a version; the same numbers give the same row.

    scoring checks the parameters (``from_mapping`` raises ScoringError with the
    key at fault). A changed number hashes to a new version, so hands booked
    under the old one keep it.
    """
    ruleset = scoring.rulesets.from_mapping(params)
    row, _created = RulesetVersion.objects.get_or_create(
        ruleset_id=ruleset.id,
        version=ruleset.version,
        defaults={"name": ruleset.name, "family": ruleset.family, "params": dict(ruleset.params)},
    )
    return row


def ruleset_versions_sync() -> list[RulesetVersion]:
    """Make sure the version of every ruleset shipped with scoring/ is stored."""
    return [
        ruleset_version_save(params=scoring.rulesets.get(ident).params)
        for ident in scoring.rulesets.available()
    ]


@transaction.atomic
def session_create(
    *,
    room: Room,
    table_number: int,
    ruleset: RulesetVersion,
    seats: Sequence[SeatIn],
    user: AbstractBaseUser | None,
    mode: str = Mode.OPEN,
    garden_size: int | None = None,
    end_when_out: int = 2,
    settle_every: str | None = None,
    jiang_count: int = 2,
    started_at: datetime | None = None,
) -> TableSession:
    """Open a table session with its four seats (winds as drawn).

    The settlement default follows the ruleset: 工地 tables settle on the worksite
    timing, 南京 tables per 圈. 进园子 is a 南京 mode only.
    """
    winds = sorted(seat.wind for seat in seats)
    if winds != sorted(SEATS):
        raise ValidationError(_("Each wind E, S, W, N needs exactly one player."))
    if mode == Mode.GARDEN:
        if ruleset.family != "nanjing":
            raise ValidationError(_("进园子 is a 南京麻将 mode."))
        if not garden_size or garden_size <= 0:
            raise ValidationError(_("A 进园子 table needs the size of its garden."))
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
    session = TableSession.objects.create(
        room=room,
        table_number=table_number,
        ruleset=ruleset,
        mode=mode,
        garden_size=garden_size,
        end_when_out=end_when_out,
        settle_every=settle_every,
        jiang_count=jiang_count,
        started_at=started_at or timezone.now(),
        created_by=user if user is not None and user.is_authenticated else None,
    )
    visits = [seat.visit.pk for seat in seats if seat.visit is not None]
    if len(set(visits)) != len(visits):
        raise ValidationError(_("A player cannot take two seats."), code="visit_twice")
    for seat in seats:
        name = seat.name.strip()
        user = seat.user
        if seat.visit is not None:
            visit = _seatable_visit(seat.visit, room)
            name = name or visit.visitor_name
            if user is None and visit.member is not None:
                user = visit.member.user
        if not name and user is not None:
            name = user.get_short_name() or user.get_username()  # type: ignore[attr-defined]
        if not name:
            raise ValidationError(_("Every seat needs a player."))
        Seat.objects.create(session=session, wind=seat.wind, name=name, user=user, visit=seat.visit)
    return session


def _seatable_visit(visit: Visit, room: Room) -> Visit:
    """A seat's visit must be open, in this room, and not at another open table."""
    locked = Visit.objects.select_for_update(of=("self",)).select_related("member").get(pk=visit.pk)
    if locked.room_id != room.pk or locked.checked_out_at is not None:
        raise ValidationError(
            _("%(name)s is not checked in.") % {"name": locked.visitor_name}, code="visit_closed"
        )
    if Seat.objects.filter(visit=locked, session__ended_at__isnull=True).exists():
        raise ValidationError(
            _("%(name)s already sits at an open table.") % {"name": locked.visitor_name},
            code="visit_seated",
        )
    return locked


@transaction.atomic
def session_end(*, session: TableSession, ended_at: datetime | None = None) -> TableSession:
    """Close the session (idempotent: an ended session keeps its end)."""
    locked = TableSession.objects.select_for_update().get(pk=session.pk)
    if locked.ended_at is None:
        locked.ended_at = ended_at or timezone.now()
        locked.save(update_fields=["ended_at"])
    return locked


class SessionClosedError(ValidationError):
    """The session has ended: no more hands."""


class TableChangedError(ValidationError):
    """Another entry was booked since the recorder's preview."""


def _ledger_lines(hand: Hand, payments: list[dict[str, Any]], sign: int = 1) -> list[LedgerLine]:
    """Each payment as two lines: the payer's −amount and the payee's +amount."""
    lines = []
    for payment in payments:
        amount = int(payment["amount"]) * sign
        if amount == 0:
            continue
        payer, payee = payment["from"], payment["to"]
        reason = payment["reason"] if sign > 0 else f"void:{payment['reason']}"
        lines.append(
            LedgerLine(hand=hand, seat=payer, counterparty=payee, points=-amount, reason=reason)
        )
        lines.append(
            LedgerLine(hand=hand, seat=payee, counterparty=payer, points=amount, reason=reason)
        )
    return lines


def _next_number(session: TableSession) -> int:
    last = Hand.objects.filter(session=session).aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def hand_prepare(
    *,
    session: TableSession,
    record: Mapping[str, Any],
    state: selectors.TableState | None = None,
) -> dict[str, Any]:
    """The record as it will be scored: the table's ruleset, and the dealer, 比下胡
    and 园子 balances the booked hands imply (what the recorder sent is replaced)."""
    if state is None:
        state = selectors.table_state_cached(session)
    out = dict(record)
    out["format"] = "mahjong-hand/1"
    out["ruleset"] = session.ruleset.ruleset_id
    out["dealer"] = state.dealer
    if session.ruleset.family == "nanjing":
        out["doubled"] = state.doubled
    else:
        out.pop("doubled", None)
    if state.garden_left is not None:
        out["garden"] = {
            "size": session.garden_size,
            "left": dict(state.garden_left),
            "end_when_out": session.end_when_out,
        }
    else:
        out.pop("garden", None)
    return out


def hand_preview(
    *,
    session: TableSession,
    record: Mapping[str, Any],
    state: selectors.TableState | None = None,
) -> tuple[dict, dict]:
    """Score without booking: (the prepared record, its result). Raises ScoringError."""
    prepared = hand_prepare(session=session, record=record, state=state)
    return prepared, scoring.score(prepared, ruleset=session.ruleset.as_ruleset())


def hand_record(
    *,
    session: TableSession | int,
    record: Mapping[str, Any],
    idempotency_key: uuid.UUID | str,
    user: AbstractBaseUser | None,
    after: int | None = None,
    ruleset: RulesetVersion | None = None,
) -> Hand:
    """Book one hand: score it and write it with its ledger lines, all or nothing.

    Under a row lock on the session, so two phones at one table take turns: the
    second sees the first's hand (its number, its dealer and doubling). The session
    is read with the lock (a session or its id may be given). The same idempotency
    key books once; a second submit gets the first hand back (the key's unique
    constraint refuses the second insert, and the first hand is returned; a key of
    another table is refused).
    ``after``: the number of the entry the recorder's preview followed; when another
    entry has been booked since, TableChangedError (nothing booked), so that the
    recorder sees the hand scored on the table as it now is. ``ruleset``: the version
    the preview was scored under; another one at the table is a TableChangedError too.
    Raises ScoringError (nothing booked) or SessionClosedError.
    """
    key = uuid.UUID(str(idempotency_key))
    pk = session if isinstance(session, int) else session.pk
    try:
        with transaction.atomic():
            locked = selectors.session_get(pk, seats=False, lock=True)
            # under the lock nothing else is booked: the state at these marks is the
            # state, from the cache when a page or a preview already computed it
            marks = selectors.session_marks(locked)
            locked.last_entry, locked.last_statement = marks
            number = marks[0] + 1
            if after is not None and number != after + 1:
                existing = _already_booked(key, locked)
                if existing is not None:
                    return existing  # a double tap: this key booked the entry since
                raise TableChangedError(_("Another hand was booked at this table meanwhile."))
            if ruleset is not None and locked.ruleset != ruleset:
                raise TableChangedError(_("The table's ruleset changed since the preview."))
            if locked.ended_at is not None:
                raise SessionClosedError(_("The session has ended."))
            state = selectors.table_state_cached(locked, marks=marks)
            prepared, result = hand_preview(session=locked, record=record, state=state)
            hand = Hand.objects.create(
                session=locked,
                number=number,
                record=prepared,
                result=result,
                ruleset=locked.ruleset,
                idempotency_key=key,
                recorded_by=_user_or_none(user),
            )
            LedgerLine.objects.bulk_create(_ledger_lines(hand, result["payments"]))
            selectors.table_state_carry(locked, marks, state, hand, result)
            return hand
    except IntegrityError:
        # A concurrent submit with the same key won the race: return its hand.
        existing = _already_booked(key, pk)
        if existing is None:
            raise
        return existing


def _already_booked(key: uuid.UUID, session: TableSession | int) -> Hand | None:
    pk = session if isinstance(session, int) else session.pk
    existing = Hand.objects.filter(idempotency_key=key).first()
    if existing is not None and existing.session_id != pk:
        raise ValidationError(_("This form belongs to another table."))
    return existing


def hand_void(
    *,
    hand: Hand,
    reason: str,
    user: AbstractBaseUser | None,
    idempotency_key: uuid.UUID | str | None = None,
) -> Hand:
    """Reverse a booked hand: a new entry with every line negated and the reason.

    The hand stays in the journal, marked voided; the table's state (dealer,
    doubling, 园子 balances) is recomputed from the hands left standing.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Give a reason for voiding the hand."))
    key = uuid.UUID(str(idempotency_key)) if idempotency_key else uuid.uuid4()
    with transaction.atomic():
        TableSession.objects.select_for_update(of=("self",)).get(pk=hand.session_id)
        existing = Hand.objects.filter(idempotency_key=key).first()
        if existing is not None:
            return existing
        target = Hand.objects.get(pk=hand.pk)
        if target.is_reversal:
            raise ValidationError(_("A reversal cannot be voided."))
        if Hand.objects.filter(voids=target).exists():
            raise ValidationError(_("This hand is already voided."))
        payments = target.result.get("payments", [])
        net = {seat: -points for seat, points in target.result.get("net", {}).items()}
        entry = Hand.objects.create(
            session_id=target.session_id,
            number=_next_number(target.session),
            record={},
            result={"voids": target.number, "net": net, "payments": payments},
            ruleset_id=target.ruleset_id,
            idempotency_key=key,
            recorded_by=_user_or_none(user),
            voids=target,
            void_reason=reason,
        )
        LedgerLine.objects.bulk_create(_ledger_lines(entry, payments, sign=-1))
        return entry


def _user_or_none(user: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def settlement_make(*, session: TableSession, user: AbstractBaseUser | None) -> Settlement:
    """Freeze a statement of every entry since the last one: each seat's net and
    the fewest transfers that settle it (and, on 进园子 tables, the 园子 balances).
    """
    with transaction.atomic():
        locked = (
            TableSession.objects.select_for_update(of=("self",))
            .select_related("ruleset")
            .get(pk=session.pk)
        )
        state = selectors.table_state(locked)
        pending = selectors.settlement_pending(locked, state)
        if pending is None:
            raise ValidationError(_("There is nothing to settle since the last statement."))
        names = {seat.wind: seat.name for seat in locked.seats.all()}
        statement: dict[str, Any] = {
            "net": pending.net,
            "transfers": pending.transfers,
            "names": names,
        }
        if state.garden_left is not None:
            window = [e for e in state.entries if e.number >= pending.first_entry]
            statement["garden"] = {
                "size": locked.garden_size,
                "number": state.garden_number,
                "left": state.garden_left,
                "closed": [
                    {"hand": e.number, "left": e.left} for e in window if e.stands and e.garden_over
                ],
            }
        last = locked.settlements.aggregate(last=Max("number"))["last"] or 0
        return Settlement.objects.create(
            session=locked,
            number=last + 1,
            first_entry=pending.first_entry,
            last_entry=pending.last_entry,
            statement=statement,
            created_by=_user_or_none(user),
        )


def hand_signoff(*, hand: Hand, user: AbstractBaseUser) -> HandSignoff:
    """A player confirms a booked hand on their own phone (once per seat).

    Only an account seated at the table can confirm, and only for its own seat.
    """
    seat = Seat.objects.filter(session_id=hand.session_id, user=user).first()
    if seat is None:
        raise ValidationError(_("Only a player seated at this table can confirm its hands."))
    if hand.is_reversal:
        raise ValidationError(_("A reversal needs no confirmation."))
    try:
        with transaction.atomic():
            return HandSignoff.objects.create(hand=hand, seat=seat.wind, user=user)
    except IntegrityError:
        return HandSignoff.objects.get(hand=hand, seat=seat.wind)
