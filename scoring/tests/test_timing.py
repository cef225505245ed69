"""The night's structure (圈, 将) and the worksite's settlement timing (结账)."""

from __future__ import annotations

import pytest

from scoring import ScoringError
from scoring.timing import positions, quan_ends, worksite_settlements

ROUND = [("E", "S"), ("S", "W"), ("W", "N"), ("N", "E")]


def test_positions_count_quan_and_jiang_by_dealer_changes() -> None:
    hands = ROUND * 5
    places = positions(hands)
    assert [(p.jiang, p.quan, p.turn) for p in places[:5]] == [
        (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4), (1, 2, 1),
    ]  # fmt: skip
    assert (places[16].jiang, places[16].quan) == (2, 1)  # the fifth 圈 opens the second 将
    assert places[-1].hand == 20


def test_a_dealer_staying_on_stays_in_the_same_turn() -> None:
    places = positions([("E", "E"), ("E", "E"), ("E", "S"), ("S", "W")])
    assert [p.turn for p in places] == [1, 1, 1, 2]


def test_worksite_first_quan_settles_at_its_end_only() -> None:
    # the first 圈 with the dealer staying once: nothing settles until N passes the deal
    hands = [("E", "E"), ("E", "S"), ("S", "W"), ("W", "N"), ("N", "E")]
    assert worksite_settlements(hands) == [False, False, False, False, True]


def test_worksite_later_hands_settle_each_but_not_while_the_dealer_stays() -> None:
    hands = ROUND + [("E", "E"), ("E", "E"), ("E", "S"), ("S", "W")]
    assert worksite_settlements(hands)[4:] == [False, False, True, True]


def test_a_first_quan_dealer_staying_on_at_its_end_waits() -> None:
    hands = [("E", "S"), ("S", "W"), ("W", "N"), ("N", "N"), ("N", "E"), ("E", "E")]
    assert worksite_settlements(hands) == [False, False, False, False, True, False]


def test_quan_ends() -> None:
    hands = ROUND + [("E", "E")] + ROUND
    assert quan_ends(hands) == [False, False, False, True, False, False, False, False, True]


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([("E", "W")], "passes to S"),
        ([("E", "S"), ("W", "N")], "passed the deal to S"),
        ([("X", "S")], "unknown seat"),
    ],
)
def test_a_sequence_that_cannot_happen_is_refused(
    hands: list[tuple[str, str]], message: str
) -> None:
    with pytest.raises(ScoringError, match=message):
        positions(hands)
