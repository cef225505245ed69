"""结账: when a table settles, and the fewest transfers that settle it."""

from __future__ import annotations

import pytest

from scoring.settle import fewest_transfers, settles_after


@pytest.mark.parametrize(
    ("net", "count"),
    [
        ({"E": 10, "S": -10, "W": 5, "N": -5}, 2),
        ({"E": 7, "S": 3, "W": -6, "N": -4}, 3),
        ({"E": 30, "S": -10, "W": -10, "N": -10}, 3),
        ({"E": 0, "S": 0, "W": 0, "N": 0}, 0),
        ({"E": 6, "S": -6, "W": 0, "N": 0}, 1),
        ({"E": 5, "S": 5, "W": -6, "N": -4}, 3),
    ],
)
def test_it_settles_with_the_fewest_transfers(net: dict[str, int], count: int) -> None:
    transfers = fewest_transfers(net)
    assert len(transfers) == count
    settled = dict(net)
    for t in transfers:
        assert t["amount"] > 0
        settled[t["from"]] += t["amount"]
        settled[t["to"]] -= t["amount"]
    assert set(settled.values()) <= {0}


def test_cancelling_pairs_are_paired_first_in_seat_order() -> None:
    assert fewest_transfers({"E": -5, "S": 5, "W": -7, "N": 7}) == [
        {"from": "E", "to": "S", "amount": 5},
        {"from": "W", "to": "N", "amount": 7},
    ]


@pytest.mark.parametrize(
    ("option", "before", "after", "garden_over", "settles"),
    [
        ("hand", 0, 0, False, True),
        ("session", 3, 4, True, False),
        ("quan", 2, 3, False, False),
        ("quan", 3, 4, False, True),
        ("quan", 4, 4, False, False),  # the dealer stays: the 圈 goes on
        ("quan", 3, 6, False, True),  # a void broke the chain: the deal jumped past a 圈
        ("jiang", 11, 12, False, False),
        ("jiang", 15, 16, False, True),
        ("worksite", 2, 3, False, False),  # the first 圈 settles together
        ("worksite", 3, 4, False, True),
        ("worksite", 4, 4, False, False),  # the dealer stays on: wait
        ("worksite", 4, 5, False, True),
        ("garden", 5, 6, False, False),
        ("garden", 5, 5, True, True),
    ],
)
def test_when_a_table_settles(
    option: str, before: int, after: int, garden_over: bool, settles: bool
) -> None:
    assert settles_after(option, before, after, garden_over) is settles
