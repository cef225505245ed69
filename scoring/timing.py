"""The night's structure and when to settle (结账), as pure functions.

A 圈 is four changes of dealer (the deal goes once round the table), a 将 four
圈, a night two 将 (a third by agreement). Hands are given by their dealer and
the dealer of the hand after them (a result's ``next.dealer``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import settle
from .errors import ScoringError
from .record import SEATS, next_seat

QUAN_PER_JIANG = 4


@dataclass(frozen=True)
class Position:
    """Where a hand sits in the night (all numbers from 1)."""

    jiang: int
    quan: int
    #: the dealer's turn within the 圈: 1 for the first dealer of the 圈 … 4
    turn: int
    #: the hand's number in the night
    hand: int


def _changes(hands: Sequence[tuple[str, str]]) -> list[int]:
    """For each hand, how many times the deal had passed before it; checks the seats."""
    out = []
    changes = 0
    for i, (dealer, following) in enumerate(hands):
        if dealer not in SEATS or following not in SEATS:
            raise ScoringError(
                "unknown seat", field=f"hands[{i}]", zh="座位无效", code="deal_unknown_seat"
            )
        if following not in (dealer, next_seat(dealer)):
            raise ScoringError(
                f"the deal stays with {dealer} or passes to {next_seat(dealer)}, "
                f"not to {following}",
                field=f"hands[{i}]",
                zh="庄家只能连庄或传给下家",
                code="deal_passes",
                params={"dealer": dealer, "next": next_seat(dealer), "following": following},
            )
        if i and hands[i - 1][1] != dealer:
            raise ScoringError(
                f"hand {i + 1} is dealt by {dealer}, but the hand before passed the deal to "
                f"{hands[i - 1][1]}",
                field=f"hands[{i}]",
                zh="庄家与上一把的结果不符",
                code="deal_mismatch",
                params={"hand": str(i + 1), "dealer": dealer, "passed": hands[i - 1][1]},
            )
        out.append(changes)
        changes += following != dealer
    return out


def position(passes: int, hand: int) -> Position:
    """Where the ``hand``-th hand of the night sits once the deal has passed ``passes``
    times before it."""
    quan_index = passes // 4
    return Position(
        jiang=quan_index // QUAN_PER_JIANG + 1,
        quan=quan_index % QUAN_PER_JIANG + 1,
        turn=passes % 4 + 1,
        hand=hand,
    )


def positions(hands: Sequence[tuple[str, str]]) -> list[Position]:
    """The 将, 圈 and dealer's turn of every hand of a night."""
    return [position(changes, n) for n, changes in enumerate(_changes(hands), start=1)]


def worksite_settlements(hands: Sequence[tuple[str, str]]) -> list[bool]:
    """江苏工地麻将 结账: for each hand, whether the table settles after it.

    The hands of the first 圈 of the first 将 settle together when that 圈 ends;
    after that each hand settles when it ends, except that while a dealer stays on,
    settlement waits until the dealer changes. A settlement covers every hand since
    the one before.
    """
    return _settles("worksite", hands)


def quan_ends(hands: Sequence[tuple[str, str]]) -> list[bool]:
    """For each hand, whether a 圈 ends with it (南京 tables settle per 圈 by default)."""
    return _settles("quan", hands)


def _settles(option: str, hands: Sequence[tuple[str, str]]) -> list[bool]:
    return [
        settle.settles_after(option, before, before + (following != dealer), False)
        for (dealer, following), before in zip(hands, _changes(hands), strict=True)
    ]
