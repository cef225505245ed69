"""Reads of the play app: keyword-only, read-only, plain ORM.

The table's state is read from the journal's last row (each row keeps the state
after it, ``Hand.state``): a session page costs the same few indexed queries on the
first hand of a night as on the hundredth.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.shortcuts import get_object_or_404

from clubapp.core.models import Room
from clubapp.members.models import Table, Visit
from clubapp.play.models import (
    SEATS,
    Hand,
    HandSignoff,
    LedgerLine,
    RulesetVersion,
    Seat,
    Settlement,
    TableSession,
)
from scoring import compare, features, night, settle, timing

#: the latest rows the session page shows; the rest are one tap away
RECENT = 8


def session_list(*, room: Room) -> QuerySet[TableSession]:
    """The room's sessions: open tables first, then the newest."""
    return (
        TableSession.objects.filter(room=room)
        .select_related("ruleset", "table")
        .prefetch_related("seats")
        .order_by(F("ended_at").desc(nulls_first=True), "-started_at", "-id")
    )


def sessions_seated(*, room: Room, user: Any) -> QuerySet[TableSession]:
    """The room's open tables where ``user`` sits (by their account), oldest first."""
    return (
        TableSession.objects.filter(room=room, ended_at__isnull=True, seats__user=user)
        .select_related("ruleset")
        .prefetch_related("seats")
        .distinct()
        .order_by("started_at", "id")
    )


def tables_openable(*, room: Room) -> QuerySet[Table]:
    """The room's tables a new session may take: in use, with no open session."""
    busy = TableSession.objects.filter(room=room, table=OuterRef("pk"), ended_at__isnull=True)
    return Table.objects.filter(room=room, active=True).exclude(Exists(busy)).order_by("number")


def visits_seatable(*, room: Room) -> QuerySet[Visit]:
    """The players a new table may seat: open visits of the room (a member checked in
    by card, a non-member who pays at the desk), none already at an open table (by the
    visit, or by the member's account)."""
    at_open_table = Seat.objects.filter(room=room, session__ended_at__isnull=True)
    return (
        Visit.objects.filter(room=room, checked_out_at__isnull=True)
        .exclude(Exists(at_open_table.filter(visit=OuterRef("pk"))))
        .exclude(Exists(at_open_table.filter(user=OuterRef("member__user"))))
        .select_related("member")
        .order_by("checked_in_at", "pk")
    )


def session_get(*, room: Room, pk: int, seats: bool = True) -> TableSession:
    """The room's session with its ruleset and (``seats``) its seats, or 404 (another
    room's as a missing one: the page does not tell that it exists)."""
    sessions = TableSession.objects.filter(room=room).select_related("ruleset")
    if seats:
        sessions = sessions.prefetch_related("seats")
    return get_object_or_404(sessions, pk=pk)


@dataclass(frozen=True)
class Tip:
    """The end of a session's journal: the table's state after its last row, the last
    row of its last statement (0 when none), and what the session fixes for the night
    (the next state is computed under it)."""

    state: night.State
    settled_through: int
    table: night.Table


def journal_tip(*, session: TableSession) -> Tip:
    """The table's state now (one query: the last row, with its statement mark)."""
    last_statement = Settlement.objects.filter(session=OuterRef("session")).order_by("-number")
    last = (
        Hand.objects.filter(session=session)
        .only("number", *Hand.STATE_FIELDS)
        .annotate(settled_through=Subquery(last_statement.values("last_number")[:1]))
        .order_by("-number")
        .first()
    )
    table = session.night()
    if last is None:
        return Tip(state=night.start(table), settled_through=0, table=table)
    return Tip(state=last.state(), settled_through=last.settled_through or 0, table=table)


