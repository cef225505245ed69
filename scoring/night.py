"""A night at one table (场), as pure functions: the table's state after each row of
its journal.

A session's journal is a list of rows, each a hand as played or the reversal of one
(a void). After each row the table has a state: who deals next and whether that
hand is doubled (比下胡), how often the deal has passed (so: which 将 and 圈), each
seat's balance, what each seat owes since the last statement (结账) and whether a
statement is due, and on a 进园子 table the current 园子 and its balances.

``after`` steps from one row's state to the next (what a booking stores with its
row); ``replay`` recomputes every row's state from scratch (what a check compares
the stored states with). Both follow one definition:

- the **chain** (dealer, doubling, passes, 园子) comes from the hands that stand
  (played and not voided), in order: East deals the first; each hand's result says
  who deals the next. Where a voided hand broke the chain, the passes count how far
  the deal actually moved, seat by seat (``distance``);
- the **sums** (balances, the unsettled window) are the sums of every row's points,
  reversals included: a reversal negates its hand, so the balances are those of the
  standing hands.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import settle, timing
from .errors import ScoringError
from .record import SEATS


def _zero() -> dict[str, int]:
    return dict.fromkeys(SEATS, 0)


@dataclass(frozen=True)
class Table:
    """What a session fixes for the night: its settlement option (``settle.OPTIONS``),
    its 园子 size (进园子 tables; None on 敞开头) and the 将 it plays (2, or 3 by
    agreement)."""

    settle_every: str = "quan"
    garden_size: int | None = None
    jiang_count: int = 2


@dataclass(frozen=True)
class Row:
    """One row of the journal: its number (from 1, no gaps) and each seat's points in
    it; a hand also names its dealer and what its result says of the next hand, a
    reversal names the number of the hand it ``voids``."""

    number: int
    net: Mapping[str, int]
    dealer: str | None = None
    next_dealer: str | None = None
    next_doubled: bool = False
    garden_over: bool = False
    voids: int | None = None

    @property
    def is_reversal(self) -> bool:
        return self.voids is not None

    @classmethod
    def read(cls, number: int, record: Mapping[str, Any], result: Mapping[str, Any]) -> Row:
        """A journal row from its hand record and ``score``'s result: its points are the
        result's net (a reversal's result holds its hand's net negated and the number
        it ``voids``), the next hand's dealer and doubling are the result's ``next``."""
        nxt = result.get("next") or {}
        return cls(
            number=number,
            net=result.get("net") or {},
            dealer=record.get("dealer"),
            next_dealer=nxt.get("dealer"),
            next_doubled=bool(nxt.get("doubled")),
            garden_over=bool(result.get("garden_over")),
            voids=result.get("voids"),
        )


@dataclass(frozen=True)
class State:
    """The table after row ``number`` (0: before the first)."""

    number: int = 0
    #: who deals the next hand, and whether it is doubled (比下胡)
    dealer: str = "E"
    doubled: bool = False
    #: how often the deal has passed, and how many hands stand
    passes: int = 0
    hands: int = 0
    #: each seat's points over the session
    balances: Mapping[str, int] = field(default_factory=_zero)
    #: each seat's points since the last statement, and whether a statement is due
    unsettled: Mapping[str, int] = field(default_factory=_zero)
    due: bool = False
    #: 进园子: the current 园子 (from 1) and each seat's balance in it
    garden: int | None = None
    garden_left: Mapping[str, int] | None = None

    @property
    def position(self) -> timing.Position:
        """Where the next hand sits in the night."""
        return timing.position(self.passes, self.hands + 1)

    def night_over(self, table: Table) -> bool:
        """The night's 将 are all played (a further 将 only by agreement)."""
        return self.position.jiang > table.jiang_count


def distance(before: str, after: str) -> int:
    """How many seats the deal moved from ``before`` to ``after`` (0 to 3)."""
    return (SEATS.index(after) - SEATS.index(before)) % 4


def start(table: Table) -> State:
    """A table before its first hand: East deals, the first 园子 is full."""
    if table.garden_size is None:
        return State()
    return State(garden=1, garden_left=dict.fromkeys(SEATS, table.garden_size))


def _add(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    return {seat: a.get(seat, 0) + b.get(seat, 0) for seat in SEATS}


def _hand(table: Table, chain: State, hand: Row, in_window: bool) -> State:
    """The chain once a standing ``hand`` is played on ``chain`` (sums untouched)."""
    assert hand.dealer is not None and hand.next_dealer is not None
    passes = chain.passes + distance(chain.dealer, hand.dealer)
    passes_after = passes + distance(hand.dealer, hand.next_dealer)
    closes = settle.settles_after(table.settle_every, passes, passes_after, hand.garden_over)
    garden, left = chain.garden, chain.garden_left
    if table.garden_size is not None and garden is not None and left is not None:
        if hand.garden_over:
            garden, left = garden + 1, dict.fromkeys(SEATS, table.garden_size)
        else:
            left = _add(left, hand.net)
            if min(left.values()) < 0:
                # a later hand's capped payment, once an earlier hand is voided under it
                raise ScoringError(
                    f"hand {hand.number} would take a 园子 balance below zero: "
                    "void the later hands first",
                    zh=f"第 {hand.number} 把会使园子余额低于零：请先作废之后的各把",
                    code="garden_below_zero",
                    params={"number": str(hand.number)},
                )
    return replace(
        chain,
        dealer=hand.next_dealer,
        doubled=hand.next_doubled,
        passes=passes_after,
        hands=chain.hands + 1,
        due=chain.due or (in_window and closes),
        garden=garden,
        garden_left=left,
    )


def chain(table: Table, standing: Sequence[Row], settled_through: int) -> State:
    """The chain of the standing hands, played in order from the start; ``due`` when
    one of them after ``settled_through`` (the last row of the last statement) is a
    point where the table settles."""
    state = start(table)
    for hand in standing:
        state = _hand(table, state, hand, hand.number > settled_through)
    return state


def after(
    table: Table,
    before: State,
    row: Row,
    *,
    settled_through: int,
    standing: Sequence[Row] = (),
) -> State:
    """The state once ``row`` is booked on ``before`` (the state of the row before it).

    ``settled_through``: the last row of the last statement (0 when none); when it is
    ``before``'s row, the unsettled window starts afresh. A reversal rebuilds the
    chain from ``standing``: the hands that still stand once it is booked, in order.
    """
    fresh = settled_through >= before.number
    unsettled = _add({} if fresh else before.unsettled, row.net)
    if row.is_reversal:
        chained = chain(table, standing, settled_through)
    else:
        chained = _hand(table, replace(before, due=before.due and not fresh), row, True)
    return replace(
        chained, number=row.number, balances=_add(before.balances, row.net), unsettled=unsettled
    )


def replay(table: Table, rows: Sequence[Row], statements: Collection[int]) -> list[State]:
    """Every row's state, each computed from scratch from the rows up to it (the
    definition; ``after`` must agree with it). ``statements``: the last row of each
    statement made."""
    out = []
    for i, row in enumerate(rows):
        prefix = rows[: i + 1]
        settled = max((s for s in statements if s < row.number), default=0)
        voided = {r.voids for r in prefix if r.voids is not None}
        standing = [r for r in prefix if not r.is_reversal and r.number not in voided]
        balances: dict[str, int] = _zero()
        unsettled: dict[str, int] = _zero()
        for r in prefix:
            balances = _add(balances, r.net)
            if r.number > settled:
                unsettled = _add(unsettled, r.net)
        out.append(
            replace(
                chain(table, standing, settled),
                number=row.number,
                balances=balances,
                unsettled=unsettled,
            )
        )
    return out
