"""Writes of the tournaments (赛事, 篇三 五.5): create, enter, pair or draw, results,
the 麻将 tables' sessions, close.

Every function is keyword-only and atomic, checks that ``by`` is a manager
(PermissionDenied) and refuses bad input with a ValidationError (a code and a
translatable message) having saved nothing. A closed tournament takes no more
entrants, rounds, results or tables.
"""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.activities import pairing as pairs
from clubapp.activities.models import (
    Entrant,
    FinalStanding,
    Format,
    Game,
    Pairing,
    PlannedActivity,
    RankBy,
    Result,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)
from clubapp.activities.permissions import can_manage
from clubapp.activities.selectors import tournaments as selectors
from clubapp.books import services as books
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.core.models import Room
from clubapp.core.requestkeys import book_once
from clubapp.members import selectors as members_selectors
from clubapp.members.models import CardState, Member, Table, Visit
from clubapp.play import services as play
from clubapp.play.models import SEATS, RulesetVersion, TableSession, Wind

#: the largest seed a draw takes (a BigIntegerField holds it; short enough to read out)
SEED_LIMIT = 10**9


def _check_manager(by: User) -> None:
    if not can_manage(by):
        raise PermissionDenied(_("Only a manager runs tournaments."))


def _locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked (two managers' writes take turns), and open."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.is_closed:
        raise ValidationError(
            _("The tournament is closed: its standings are final."), code="closed"
        )
    return locked


def placings_parse(text: str) -> str:
    """Four placing points, first to fourth, none below the next (``"4,2,1,0"``)."""
    try:
        values = [int(part) for part in text.replace("，", ",").split(",")]
    except ValueError:
        values = []
    if (
        len(values) != len(SEATS)
        or any(v < 0 for v in values)
        or any(a < b for a, b in zip(values, values[1:], strict=False))
    ):
        raise ValidationError(
            _("Placing points are four whole numbers, first to fourth, such as 4,2,1,0."),
            code="placings",
        )
    return ",".join(str(v) for v in values)


@transaction.atomic
def tournament_create(
    *,
    room: Room,
    name: str,
    game: str,
    format: str,
    starts: dt.date,
    ends: dt.date,
    rounds_planned: int,
    by: User,
    entry_fee: Decimal = Decimal("0.00"),
    ruleset: RulesetVersion | None = None,
    rank_by: str = RankBy.POINTS,
    placings: str = "4,2,1,0",
    planned: PlannedActivity | None = None,
    now: dt.datetime | None = None,
) -> Tournament:
    """A new tournament. 麻将 plays tables under one ruleset; the other games pair."""
    _check_manager(by)
    name = (name or "").strip()
    if not name:
        raise ValidationError(_("Enter the tournament's name."), code="name")
    if game not in Game.values:
        raise ValidationError(_("Choose the game."), code="game")
    if format not in Format.values:
        raise ValidationError(_("Choose the format."), code="format")
    if (game == Game.MAHJONG) != (format == Format.TABLES):
        raise ValidationError(
            _("Mahjong plays tables of four; the other games play round robin or Swiss."),
            code="format_for_game",
        )
    if ends < starts:
        raise ValidationError(_("The tournament cannot end before it starts."), code="dates")
    if rounds_planned < 1:
        raise ValidationError(_("Plan at least one round."), code="rounds")
    if (
        not isinstance(entry_fee, Decimal)
        or entry_fee < 0
        or entry_fee != entry_fee.quantize(Decimal("0.01"))
    ):
        raise ValidationError(
            _("The entry fee is a number of yuan, zero or more, such as 20.00."), code="fee"
        )
    if game == Game.MAHJONG:
        if ruleset is None:
            raise ValidationError(_("Choose the ruleset every table plays."), code="ruleset")
        if rank_by not in RankBy.values:
            raise ValidationError(_("Choose how the standings rank."), code="rank_by")
        placings = placings_parse(placings)
    else:
        ruleset, rank_by, placings = None, RankBy.POINTS, "4,2,1,0"
    if planned is not None and planned.version.plan.room_id != room.pk:
        raise ValidationError(_("That planned activity is not this room's."), code="planned")
    return Tournament.objects.create(
        room=room,
        name=name[:100],
        game=game,
        format=format,
        starts=starts,
        ends=ends,
        rounds_planned=rounds_planned,
        entry_fee=entry_fee,
        ruleset=ruleset,
        rank_by=rank_by,
        placings=placings,
        planned=planned,
        created_by=by,
        created_at=now or timezone.now(),
    )


# --------------------------------------------------------------------- entrants


@transaction.atomic
def entrant_add(
    *,
    tournament: Tournament,
    member: Member,
    by: User,
    late: bool = False,
    request_key: uuid.UUID | None = None,
    now: dt.datetime | None = None,
) -> Entrant:
    """Enter a member whose card is valid, once. An entry fee is booked as income
    (category 赛事报名费) with its receipt through the cash book, in the same
    transaction; ``late`` is the cash book's 补记 box for a closed day. Entries close
    when the first round is paired or drawn. The same form sent twice (``request_key``)
    enters once."""
    _check_manager(by)
    now = now or timezone.now()

    def book() -> Entrant:
        locked = _locked(tournament)
        if member.room_id != locked.room_id:
            raise ValidationError(_("That member is not this room's."), code="member_room")
        if locked.rounds.exists():
            raise ValidationError(
                _("Entries closed when the first round was paired."), code="entries_closed"
            )
        if locked.entrants.filter(member=member).exists():
            raise ValidationError(
                _("%(name)s is entered already.") % {"name": member.name}, code="entered_twice"
            )
        card = members_selectors.member_current_card(member=member)
        if card is None or card.state_on(timezone.localdate(now)) != CardState.ACTIVE:
            raise ValidationError(
                _("%(name)s has no valid card: only members may enter.") % {"name": member.name},
                code="card_not_valid",
            )
        fee = None
        if locked.entry_fee > 0:
            fee = books.income_other_record(
                room=locked.room,
                category=IncomeCategory.TOURNAMENT,
                amount=locked.entry_fee,
                received_at=now,
                payer=member.name,
                description=_("%(tournament)s: entry fee") % {"tournament": locked.name},
                by=by,
                late=late,
                request_key=request_key,
                now=now,
            )
        number = (locked.entrants.aggregate(n=Max("number"))["n"] or 0) + 1
        return Entrant.objects.create(
            room_id=locked.room_id,
            tournament=locked,
            member=member,
            number=number,
            fee=fee,
            entered_at=now,
            entered_by=by,
        )

    if tournament.entry_fee > 0:
        # the fee's income row carries the key: a second send answers with its entrant
        return book_once(
            IncomeEntry,
            request_key=request_key,
            book=book,
            answer=lambda income: Entrant.objects.get(fee=income),
        )
    return book()


# --------------------------------------------------------------------- rounds


def _previous_complete(tournament: Tournament) -> int:
    """The next round's number, once the last round's results are all in."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return 1
    missing = selectors.round_missing(round=last)
    if missing:
        raise ValidationError(
            _("Round %(number)s is not complete: %(missing)s result(s) still missing.")
            % {"number": last.number, "missing": missing},
            code="previous_incomplete",
        )
    return last.number + 1


def _next_number(tournament: Tournament) -> int:
    number = _previous_complete(tournament)
    if number > tournament.rounds_planned:
        raise ValidationError(
            _("All %(count)s planned rounds have been played.")
            % {"count": tournament.rounds_planned},
            code="rounds_done",
        )
    return number


@transaction.atomic
def round_pair(*, tournament: Tournament, by: User, now: dt.datetime | None = None) -> Round:
    """Pair the next round of a pairing game: round robin by the Berger tables (the
    round of that number), Swiss from the current standings with no pair twice and
    the bye to someone who has not had one. Only when the last round is complete."""
    _check_manager(by)
    locked = _locked(tournament)
    if locked.format == Format.TABLES:
        raise ValidationError(_("A mahjong round is drawn or set by hand."), code="format")
    number = _next_number(locked)
    entrants = list(locked.entrants.order_by("number").values_list("pk", flat=True))
    if len(entrants) < 2:
        raise ValidationError(_("A round needs at least two entrants."), code="too_few")
    if locked.format == Format.ROUND_ROBIN:
        table = pairs.round_robin(entrants)
        if number > len(table):
            raise ValidationError(
                _("Everyone has met everyone: a round robin of %(count)s has %(rounds)s rounds.")
                % {"count": len(entrants), "rounds": len(table)},
                code="round_robin_done",
            )
        chosen = table[number - 1]
    else:
        lines = selectors.standings_live(tournament=locked)
        played = [
            (p.first_id, p.second_id)
            for p in Pairing.objects.filter(round__tournament=locked, second__isnull=False)
        ]
        byes = Pairing.objects.filter(round__tournament=locked, second__isnull=True).values_list(
            "first", flat=True
        )
        try:
            chosen = pairs.swiss(
                [line.entrant.pk for line in lines],
                {line.entrant.pk: line.points for line in lines},
                [(a, b) for a, b in played if b is not None],
                list(byes),
            )
        except pairs.NoPairing:
            raise ValidationError(
                _("No round pairs everyone without a repeat: close the tournament."),
                code="no_pairing",
            ) from None
    round_ = Round.objects.create(
        room_id=locked.room_id,
        tournament=locked,
        number=number,
        created_at=now or timezone.now(),
        created_by=by,
    )
    Pairing.objects.bulk_create(
        Pairing(room_id=locked.room_id, round=round_, board=board, first_id=first, second_id=second)
        for board, (first, second) in enumerate(chosen, start=1)
    )
    return round_


@transaction.atomic
def result_record(
    *,
    tournament: Tournament,
    pairing: Pairing,
    first_score: int,
    second_score: int,
    by: User,
    now: dt.datetime | None = None,
) -> Result:
    """A pairing's result (1–0, ½ as 1–1, 0–1, or a game's score). A correction is a
    new row: the last one counts."""
    _check_manager(by)
    locked = _locked(tournament)
    if not Pairing.objects.filter(pk=pairing.pk, round__tournament=locked).exists():
        raise ValidationError(
            _("That pairing is not one of this tournament's."), code="pairing_not_here"
        )
    if pairing.second_id is None:
        raise ValidationError(_("A bye has no result to enter."), code="bye")
    if first_score < 0 or second_score < 0:
        raise ValidationError(_("A score is zero or more."), code="score")
    return Result.objects.create(
        room_id=locked.room_id,
        pairing=pairing,
        first_score=first_score,
        second_score=second_score,
        entered_by=by,
        entered_at=now or timezone.now(),
    )


def _mahjong_round(tournament: Tournament) -> int:
    if tournament.format != Format.TABLES:
        raise ValidationError(_("A pairing game's round is paired."), code="format")
    return _next_number(tournament)


def _seat_round(round_: Round, tables: Sequence[Sequence[Entrant]]) -> None:
    try:
        with transaction.atomic():
            for number, four in enumerate(tables, start=1):
                table = RoundTable.objects.create(
                    room_id=round_.room_id, round=round_, number=number
                )
                RoundSeat.objects.bulk_create(
                    RoundSeat(
                        room_id=round_.room_id,
                        round=round_,
                        table=table,
                        wind=wind,
                        entrant=entrant,
                    )
                    for wind, entrant in zip(SEATS, four, strict=True)
                )
    except IntegrityError:
        # the database's own refusal (one table a round), should a check above miss it
        raise ValidationError(
            _("An entrant cannot sit at two tables of one round."), code="two_tables"
        ) from None


@transaction.atomic
def round_draw(
    *, tournament: Tournament, by: User, seed: int | None = None, now: dt.datetime | None = None
) -> Round:
    """Draw the next 麻将 round's seats from ``seed`` (chosen at random when none is
    given), stored and shown: the same seed and entrants give the same tables."""
    _check_manager(by)
    locked = _locked(tournament)
    number = _mahjong_round(locked)
    entrants = list(locked.entrants.select_related("member").order_by("number"))
    if not entrants or len(entrants) % len(SEATS):
        raise ValidationError(
            _("A draw seats four a table: %(count)s entrants is not a multiple of four.")
            % {"count": len(entrants)},
            code="not_multiple_of_four",
        )
    if seed is None:
        seed = random.SystemRandom().randrange(1, SEED_LIMIT)
    if not 0 <= seed < SEED_LIMIT:
        raise ValidationError(
            _("A seed is a whole number below %(limit)s.") % {"limit": SEED_LIMIT}, code="seed"
        )
    round_ = Round.objects.create(
        room_id=locked.room_id,
        tournament=locked,
        number=number,
        seed=seed,
        created_at=now or timezone.now(),
        created_by=by,
    )
    _seat_round(round_, pairs.draw_tables(entrants, seed))
    return round_


@transaction.atomic
def round_set(
    *,
    tournament: Tournament,
    tables: Sequence[Sequence[Entrant]],
    by: User,
    now: dt.datetime | None = None,
) -> Round:
    """Set the next 麻将 round's seats by hand: four entrants a table, seated 东南西北
    in the order given; an entrant at two tables is refused."""
    _check_manager(by)
    locked = _locked(tournament)
    number = _mahjong_round(locked)
    if not tables:
        raise ValidationError(_("Seat at least one table."), code="no_tables")
    seen: set[int] = set()
    for four in tables:
        if len(four) != len(SEATS):
            raise ValidationError(_("Every table seats four entrants."), code="table_of_four")
        for entrant in four:
            if entrant.tournament_id != locked.pk:
                raise ValidationError(
                    _("%(name)s is not entered in this tournament.")
                    % {"name": entrant.member.name},
                    code="not_entrant",
                )
            if entrant.pk in seen:
                raise ValidationError(
                    _("%(name)s cannot sit at two tables of one round.")
                    % {"name": entrant.member.name},
                    code="two_tables",
                )
            seen.add(entrant.pk)
    round_ = Round.objects.create(
        room_id=locked.room_id,
        tournament=locked,
        number=number,
        created_at=now or timezone.now(),
        created_by=by,
    )
    _seat_round(round_, tables)
    return round_


# --------------------------------------------------------------------- 麻将 sessions


def _check_session_seats(table: RoundTable, session: TableSession) -> None:
    """The session plays the tournament's ruleset and seats each entrant at their wind."""
    tournament = table.round.tournament
    if session.ruleset_id != tournament.ruleset_id:
        raise ValidationError(
            _("The table must play the tournament's ruleset, %(ruleset)s.")
            % {"ruleset": tournament.ruleset.name if tournament.ruleset else "—"},
            code="ruleset",
        )
    if session.room_id != tournament.room_id:
        raise ValidationError(_("That session is not this room's."), code="session_room")
    seated = {seat.wind: seat for seat in session.seats.all()}
    for seat in table.seats.select_related("entrant__member"):
        member = seat.entrant.member
        at = seated.get(seat.wind)
        if at is None or (
            at.user_id != member.user_id if member.user_id is not None else at.name != member.name
        ):
            raise ValidationError(
                _("The session lacks %(name)s's seat (%(wind)s): it is not this table's.")
                % {"name": member.name, "wind": Wind(seat.wind).label},
                code="entrant_seat_missing",
            )