def tip_of(session: TableSession, lines: Sequence[Line], statements: Sequence[Settlement]) -> Tip:
    """The end of the journal from what a page read anyway: its latest rows (newest
    first) and its statements (newest first); the same as ``journal_tip``."""
    table = session.night()
    state = lines[0].hand.state() if lines else night.start(table)
    settled_through = statements[0].last_number if statements else 0
    return Tip(state=state, settled_through=settled_through, table=table)


def journal_rows(*, session: TableSession, standing: bool = False) -> list[night.Row]:
    """Every row of the journal as ``scoring.night`` reads it, in order (``standing``:
    only the hands that stand: played, not voided). A void and a check read the whole
    night; nothing else does."""
    hands = Hand.objects.filter(session=session).order_by("number")
    if standing:
        hands = hands.filter(voids__isnull=True, voided_by__isnull=True)
    rows = hands.values_list(
        "number", "record__dealer", "result__next", "result__garden_over", "result__net",
        "result__voids",
    )  # fmt: skip
    return [
        night.Row.read(
            number,
            {"dealer": dealer},
            {
                "next": nxt,
                "garden_over": over,
                "net": net,
                "voids": voids,
            },
        )  # fmt: skip
        for number, dealer, nxt, over, net, voids in rows
    ]


@dataclass(frozen=True)
class Line:
    """A row of the journal as the pages list it."""

    hand: Hand
    #: where a played hand sat in the night (None for a reversal)
    position: timing.Position | None

    @property
    def wins(self) -> list[dict[str, Any]]:
        """Each win as seat, discarder (None when self-drawn) and value."""
        records = self.hand.record.get("wins", [])
        return [
            {"seat": w["seat"], "discarder": r.get("discarder"), "value": w["value"]}
            for w, r in zip(self.hand.result.get("wins", []), records, strict=False)
        ]

    @property
    def points(self) -> list[int]:
        """The seats' points in this row, E S W N (the result's net, which its ledger
        lines equal by construction)."""
        net = self.hand.result.get("net") or {}
        return [net.get(seat, 0) for seat in SEATS]


def journal_lines(*, session: TableSession, count: int | None = RECENT) -> list[Line]:
    """The latest ``count`` rows (every row when None), newest first, each with where
    its hand sat: the state after the row before it (one query)."""
    hands = (
        Hand.objects.filter(session=session)
        .annotate(voids_number=F("voids__number"), voided_by_number=F("voided_by__number"))
        .order_by("-number")
    )
    rows = list(hands if count is None else hands[: count + 1])
    start = night.start(session.night())
    out = []
    for i, hand in enumerate(rows[:count]):
        before = rows[i + 1].state() if i + 1 < len(rows) else start
        out.append(Line(hand, None if hand.is_reversal else before.position))
    return out


def rows_since(*, session: TableSession, after: int, count: int = 5) -> list[Line]:
    """The rows booked after row ``after`` (the latest ``count``, oldest first), each
    with who booked it: what another phone was quicker with."""
    hands = (
        Hand.objects.filter(session=session, number__gt=after)
        .select_related("recorded_by__member")
        .annotate(voids_number=F("voids__number"))
        .order_by("-number")[:count]
    )
    return [Line(hand, None) for hand in reversed(list(hands))]


def row_booked_with(*, session: TableSession, key: str) -> Line | None:
    """The row of ``session`` that the confirm with idempotency ``key`` booked, if any:
    what a recorder whose answer was lost is told after a reload."""
    try:
        uid = uuid.UUID(key)
    except ValueError:
        return None
    hand = (
        Hand.objects.filter(session=session, idempotency_key=uid)
        .select_related("recorded_by__member")
        .annotate(voids_number=F("voids__number"))
        .first()
    )
    return Line(hand, None) if hand is not None else None


def person_name(user: Any) -> str:
    """A user by the name the room knows: their member's name, else the account's."""
    if user is None:
        return ""
    member = getattr(user, "member", None)
    if member is not None:
        return str(member.name)
    return str(user.get_short_name() or user.get_username())


