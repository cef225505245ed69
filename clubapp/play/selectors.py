"""Reads of the play app. Balances and the table's state are computed from the
hands and the ledger lines on each read, never stored."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Max, Q, QuerySet, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404

import scoring
from clubapp.core.models import Room
from clubapp.play.models import (
    SEATS,
    Hand,
    LedgerLine,
    RulesetVersion,
    Seat,
    SettleEvery,
    Settlement,
    TableSession,
)
from scoring import ScoringError
from scoring.nanjing import BIG_HANDS
from scoring.timing import Position, positions, quan_ends, worksite_settlements

#: the latest entries the session page shows in full; the rest are one tap away. The
#: page, the preview and the booking share the state read with them.
RECENT_ENTRIES = 8


def session_list() -> QuerySet[TableSession]:
    """Open tables first, then the newest."""
    return (
        TableSession.objects.select_related("ruleset")
        .prefetch_related("seats")
        .order_by(F("ended_at").desc(nulls_first=True), "-started_at", "-id")
    )


def _marks_sql(alias: str) -> str:
    """The two marks of the session row ``alias`` as SQL columns: its latest entry
    number and its statement count (each the highest ``number``, 0 when none; one
    index probe on (session, number) each)."""
    quote = connection.ops.quote_name
    columns = []
    for model, name in ((Hand, "last_entry"), (Settlement, "last_statement")):
        table = quote(model._meta.db_table)
        session = quote(model._meta.get_field("session").column)
        columns.append(
            f"COALESCE((SELECT MAX(m.{quote('number')}) FROM {table} m"
            f" WHERE m.{session} = {alias}.{quote('id')}), 0) AS {name}"
        )
    return ", ".join(columns)


# The three reads below sit on every table page and every booking: they are written
# as SQL because building the ORM's version of them costs more than running them.


#: the seat columns read with the session (ids, names and winds: no conversions);
#: with the session's id, every field of a seat
_SEAT_COLUMNS = ("id", "wind", "name", "user_id", "visit_id")


def session_get(pk: int, *, seats: bool = True, lock: bool = False) -> TableSession:
    """The session with its ruleset, its marks (``last_entry``, ``last_statement``)
    and its seats (``seat_list``), in one query: a row per seat (``seats=False``: one
    row, the seats are read if asked for). Ruleset versions never change, so the row
    comes from this process's memory after the first read.

    ``lock`` (in a transaction, without seats): the session row stays locked until
    the transaction ends, and its own columns are read as they are once the lock is
    held. Its marks are not: a ``SELECT … FOR UPDATE`` that waited for another
    phone's lock reads the locked row again, but the rest of the statement (the
    marks' subqueries) keeps the snapshot taken before the wait and would miss the
    hand just booked. Read the marks after, with ``session_marks`` (the concurrency
    test fails without that).
    """
    quote = connection.ops.quote_name
    seat_columns = ", ".join(f"s.{quote(c)} AS seat_{c}" for c in _SEAT_COLUMNS)
    sql = (
        f"SELECT t.*, r.{quote('version')} AS ruleset_hash, {_marks_sql('t')}"
        + (f", {seat_columns}" if seats else "")
        + f" FROM {quote(TableSession._meta.db_table)} t"
        f" INNER JOIN {quote(RulesetVersion._meta.db_table)} r"
        f" ON r.{quote('id')} = t.{quote('ruleset_id')}"
        + (
            f" LEFT OUTER JOIN {quote(Seat._meta.db_table)} s"
            f" ON s.{quote('session_id')} = t.{quote('id')}"
            if seats
            else ""
        )
        + f" WHERE t.{quote('id')} = %s"
        + (" FOR UPDATE OF t" if lock and connection.features.has_select_for_update else "")
    )
    rows = list(TableSession.objects.raw(sql, [pk]))
    if not rows:
        raise Http404("No table session matches the given query.")
    session = rows[0]
    session.ruleset = _ruleset_row(session.ruleset_id, session.ruleset_hash)
    if not seats:
        return session
    # Model.from_db takes the values in the order of the model's fields
    attnames = [f.attname for f in Seat._meta.concrete_fields]
    seats = []
    for row in rows:
        if row.seat_id is None:
            continue  # a session without seats: the one row has none
        values = {"session_id": session.pk, **{c: getattr(row, f"seat_{c}") for c in _SEAT_COLUMNS}}
        seat = Seat.from_db(session._state.db, attnames, [values[a] for a in attnames])
        seat.session = session
        seats.append(seat)
    session._seat_list = sorted(seats, key=lambda seat: SEATS.index(seat.wind))
    return session


_RULESET_ROWS: dict[tuple[int, str], RulesetVersion] = {}


def _ruleset_row(pk: int, version: str) -> RulesetVersion:
    # keyed by the version hash too: the same key is the same parameters, even where a
    # test database gives a primary key again
    row = _RULESET_ROWS.get((pk, version))
    if row is None:
        row = RulesetVersion.objects.get(pk=pk)
        _RULESET_ROWS[(row.pk, row.version)] = row
    return row


def ruleset_version_for(token: str) -> RulesetVersion | None:
    """The ruleset version a page named as ``"<id>:<version hash>"`` (the entry page
    carries it from the preview to the confirm), or None when there is no such row."""
    ident, _colon, version = token.partition(":")
    if not ident.isdigit() or not version:
        return None
    try:
        row = _ruleset_row(int(ident), version)
    except RulesetVersion.DoesNotExist:
        return None
    return row if row.version == version else None


def _marks_row(pk: int) -> tuple[Any, ...]:
    quote = connection.ops.quote_name
    sql = (
        f"SELECT t.{quote('ended_at')}, {_marks_sql('t')}"
        f" FROM {quote(TableSession._meta.db_table)} t WHERE t.{quote('id')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    if row is None:
        raise TableSession.DoesNotExist(pk)
    return tuple(row)


def session_marks(session: TableSession) -> tuple[int, int]:
    """(latest entry number, statement count) as the database has them now."""
    _ended_at, last_entry, last_statement = _marks_row(session.pk)
    return last_entry, last_statement


def ruleset_version_list() -> QuerySet[RulesetVersion]:
    return RulesetVersion.objects.order_by("ruleset_id", "-id")


def ruleset_version_get(pk: int) -> RulesetVersion:
    return get_object_or_404(RulesetVersion, pk=pk)


@dataclass
class Entry:
    """One journal entry of a session, with what the pages need of it.

    Every entry carries the few keys the table's state is computed from (its
    dealer, ``next``, whether it closed a 园子); only the entries shown in full
    (``detail``) carry the whole record, result and ledger sums, so a long night
    costs the session page no more than a short one.
    """

    id: int
    number: int
    voids_id: int | None
    dealer: str | None
    next: dict[str, Any] | None
    garden_over: bool
    #: the 园子 balances after the hand (进园子 tables; kept for closing statements)
    left: dict[str, int] | None
    detail: bool = False
    record: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    recorded_by: str = ""
    void_reason: str = ""
    #: the number of the hand this entry reverses, or of the entry that reversed it
    voids_number: int | None = None
    voided_by_number: int | None = None
    #: each seat's points in this entry, summed from its ledger lines (detail only)
    points: dict[str, int] = field(default_factory=dict)
    position: Position | None = None
    garden: int = 0

    @property
    def is_reversal(self) -> bool:
        return self.voids_id is not None

    @property
    def wins(self) -> list[dict[str, Any]]:
        """Each win as seat, discarder (None when self-drawn) and value."""
        records = self.record.get("wins", [])
        return [
            {"seat": w["seat"], "discarder": r.get("discarder"), "value": w["value"]}
            for w, r in zip(self.result.get("wins", []), records, strict=False)
        ]

    @property
    def row(self) -> list[int]:
        """The seats' points in E S W N order."""
        return [self.points.get(seat, 0) for seat in SEATS]

    @property
    def voided(self) -> bool:
        return self.voided_by_number is not None

    @property
    def stands(self) -> bool:
        """A played hand that has not been voided: it counts for the table's state."""
        return not self.is_reversal and not self.voided