@transaction.atomic
def round_table_link(*, table: RoundTable, session: TableSession, by: User) -> RoundTable:
    """Link a table session opened at the play pages to the round's table: it must
    play the tournament's ruleset with every entrant of the table at their wind."""
    _check_manager(by)
    _locked(table.round.tournament)
    table = (
        RoundTable.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    )
    if table.session_id is not None:
        raise ValidationError(_("This table has its session already."), code="has_session")
    if RoundTable.objects.filter(session=session).exists():
        raise ValidationError(
            _("That session is another tournament table's."), code="session_taken"
        )
    _check_session_seats(table, session)
    table.session = session
    table.save(update_fields=["session"])
    return table


@transaction.atomic
def round_table_open(
    *,
    table: RoundTable,
    board: Table,
    by: User,
    started_at: dt.datetime | None = None,
) -> TableSession:
    """Open the round table's session at one of the room's tables: an ordinary
    play.TableSession with the tournament's ruleset, its four seats the entrants (by
    their open visit when they have checked in, else by their account and name)."""
    _check_manager(by)
    tournament = _locked(table.round.tournament)
    table = (
        RoundTable.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    )
    if table.session_id is not None:
        raise ValidationError(_("This table has its session already."), code="has_session")
    if board.room_id != tournament.room_id:
        raise ValidationError(_("That table is not this room's."), code="board_room")
    assert tournament.ruleset is not None  # the form of a 麻将 tournament requires it
    seats = []
    for seat in table.seats.select_related("entrant__member__user"):
        member = seat.entrant.member
        visit = Visit.objects.filter(
            member=member, room=tournament.room, checked_out_at__isnull=True
        ).first()
        if visit is not None:
            seats.append(play.SeatIn(wind=seat.wind, visit=visit))
        else:
            seats.append(play.SeatIn(wind=seat.wind, name=member.name, user=member.user))
    # the tournament's own code seats its entrants (by=None): the manager's right to
    # run the tournament was checked above, and the draw is what seats them
    session = play.session_create(
        room=tournament.room,
        table=board,
        ruleset=tournament.ruleset,
        seats=seats,
        by=None,
        started_at=started_at,
    )
    _check_session_seats(table, session)
    table.session = session
    table.save(update_fields=["session"])
    return session


# --------------------------------------------------------------------- closing


@transaction.atomic
def tournament_close(
    *, tournament: Tournament, by: User, now: dt.datetime | None = None
) -> list[FinalStanding]:
    """Close: the standings are frozen into FinalStanding rows; nothing changes after."""
    _check_manager(by)
    locked = _locked(tournament)
    if not locked.rounds.exists():
        raise ValidationError(_("No round has been played yet."), code="no_rounds")
    _previous_complete(locked)
    lines = selectors.standings_live(tournament=locked)
    rows = FinalStanding.objects.bulk_create(
        FinalStanding(
            room_id=locked.room_id,
            tournament=locked,
            rank=line.rank,
            entrant=line.entrant,
            points=line.points,
            tie_break=line.tie_break,
        )
        for line in lines
    )
    locked.closed_at = now or timezone.now()
    locked.closed_by = by
    locked.save(update_fields=["closed_at", "closed_by"])
    tournament.closed_at, tournament.closed_by = locked.closed_at, by
    return rows