def statements(*, session: TableSession) -> QuerySet[Settlement]:
    """The session's statements, newest first."""
    return Settlement.objects.filter(session=session).order_by("-number")


@dataclass(frozen=True)
class Pending:
    """What the table owes since its last statement, and whether a statement is due."""

    first_number: int
    last_number: int
    net: dict[str, int]
    transfers: list[dict[str, Any]]
    due: bool


def settlement_pending(*, session: TableSession, tip: Tip) -> Pending | None:
    """The window since the last statement (None when there is nothing to settle).

    Due when a settlement point of the session's option lies in the window (kept in
    the state, ``settle.settles_after``), or when the session has ended.
    """
    if tip.state.number <= tip.settled_through:
        return None
    net = dict(tip.state.unsettled)
    return Pending(
        first_number=tip.settled_through + 1,
        last_number=tip.state.number,
        net=net,
        transfers=settle.fewest_transfers(net),
        due=session.ended_at is not None or tip.state.due,
    )


def gardens_closed(*, session: TableSession, after: int) -> list[dict[str, Any]]:
    """The 园子 closed by standing hands after row ``after``, with their final balances."""
    closing = Hand.objects.filter(
        session=session,
        number__gt=after,
        voids__isnull=True,
        voided_by__isnull=True,
        result__garden_over=True,
    ).order_by("number")
    return [{"hand": n, "left": left} for n, left in closing.values_list("number", "result__left")]


def settlement_get(*, session: TableSession, number: int) -> Settlement:
    return get_object_or_404(Settlement, room=session.room_id, session=session, number=number)


def hand_get(*, session: TableSession, number: int) -> Hand:
    return get_object_or_404(
        Hand.objects.select_related("voids", "recorded_by", "ruleset"),
        room=session.room_id,
        session=session,
        number=number,
    )


def rulesets_of(*, room: Room) -> QuerySet[RulesetVersion]:
    """The ruleset versions a room sees: the standard ones (no room: every room's, read
    only) and the room's own."""
    return RulesetVersion.objects.filter(Q(room__isnull=True) | Q(room=room))


def ruleset_version_list(*, room: Room) -> QuerySet[RulesetVersion]:
    return rulesets_of(room=room).order_by("ruleset_id", "-id")


def ruleset_version_get(*, room: Room, pk: int) -> RulesetVersion:
    """A version the room sees (standard or its own), or 404."""
    return get_object_or_404(rulesets_of(room=room), pk=pk)


def ruleset_versions_latest(*, room: Room) -> QuerySet[RulesetVersion]:
    """The newest version of each ruleset the room sees: what a new table may choose."""
    newest = rulesets_of(room=room).values("ruleset_id").annotate(last=Max("id"))
    return RulesetVersion.objects.filter(id__in=newest.values("last")).order_by("ruleset_id")


def ruleset_choices(*, room: Room) -> list[tuple[str, str]]:
    """(ruleset id, name) of every ruleset the room sees, by id: what the room's
    default ruleset may be."""
    return [(v.ruleset_id, v.name) for v in ruleset_versions_latest(room=room)]


@dataclass
class MemberStats:
    """A member's play over the sessions where an account of theirs sat."""

    sessions: list[dict[str, Any]]
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    big_hands: int = 0
    win_total: int = 0
    deal_in_total: int = 0
    points: int = 0

    @property
    def average_win(self) -> float:
        return round(self.win_total / self.wins, 1) if self.wins else 0.0

    @property
    def average_deal_in(self) -> float:
        return round(self.deal_in_total / self.deal_ins, 1) if self.deal_ins else 0.0


