"""Table sessions (场): opening one with its four seats, ending and reopening it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.core.models import Room
from clubapp.members import services as members_services
from clubapp.members.models import Table, Visit
from clubapp.play import permissions, selectors
from clubapp.play.models import SEATS, Mode, RulesetVersion, Seat, SettleEvery, TableSession
from clubapp.play.services.common import account, session_locked
from clubapp.play.services.settlements import statement_freeze


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


#: how long after its end a manager may still reopen a session ended by mistake
REOPEN_WITHIN = timedelta(hours=6)


class SeatError(ValidationError):
    """What is wrong with the player at one wind (the form shows it beside that seat)."""

    def __init__(self, message: str, *, wind: str, code: str) -> None:
        super().__init__(message, code=code)
        self.wind = wind


def _lock_table(table: Table, room: Room) -> Table:
    """The room's table, locked; it must be in use and have no open session."""
    # another room's table is not found (on PostgreSQL its row is out of sight)
    locked = Table.objects.select_for_update().filter(pk=table.pk, room=room).first()
    if locked is None:
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


def _garden_size(ruleset: RulesetVersion, mode: str, size: int | None) -> int | None:
    """The 园子 size a table keeps: a 进园子 table's, checked (a 南京 mode only); None
    for 敞开头."""
    if mode != Mode.GARDEN:
        return None
    if ruleset.family != "nanjing":
        raise ValidationError(_("The garden is a mode of Nanjing mahjong."))
    if not size or size <= 0:
        raise ValidationError(_("A garden table needs the size of its garden."))
    return size


def _settle_default(ruleset: RulesetVersion, mode: str) -> str:
    """When a table settles unless told: 工地 tables on the worksite timing, 进园子 tables
    when a 园子 closes, other 南京 tables per 圈."""
    if ruleset.family == "worksite":
        return SettleEvery.WORKSITE
    if mode == Mode.GARDEN:
        # RULES.md: a 进园子 table settles the 园子's final balances against its size
        return SettleEvery.GARDEN
    return SettleEvery.QUAN


def _players(
    seats: Sequence[SeatIn], room: Room, by: User | None
) -> list[tuple[SeatIn, str, User | None, str]]:
    """(seat, name, account, reason) of each seat in E S W N order, checked: one
    player, one seat (by visit and by account)."""
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
    return players


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
    if ruleset.room_id is not None and ruleset.room_id != room.pk:
        raise ValidationError(
            _("This ruleset is not one of this room's."), code="ruleset_other_room"
        )
    garden_size = _garden_size(ruleset, mode, garden_size)
    if settle_every is None:
        settle_every = _settle_default(ruleset, mode)
    table = _lock_table(table, room)
    players = _players(seats, room, by)
    seated = {user.pk for _seat, _name, user, _reason in players if user is not None}
    if by is not None and not permissions.is_manager(by) and by.pk not in seated:
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
                created_by=account(by),
            )
    except IntegrityError:
        raise ValidationError(
            _("%(table)s is in play already.") % {"table": table.label}, code="table_in_play"
        ) from None
    Seat.objects.bulk_create(
        Seat(
            room=room,
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
    found = (
        Visit.objects.select_for_update(of=("self",))
        .select_related("member")
        .filter(pk=visit.pk, room=room)
        .first()
    )
    if found is None or found.checked_out_at is not None:
        raise SeatError(
            _("%(name)s is not checked in.") % {"name": (found or visit).visitor_name},
            wind=wind,
            code="visit_closed",
        )
    locked = found
    if Seat.objects.filter(room=room, visit=locked, session__ended_at__isnull=True).exists():
        raise SeatError(
            _("%(name)s already sits at an open table.") % {"name": locked.visitor_name},
            wind=wind,
            code="visit_seated",
        )
    member_user = locked.member.user_id if locked.member is not None else None
    if (
        member_user is not None
        and Seat.objects.filter(
            room=room, user_id=member_user, session__ended_at__isnull=True
        ).exists()
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
    locked = session_locked(session.pk)
    permissions.check_act_at_table(by, locked)
    if locked.ended_at is None:
        locked.ended_at = ended_at or timezone.now()
        locked.save(update_fields=["ended_at"])
        tip = selectors.journal_tip(session=locked)
        if tip.state.number > tip.settled_through:
            statement_freeze(locked, tip, by)
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
    locked = session_locked(session.pk)
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
    locked.reopened_by = account(by)
    try:
        with transaction.atomic():
            locked.save(update_fields=["ended_at", "reopened_at", "reopened_by"])
    except IntegrityError:
        raise ValidationError(
            _("Another session is open at this table."), code="table_in_play"
        ) from None
    members_services.table_set_in_play(room=locked.room, number=locked.table_number, in_play=True)
    return locked