@dataclass
class TableState:
    """The table as the booked hands leave it, and what the next hand will be."""

    entries: list[Entry]
    dealer: str
    doubled: bool
    #: where the next hand sits in the night
    position: Position
    #: each seat's total over the session (ledger sums)
    balances: dict[str, int]
    #: 进园子: each seat's balance in the current 园子 (None on 敞开头 tables)
    garden_left: dict[str, int] | None
    garden_number: int
    night_over: bool
    #: the last entry of the last statement, and each seat's net since then
    settled_through: int = 0
    window_net: dict[str, int] = field(default_factory=dict)
    #: the session's statements so far (number, first_entry, last_entry, created_at)
    statements: list[dict[str, Any]] = field(default_factory=list)
    #: the cache key this state is stored under ("" when it is not): pages cache their
    #: rendering of it under the same key
    cache_key: str = ""
    #: how many of the latest entries it holds in full (None: all)
    detail: int | None = 0

    @property
    def last_entry(self) -> int:
        return self.entries[-1].number if self.entries else 0

    @property
    def shown(self) -> list[Entry]:
        """The entries shown in full, newest first."""
        return [e for e in reversed(self.entries) if e.detail]


def _positions(pairs: Sequence[tuple[str, str]]) -> list[Position]:
    """scoring.timing.positions of a night that East opened; where a voided hand
    broke the chain of dealers, the same count taken from how far the deal
    actually moved between the hands that stand."""
    if pairs[0][0] == "E":
        try:
            return positions(pairs)
        except ScoringError:
            pass
    out, changes, before = [], 0, "E"
    for i, (dealer, _following) in enumerate(pairs):
        changes += (SEATS.index(dealer) - SEATS.index(before)) % 4
        before = dealer
        quan = changes // 4
        out.append(Position(quan // 4 + 1, quan % 4 + 1, changes % 4 + 1, i + 1))
    return out


def _sums(lines: QuerySet[LedgerLine]) -> dict[str, int]:
    totals = dict.fromkeys(SEATS, 0)
    for row in lines.values("seat").annotate(total=Sum("points")):
        totals[row["seat"]] = row["total"]
    return totals


def session_entries(session: TableSession, detail: int | None = None) -> list[Entry]:
    """Every entry of the session in order (one query of a few JSON keys each); the
    last ``detail`` entries (all when None) also with their record and result (one
    more query)."""
    rows = (
        Hand.objects.filter(session=session)
        .order_by("number")
        .values_list(
            "id",
            "number",
            "voids_id",
            "record__dealer",
            "result__next",
            "result__garden_over",
            "result__left",
        )
    )
    entries = [
        Entry(
            id=r[0],
            number=r[1],
            voids_id=r[2],
            dealer=r[3],
            next=r[4],
            garden_over=bool(r[5]),
            left=r[6],
        )
        for r in rows
    ]
    by_id = {e.id: e for e in entries}
    for e in entries:
        if e.voids_id is not None and e.voids_id in by_id:
            target = by_id[e.voids_id]
            e.voids_number = target.number
            target.voided_by_number = e.number
    if not entries or detail == 0:
        return entries
    first = entries[0].number if detail is None else max(entries[-1].number - detail + 1, 1)
    last = entries[-1].number
    full = Hand.objects.filter(session=session, number__gte=first, number__lte=last).values(
        "id",
        "record",
        "result",
        "created_at",
        "void_reason",
        "recorded_by__first_name",
        "recorded_by__username",
    )
    for r in full:
        e = by_id.get(r["id"])
        if e is None:
            continue  # booked by another phone since the first query: next read
        e.detail = True
        e.record, e.result = r["record"], r["result"]
        e.created_at, e.void_reason = r["created_at"], r["void_reason"]
        e.recorded_by = r["recorded_by__first_name"] or r["recorded_by__username"] or ""
        # shown per entry: the result's net, which its ledger lines equal by
        # construction (a reversal stores the negated net); balances come from the lines
        e.points = {seat: p for seat, p in (e.result.get("net") or {}).items() if p}
    return entries


def table_state(
    session: TableSession, entries: list[Entry] | None = None, detail: int | None = 0
) -> TableState:
    """The dealer, 比下胡, 将/圈 and balances after the hands standing.

    The first hand is dealt by East (the seat that drew 东). After that each
    standing hand's ``result.next`` gives the next dealer and doubling; a voided
    hand and its reversal are left out, so voiding the last hand gives the table
    back its state before it. Balances are sums of ledger lines, by query.
    ``detail``: how many of the latest entries to load in full (None: all).
    """
    if entries is None:
        entries = session_entries(session, detail=detail)
    _numbers, _closed, start = _gardens(entries)
    statements = list(
        session.settlements.order_by("number").values(
            "number", "first_entry", "last_entry", "created_at"
        )
    )
    settled = statements[-1]["last_entry"] if statements else 0
    # One query for every sum the page shows, per seat: the session's balance, the
    # window since the last statement, and the current 园子 (entries after the hand
    # that closed the last one, less reversals of hands of an earlier 园子).
    lines = LedgerLine.objects.filter(hand__session=session)
    if entries:
        lines = lines.filter(hand__number__lte=entries[-1].number)
    earlier = Q(hand__voids__isnull=False, hand__voids__number__lte=start)
    sums = lines.values("seat").annotate(
        total=Sum("points"),
        window=Sum("points", filter=Q(hand__number__gt=settled)),
        garden=Sum("points", filter=Q(hand__number__gt=start) & ~earlier),
    )
    balances, window, in_garden = (dict.fromkeys(SEATS, 0) for _ in range(3))
    for row in sums:
        balances[row["seat"]] = row["total"]
        window[row["seat"]] = row["window"] or 0
        in_garden[row["seat"]] = row["garden"] or 0
    return _state(session, entries, statements, balances, window, in_garden, detail)


def _gardens(entries: list[Entry]) -> tuple[list[int], int, int]:
    """Each entry's 园子, from 0 (a reversal takes its hand's); then how many 园子 have
    closed, and the number of the entry that closed the last one (0 when none)."""
    garden_of: dict[int, int] = {}
    numbers = []
    garden = 0
    start = 0
    for e in entries:
        number = garden_of.get(e.voids_id, garden) if e.voids_id is not None else garden
        garden_of[e.id] = number
        numbers.append(number)
        if e.stands and e.garden_over:
            garden += 1
            start = e.number
    return numbers, garden, start


def _state(
    session: TableSession,
    entries: list[Entry],
    statements: list[dict[str, Any]],
    balances: dict[str, int],
    window: dict[str, int],
    in_garden: dict[str, int],
    detail: int | None,
    *,
    shared: bool = False,
) -> TableState:
    """The state of the entries and the sums (read, or carried forward by
    ``table_state_after``): who deals, the doubling, where each hand sat.

    Each entry is given its place in the night and its 园子; ``shared`` entries
    (those of a state carried from, which others may be reading) are copied
    before anything of theirs changes, and only then."""
    standing = [e for e in entries if e.stands]
    if standing and standing[-1].next:
        nxt = standing[-1].next
        dealer, doubled = nxt["dealer"], bool(nxt.get("doubled", False))
    else:
        dealer, doubled = "E", False
    pairs = [(str(e.dealer), str((e.next or {}).get("dealer"))) for e in standing]
    found = _positions([*pairs, (dealer, dealer)])
    place = {e.id: position for e, position in zip(standing, found, strict=False)}
    numbers, garden, _start = _gardens(entries)
    placed = []
    for e, number in zip(entries, numbers, strict=True):
        position = place.get(e.id, e.position)
        if e.position != position or e.garden != number:
            if shared:
                e = _copy(e)
            e.position, e.garden = position, number
        placed.append(e)
    entries = placed
    garden_left = None
    if session.garden_size:
        garden_left = {seat: session.garden_size + in_garden[seat] for seat in SEATS}
    current = found[-1]
    return TableState(
        entries=entries,
        dealer=dealer,
        doubled=doubled,
        position=current,
        balances=balances,
        garden_left=garden_left,
        garden_number=garden + 1,
        night_over=current.jiang > session.jiang_count,
        settled_through=statements[-1]["last_entry"] if statements else 0,
        window_net=window,
        statements=statements,
        detail=detail,
    )


def table_state_after(
    session: TableSession, before: TableState, hand: Hand, result: dict[str, Any]
) -> TableState:
    """The state once ``hand`` (a played hand, just booked on ``before``) is in: the
    state ``table_state`` reads after the commit, carried forward without reading.

    The new hand's net is what its ledger lines sum to (they are written from its
    payments), so balances and the window since the last statement move by it;
    the 园子 sums restart when the hand closed a 园子. A test books long nights and
    compares this with a fresh read after every hand.
    """
    net = dict.fromkeys(SEATS, 0)
    for seat, points in (result.get("net") or {}).items():
        net[seat] += int(points)
    entry = Entry(
        id=hand.pk,
        number=hand.number,
        voids_id=None,
        dealer=hand.record.get("dealer"),
        next=result.get("next"),
        garden_over=bool(result.get("garden_over")),
        left=result.get("left"),
    )
    first = 1
    if before.detail is not None:
        first = max(hand.number - before.detail + 1, 1) if before.detail else hand.number + 1
    if hand.number >= first:
        recorder = hand.recorded_by
        entry.detail = True
        entry.record, entry.result = hand.record, hand.result
        entry.created_at, entry.void_reason = hand.created_at, ""
        entry.recorded_by = (recorder.first_name or recorder.username) if recorder else ""
        entry.points = {seat: points for seat, points in net.items() if points}
    entries = [e if e.number >= first or not e.detail else _in_short(e) for e in before.entries]
    in_garden = dict.fromkeys(SEATS, 0)
    if before.garden_left is not None and not entry.garden_over:
        size = session.garden_size or 0
        in_garden = {seat: before.garden_left[seat] - size + net[seat] for seat in SEATS}
    return _state(
        session,
        [*entries, entry],
        list(before.statements),
        {seat: before.balances[seat] + net[seat] for seat in SEATS},
        {seat: before.window_net.get(seat, 0) + net[seat] for seat in SEATS},
        in_garden,
        before.detail,
        shared=True,
    )


def _copy(e: Entry) -> Entry:
    """A shallow copy (``_state`` sets each entry's position and 园子 on its own
    copies: the state carried from is shared, and stays as it was)."""
    new = Entry.__new__(Entry)
    new.__dict__.update(e.__dict__)
    return new


def _in_short(e: Entry) -> Entry:
    """An entry no longer among the latest shown in full: its few keys only."""
    return Entry(
        id=e.id,
        number=e.number,
        voids_id=e.voids_id,
        dealer=e.dealer,
        next=e.next,
        garden_over=e.garden_over,
        left=e.left,
        voids_number=e.voids_number,
        voided_by_number=e.voided_by_number,
    )


def fewest_transfers(net: dict[str, int]) -> list[dict[str, Any]]:
    """Who pays whom how much to settle ``net`` (seat → points, summing to zero).

    Seats whose amounts cancel exactly are paired first; then the largest debtor
    pays the largest creditor, again and again. That needs at most n − 1
    transfers, and for the four seats of a table it is the fewest possible: four
    seats settle in two transfers only when they split into two pairs that
    cancel, and those pairs are found first.
    """
    debit = {seat: -points for seat, points in net.items() if points < 0}
    credit = {seat: points for seat, points in net.items() if points > 0}
    out = []
    for debtor in sorted(debit, key=SEATS.index):
        for creditor in sorted(credit, key=SEATS.index):
            if debit[debtor] and debit[debtor] == credit[creditor]:
                out.append({"from": debtor, "to": creditor, "amount": debit[debtor]})
                debit[debtor] = credit[creditor] = 0
                break
    while any(debit.values()):
        debtor = max(debit, key=lambda s: (debit[s], -SEATS.index(s)))
        creditor = max(credit, key=lambda s: (credit[s], -SEATS.index(s)))
        amount = min(debit[debtor], credit[creditor])
        out.append({"from": debtor, "to": creditor, "amount": amount})
        debit[debtor] -= amount
        credit[creditor] -= amount
    return out


def settlement_points(session: TableSession, state: TableState) -> list[Entry]:
    """The standing hands after which the table settles, per the session's option.

    每把 every hand; 每圈 the hands that close a 圈 (``timing.quan_ends``); 每将 the
    hands that close a 将; worksite timing (``timing.worksite_settlements``);
    per 园子 the hands that close a 园子; at the end of the session none (the
    statement is made when the session ends).
    """
    standing = [e for e in state.entries if e.stands]
    if not standing:
        return []
    rule = session.settle_every
    if rule == SettleEvery.HAND:
        return standing
    if rule == SettleEvery.GARDEN:
        return [e for e in standing if e.garden_over]
    if rule == SettleEvery.SESSION:
        return []
    pairs = [(str(e.dealer), str((e.next or {}).get("dealer"))) for e in standing]
    try:
        if rule == SettleEvery.WORKSITE:
            marks = worksite_settlements(pairs)
        else:
            marks = quan_ends(pairs)
    except ScoringError:
        # a voided hand broke the chain of dealers: count where the 圈 turned over instead
        after = [*standing[1:], None]
        marks = [
            nxt is not None
            and nxt.position is not None
            and e.position is not None
            and (nxt.position.jiang, nxt.position.quan) != (e.position.jiang, e.position.quan)
            for e, nxt in zip(standing, after, strict=True)
        ]
    if rule == SettleEvery.JIANG:
        return [
            e
            for e, mark in zip(standing, marks, strict=True)
            if mark and e.position is not None and e.position.quan == 4
        ]
    return [e for e, mark in zip(standing, marks, strict=True) if mark]


@dataclass
class SettlementView:
    """What the table owes since its last statement, and whether it is due."""

    first_entry: int
    last_entry: int
    net: dict[str, int]
    transfers: list[dict[str, Any]]
    due: bool


def settlement_pending(session: TableSession, state: TableState) -> SettlementView | None:
    """The window since the last statement (None when there is nothing to settle).

    Due when a settlement point of the session's option lies in the window, or
    when the session has ended. The nets are ledger sums over the window.
    """
    window = [e for e in state.entries if e.number > state.settled_through]
    if not window:
        return None
    net = dict(state.window_net)
    points = {e.number for e in settlement_points(session, state)}
    due = session.ended_at is not None or any(e.number in points for e in window)
    return SettlementView(
        first_entry=window[0].number,
        last_entry=window[-1].number,
        net=net,
        transfers=fewest_transfers(net),
        due=due,
    )


def settlement_get(session: TableSession, number: int) -> Settlement:
    return get_object_or_404(Settlement, session=session, number=number)


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


def _big_hand(family: str, features: Sequence[str]) -> bool:
    if family == "worksite":
        return bool(set(features) - {"menqianqing"})
    return bool(set(features) & BIG_HANDS)


def member_stats(user: Any) -> MemberStats:
    """Points over time (one row per session), wins, self-draws, deal-ins, big hands,
    and the average win and deal-in, from the standing hands (three queries)."""
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("session__ruleset")
        .order_by("session__started_at", "session_id")
    )
    wind_of = {seat.session_id: seat.wind for seat in seats}
    hands = (
        Hand.objects.filter(session_id__in=wind_of)
        .order_by("session_id", "number")
        .values("id", "session_id", "record", "result", "voids_id")
    )
    voided = set()
    rows = list(hands)
    for row in rows:
        if row["voids_id"] is not None:
            voided.add(row["voids_id"])
    totals: dict[int, int] = {}
    sums = (
        LedgerLine.objects.filter(hand__session_id__in=wind_of)
        .values("hand__session_id", "seat")
        .annotate(total=Sum("points"))
    )
    for row in sums:
        if wind_of.get(row["hand__session_id"]) == row["seat"]:
            totals[row["hand__session_id"]] = row["total"]
    stats = MemberStats(sessions=[])
    family = {seat.session_id: seat.session.ruleset.family for seat in seats}
    for row in rows:
        if row["voids_id"] is not None or row["id"] in voided:
            continue
        wind = wind_of[row["session_id"]]
        stats.hands += 1
        records = row["record"].get("wins", [])
        for win, rec in zip(row["result"].get("wins", []), records, strict=False):
            if win["seat"] == wind:
                stats.wins += 1
                stats.self_draws += rec.get("discarder") is None
                stats.win_total += win["value"]
                stats.big_hands += _big_hand(family[row["session_id"]], win["features"])
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


def hand_compare(hand: Hand) -> list[dict[str, Any]]:
    """The hand scored under the newest version of every stored ruleset, side by side
    (the one it was booked under first, as booked).

    Table state that a family cannot take is left out for it: a 工地 table never
    doubles and has no 园子; 南京 has no 诈糊/相公. The 园子 cap is left out for every
    other ruleset too, so the values compare the hands themselves. A ruleset that
    refuses the hand shows why, in Chinese.
    """
    rows: list[dict[str, Any]] = [
        {"name": hand.ruleset.name, "version": hand.ruleset.version, "result": hand.result,
         "own": True}
    ]  # fmt: skip
    newest = RulesetVersion.objects.values("ruleset_id").annotate(last=Max("id"))
    versions = RulesetVersion.objects.filter(id__in=[r["last"] for r in newest]).exclude(
        pk=hand.ruleset_id
    )
    for version in versions.order_by("ruleset_id"):
        record = {k: v for k, v in hand.record.items() if k != "garden"}
        record["ruleset"] = version.ruleset_id
        if version.family == "worksite":
            record.pop("doubled", None)
        else:
            for key in ("false_wins", "dead_hands"):
                if not record.get(key):
                    record.pop(key, None)
        row: dict[str, Any] = {"name": version.name, "version": version.version, "own": False}
        try:
            row["result"] = scoring.score(record, ruleset=version.as_ruleset())
        except ScoringError as exc:
            row["error"] = exc.zh
        rows.append(row)
    for row in rows:
        if "result" in row:
            row["net_row"] = [row["result"]["net"].get(seat, 0) for seat in SEATS]
    return rows


def hand_get(session: TableSession, number: int) -> Hand:
    return get_object_or_404(
        Hand.objects.select_related("voids", "recorded_by", "ruleset"),
        session=session,
        number=number,
    )


def table_state_cached(
    session: TableSession,
    detail: int | None = RECENT_ENTRIES,
    marks: tuple[int, int] | None = None,
) -> TableState:
    """table_state, kept in the cache under what determines it.

    Hands, reversals and statements are append-only, so a session's state is a pure
    function of its latest entry number, its statement count and its own fields: a
    key made of them can never go stale (a void or a statement is a new row, hence a
    new key). ``marks`` default to the annotations of ``session_get``. A state is
    stored only when it was read at exactly those marks (another phone may have
    booked meanwhile).

    Two levels: this process keeps the latest states as objects (a pickled state of
    a long night costs a millisecond to load), the cache shares them between
    processes. States are never changed once made, so sharing the object is safe.
    """
    if marks is None:
        last = getattr(session, "last_entry", None)
        statements = getattr(session, "last_statement", None)
        if last is None or statements is None:
            return table_state(session, detail=detail)
        marks = (last, statements)
    key = _state_key(session, marks, detail)
    state = _recent.get(key)
    if state is not None:
        return state
    state = cache.get(key)
    if state is None:
        state = table_state(session, detail=detail)
        if (state.last_entry, len(state.statements)) != tuple(marks):
            return state
        state.cache_key = key
        cache.set(key, state, 6 * 3600)
    _recent.put(key, state)
    return state


def _state_key(session: TableSession, marks: tuple[int, int], detail: int | None) -> str:
    return "play:state:" + ":".join(
        str(part)
        for part in (
            session.pk,
            session.started_at.timestamp(),
            *marks,
            detail,
            session.mode,
            session.garden_size,
            session.end_when_out,
            session.settle_every,
            session.jiang_count,
            # a timestamp, not the date's text: a cache key has no spaces (memcached)
            session.ended_at.timestamp() if session.ended_at else None,
        )
    )


def table_state_carry(
    session: TableSession,
    marks: tuple[int, int],
    before: TableState,
    hand: Hand,
    result: dict[str, Any],
) -> None:
    """After booking ``hand`` on the table at ``marks``: carry the state it was booked
    on (``before``: the one the page, the preview and the booking share) forward to
    the new marks, once the transaction has committed. The recorder's page after the
    booking then has its state without reading the night again."""
    after = table_state_after(session, before, hand, result)
    after.cache_key = _state_key(session, (hand.number, marks[1]), before.detail)
    transaction.on_commit(lambda: _recent.put(after.cache_key, after))


class _Recent:
    """The last ``size`` table states of this process, by cache key (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._states: OrderedDict[str, TableState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> TableState | None:
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
            return state

    def put(self, key: str, state: TableState) -> None:
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


#: two states per open table (the page's and the booking's) for a large room
_recent = _Recent(size=128)


def table_states_forget() -> None:
    """Drop the states this process holds (the tests' cold start; the shared cache
    is cleared on its own)."""
    _recent.clear()


def tables_in_play(*, room: Room) -> QuerySet[TableSession]:
    """The table numbers of the room's open sessions (no end yet), for the desk's
    free tables (members.selectors.tables_free)."""
    return TableSession.objects.filter(room=room, ended_at__isnull=True).values("table_number")