def member_stats(*, room: Room, user: Any = None, member: Any = None) -> MemberStats:
    """Points over time (one row per session), wins, self-draws, deal-ins, big hands,
    and the average win and deal-in, from the standing hands (three queries).

    The history is the member's (``member``: every seat taken on a visit of theirs or
    by their account, login or not) or an account's (``user``: its seats, and those of
    its member), in ``room``."""
    if member is None and user is not None:
        member = getattr(user, "member", None)
    if user is None and member is not None:
        user = member.user
    where = Q(pk__in=[])
    if user is not None:
        where |= Q(user=user)
    if member is not None:
        where |= Q(visit__member=member)
    seats = list(
        Seat.objects.filter(where, room=room)
        .select_related("session__ruleset")
        .order_by("session__started_at", "session_id")
    )
    wind_of = {seat.session_id: seat.wind for seat in seats}
    family = {seat.session_id: seat.session.ruleset.family for seat in seats}
    rows = list(
        Hand.objects.filter(
            room=room, session_id__in=wind_of, voids__isnull=True, voided_by__isnull=True
        )
        .order_by("session_id", "number")
        .values("session_id", "record", "result")
    )
    totals: dict[int, int] = {}
    sums = (
        LedgerLine.objects.filter(room=room, hand__session_id__in=wind_of)
        .values("hand__session_id", "seat")
        .annotate(total=Sum("points"))
    )
    for row in sums:
        if wind_of.get(row["hand__session_id"]) == row["seat"]:
            totals[row["hand__session_id"]] = row["total"]
    stats = MemberStats(sessions=[])
    for row in rows:
        wind = wind_of[row["session_id"]]
        stats.hands += 1
        records = row["record"].get("wins", [])
        for win, rec in zip(row["result"].get("wins", []), records, strict=False):
            if win["seat"] == wind:
                stats.wins += 1
                stats.self_draws += rec.get("discarder") is None
                stats.win_total += win["value"]
                stats.big_hands += features.is_big_hand(family[row["session_id"]], win["features"])
        if any(rec.get("discarder") == wind for rec in records):
            stats.deal_ins += 1
            stats.deal_in_total += sum(
                p["amount"]
                for p in row["result"].get("payments", [])
                if p["from"] == wind and p["reason"] == "win"
            )
    running = 0
    for seat in seats:
        points = totals.get(seat.session_id, 0)
        running += points
        stats.sessions.append(
            {"session": seat.session, "wind": seat.wind, "points": points, "running": running}
        )
    stats.points = running
    return stats


def hands_awaiting(*, room: Room, user: Any, count: int = 20) -> list[Hand]:
    """The standing hands at the room's tables where ``user`` sits that they have not
    confirmed yet, newest first (what a player is asked to look at). A hand ``user``
    booked is not asked of them: the recorder saw it when they booked it."""
    seated = Seat.objects.filter(session=OuterRef("session"), user=user)
    return list(
        Hand.objects.filter(
            room=room, session__seats__user=user, voids__isnull=True, voided_by__isnull=True
        )
        .exclude(signoffs__user=user)
        .exclude(recorded_by=user)
        .annotate(my_seat=Subquery(seated.values("wind")[:1]))
        .select_related("session")
        .order_by("-created_at", "-id")[:count]
    )


def hands_awaiting_count(*, session: TableSession, user: Any) -> int:
    """How many standing hands of ``session`` ``user`` has not confirmed yet (those
    they booked themselves not counted)."""
    return (
        Hand.objects.filter(session=session, voids__isnull=True, voided_by__isnull=True)
        .exclude(signoffs__user=user)
        .exclude(recorded_by=user)
        .count()
    )


def hand_compare(*, hand: Hand) -> list[dict[str, Any]]:
    """The hand as booked, then scored under the newest version of every other stored
    ruleset (``scoring.compare``), side by side; a ruleset that refuses the hand says
    why."""
    others = ruleset_versions_latest(room=hand.room).exclude(pk=hand.ruleset_id)
    rows: list[dict[str, Any]] = [
        {"name": hand.ruleset.name, "version": hand.ruleset.version, "result": hand.result,
         "own": True}
    ]  # fmt: skip
    scored = compare.compare(hand.record, [version.as_ruleset() for version in others])
    for version, row in zip(others, scored, strict=True):
        rows.append({"name": version.name, "version": version.version, "own": False, **row})
    for row in rows:
        if "result" in row:
            row["net_row"] = [row["result"]["net"].get(seat, 0) for seat in SEATS]
    return rows


def state_differences(*, session: TableSession) -> list[str]:
    """Every stored state of the session's journal that differs from a recomputation
    (``scoring.night.replay``) from its ledger lines and results: one line per field
    that differs, empty when every checkpoint holds."""
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    net = {hand.pk: dict.fromkeys(SEATS, 0) for hand in hands}
    sums = LedgerLine.objects.filter(hand__session=session).values("hand_id", "seat")
    for line in sums.annotate(total=Sum("points")):
        net[line["hand_id"]][line["seat"]] = line["total"]
    # each row's points as its ledger lines say (the check is that they agree)
    rows = [
        replace(night.Row.read(hand.number, hand.record, hand.result), net=net[hand.pk])
        for hand in hands
    ]
    marks = set(Settlement.objects.filter(session=session).values_list("last_number", flat=True))
    out = []
    for hand, expected in zip(hands, night.replay(session.night(), rows, marks), strict=True):
        stored = hand.state()
        for name in vars(expected):
            if getattr(stored, name) != getattr(expected, name):
                out.append(
                    f"session {session.pk} #{hand.number} {name}: stored "
                    f"{getattr(stored, name)!r}, recomputed {getattr(expected, name)!r}"
                )
    return out


def session_totals(sessions: Sequence[TableSession]) -> dict[int, dict[str, int]]:
    """Each session's points per seat, summed from its ledger (a void's reversing lines
    included): ``{session_id: {wind: points}}``, every wind present (0 when no line).
    The tournaments' 麻将 standings read their tables' sessions through this."""
    totals = {session.pk: dict.fromkeys(SEATS, 0) for session in sessions}
    chosen = TableSession.objects.filter(pk__in=list(totals))
    for pk, wind, points in points_by_seat(sessions=chosen):
        totals[pk][wind] = int(points or 0)
    return totals


def sessions_started(*, room: Room, start: dt.datetime, end: dt.datetime) -> QuerySet[TableSession]:
    """The room's sessions that started from ``start`` to before ``end`` (a night
    belongs to the moment it began), unordered: a subquery for the reads below."""
    return TableSession.objects.filter(
        room=room, started_at__gte=start, started_at__lt=end
    ).order_by()


def session_ids(*, sessions: QuerySet[TableSession]) -> list[int]:
    """The pks of ``sessions`` in the order they started."""
    return list(sessions.order_by("started_at", "id").values_list("id", flat=True))


def sessions_by_ruleset(*, sessions: QuerySet[TableSession]) -> dict[str, int]:
    """How many of ``sessions`` each ruleset (by name) played."""
    rows = sessions.order_by().values("ruleset__name").annotate(n=Count("id"))
    return {row["ruleset__name"]: row["n"] for row in rows}


def hands_by_ruleset(*, sessions: QuerySet[TableSession]) -> dict[str, tuple[int, int]]:
    """(played hands, reversals) of ``sessions`` by ruleset name: a reversal voids
    exactly one played hand, so the hands standing are the difference."""
    rows = (
        Hand.objects.filter(session__in=sessions)
        .order_by()
        .values("ruleset__name")
        .annotate(
            played=Count("id", filter=Q(voids__isnull=True)),
            reversals=Count("id", filter=Q(voids__isnull=False)),
        )
    )
    return {row["ruleset__name"]: (row["played"], row["reversals"]) for row in rows}


def hands_standing_by_session(*, sessions: Sequence[TableSession]) -> dict[int, int]:
    """The hands standing (played less the voided) of each of ``sessions``, by pk."""
    rows = (
        Hand.objects.filter(session__in=sessions)
        .order_by()
        .values("session_id")
        .annotate(
            played=Count("id", filter=Q(voids__isnull=True)),
            reversals=Count("id", filter=Q(voids__isnull=False)),
        )
    )
    return {row["session_id"]: row["played"] - row["reversals"] for row in rows}


def sessions_open(*, room: Room) -> list[TableSession]:
    """The room's open sessions with their ruleset and seats, by table number."""
    return list(
        TableSession.objects.filter(room=room, ended_at__isnull=True)
        .select_related("ruleset")
        .prefetch_related("seats")
        .order_by("table_number")
    )


@dataclass(frozen=True)
class SeatOf:
    """A seat as the reports tie it to a member: through the visit it was seated with
    (``visit_member_id``) or the account that sat there (``user_id``)."""

    session_id: int
    wind: str
    name: str
    user_id: int | None
    visit_member_id: int | None


def seats_of(*, sessions: QuerySet[TableSession]) -> list[SeatOf]:
    """Every seat of ``sessions``."""
    rows = Seat.objects.filter(session__in=sessions).values_list(
        "session_id", "wind", "name", "user_id", "visit__member_id"
    )
    return [SeatOf(*row) for row in rows]


def points_by_seat(*, sessions: QuerySet[TableSession]) -> list[tuple[int, str, int]]:
    """(session pk, wind, points): the ledger's sum of each seat of ``sessions``."""
    return list(
        LedgerLine.objects.filter(hand__session__in=sessions)
        .order_by()
        .values_list("hand__session_id", "seat")
        .annotate(points=Sum("points"))
    )


def big_hand_pattern(family: str) -> str:
    """A regular expression over a hand's wins (JSON text) that every big win of
    ``family`` matches (``scoring.features.big_hand_codes``): the database's quick
    filter; each candidate is then checked exactly with ``features.is_big_hand``."""
    return '"(' + "|".join(sorted(features.big_hand_codes(family))) + ')"'


def hands_maybe_big(*, session_ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """The played hands of those sessions whose wins may hold a big hand (the quick
    filter of ``big_hand_pattern`` for each hand's family), in the order the nights
    were played, as (session pk, number, booked at, table number, family, wins, pk of
    the reversal that voided it or None)."""
    worksite = Q(ruleset__family="worksite")
    maybe = (worksite & Q(result__wins__regex=big_hand_pattern("worksite"))) | (
        ~worksite & Q(result__wins__regex=big_hand_pattern("nanjing"))
    )
    return list(
        Hand.objects.filter(maybe, session_id__in=session_ids, voids__isnull=True)
        .order_by("session__started_at", "session_id", "number")
        .values_list(
            "session_id",
            "number",
            "created_at",
            "session__table_number",
            "ruleset__family",
            "result__wins",
            "voided_by",
        )
    )


def seat_names(*, session: TableSession) -> dict[str, str]:
    """The session's {wind: name}."""
    return dict(Seat.objects.filter(session=session).values_list("wind", "name"))


def signoff_seats(*, session: TableSession) -> list[tuple[int, str]]:
    """(hand pk, wind) of every confirmation (sign-off) at the session."""
    return list(HandSignoff.objects.filter(hand__session=session).values_list("hand_id", "seat"))


def hands_as_booked(*, session: TableSession) -> list[dict[str, Any]]:
    """Every row of the session's journal in order: its pk (``id``), ``number``,
    ``created_at``, ``record``, ``result`` and the number of the hand it voids
    (``voids__number``, None for a played hand)."""
    return list(
        Hand.objects.filter(session=session)
        .order_by("number")
        .values("id", "number", "created_at", "record", "result", "voids__number")
    )


def seat_totals(*, session: TableSession) -> dict[str, int]:
    """The ledger's sum of each seat of the session, by wind (seats with no line left
    out)."""
    return dict(
        LedgerLine.objects.filter(hand__session=session)
        .order_by()
        .values_list("seat")
        .annotate(t=Sum("points"))
    )
