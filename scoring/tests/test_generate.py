"""The random hand generator: legal records from a real wall, the same for the same seed."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from scoring import ScoringError, score
from scoring.generate import (
    FLOWER_WALL,
    PLAYING,
    SEATS,
    mpsz,
    random_hand,
    random_hands,
)
from scoring.tiles import FLOWER_SETS, flower_sets

RULESETS = ("nanjing", "nanjing-classic")
FLOWER_COPIES = Counter(FLOWER_WALL)


def _codes(text: str) -> list[str]:
    """Split MPSZ without the engine (``"12m5p"`` → ``["1m", "2m", "5p"]``)."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    assert digits == "", text
    return out


@pytest.fixture(scope="module")
def hands() -> list[dict[str, Any]]:
    return random_hands(2026, 3000)


def test_it_is_deterministic_by_seed() -> None:
    assert random_hands(7, 200) == random_hands(7, 200)
    assert random_hands(7, 200) != random_hands(8, 200)
    assert random_hand(random.Random(99)) == random_hand(random.Random(99))


def test_it_makes_json_records(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        assert json.loads(json.dumps(hand)) == hand
        assert hand["format"] == "mahjong-hand/1"
        assert hand["ruleset"] == "nanjing"
        assert hand["dealer"] in SEATS
        assert hand["false_wins"] == hand["dead_hands"] == []


def test_it_never_exceeds_the_copies_of_a_kind(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        playing: Counter[str] = Counter()
        flowers: Counter[str] = Counter()
        for win in hand["wins"]:
            playing.update(_codes(win["concealed"]))
            for meld in win["melds"]:
                playing[meld["tile"]] += 4 if meld["type"] == "kong" else 3
            flowers.update(_codes(win["flowers"]))
        if len(hand["wins"]) > 1:
            # one discard won by several: the same tile, counted once
            playing[hand["wins"][0]["winning_tile"]] -= len(hand["wins"]) - 1
        assert set(playing) <= set(PLAYING), hand
        assert max(playing.values(), default=0) <= 4, hand
        assert all(flowers[code] <= FLOWER_COPIES[code] for code in flowers), hand


def test_several_winners_share_the_discard(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        wins = hand["wins"]
        assert len({win["seat"] for win in wins}) == len(wins)
        if len(wins) > 1:
            assert len({win["discarder"] for win in wins}) == 1
            assert len({win["winning_tile"] for win in wins}) == 1
            assert wins[0]["discarder"] not in [win["seat"] for win in wins]


def test_it_counts_the_concealed_tiles(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        for win in hand["wins"]:
            assert len(_codes(win["concealed"])) == 14 - 3 * len(win["melds"])
            assert win["winning_tile"] in _codes(win["concealed"])


def test_it_keeps_the_seats_apart(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        for win in hand["wins"]:
            seat = win["seat"]
            assert win["discarder"] != seat
            assert win["liable"] != seat
            for meld in win["melds"]:
                assert meld["from"] != seat
                assert meld["type"] == "kong" or meld["from"] is not None
                assert not meld["upgraded"] or meld["from"] is not None
        for kong in hand["kongs"]:
            assert kong["from"] != kong["seat"]
            assert (kong["from"] is None) == (kong["type"] in ("concealed", "flower"))
        for penalty in hand["penalties"]:
            assert penalty["type"] in ("follow", "four_discards")
            assert penalty["seat"] in SEATS


def test_it_records_every_kong_of_the_winner(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        for win in hand["wins"]:
            seat = win["seat"]
            wanted: Counter[tuple[str, str | None]] = Counter()
            for meld in win["melds"]:
                if meld["type"] == "kong":
                    if meld["from"] is None:
                        kind = "concealed"
                    else:
                        kind = "upgraded" if meld["upgraded"] else "exposed"
                    wanted[kind, meld["from"]] += 1
            wanted["flower", None] += flower_sets(_codes(win["flowers"]))
            got = Counter((k["type"], k["from"]) for k in hand["kongs"] if k["seat"] == seat)
            assert +got == +wanted, hand


def test_it_gives_flowers_to_hands_that_need_them(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        for win in hand["wins"]:
            flowers = _codes(win["flowers"])
            assert len(flowers) <= 10
            assert not set(flowers) & set(_codes(win["concealed"]))
            if win["melds"]:
                assert len(flowers) >= 4, win


def test_it_sets_flags_only_where_they_hold(hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        for win in hand["wins"]:
            if "after_flower" in win["flags"]:
                assert win["discarder"] is None and win["flowers"]
            if "after_kong" in win["flags"]:
                assert win["discarder"] is None
                assert win["melds"][-1]["type"] == "kong"
            if win["liable"] is not None:
                assert "after_kong" in win["flags"]
                assert win["liable"] == win["melds"][-1]["from"]


def test_it_deals_a_variety(hands: list[dict[str, Any]]) -> None:
    seen: Counter[str] = Counter()
    for hand in hands:
        seen["doubled"] += hand["doubled"]
        seen["penalty"] += bool(hand["penalties"])
        seen["two winners"] += len(hand["wins"]) == 2
        seen["other kong"] += any(
            k["seat"] not in [w["seat"] for w in hand["wins"]] for k in hand["kongs"]
        )
        if not hand["wins"]:
            seen["drawn"] += 1
            continue
        win = hand["wins"][0]
        tiles = _codes(win["concealed"])
        counts = Counter(tiles)
        seen[f"melds {len(win['melds'])}"] += 1
        seen["self-drawn" if win["discarder"] is None else "discard"] += 1
        seen[f"flowers {min(len(_codes(win['flowers'])), 4)}"] += 1
        seen["flower kong"] += flower_sets(_codes(win["flowers"])) > 0
        seen["unsorted"] += win["concealed"] != mpsz(tiles)
        seen["liable"] += win["liable"] is not None
        for flag in win["flags"]:
            seen[flag] += 1
        for meld in win["melds"]:
            kind = "pong" if meld["type"] == "pong" else "kong"
            if meld["type"] == "kong":
                kind = "upgraded" if meld["upgraded"] else ("exposed" if meld["from"] else "hidden")
            seen[kind] += 1
            seen["wind set"] += meld["tile"].endswith("z")
        if not win["melds"] and all(n % 2 == 0 for n in counts.values()):
            seen["seven pairs"] += 1
            seen["seven pairs with four"] += 4 in counts.values()
        every = [*tiles, *(m["tile"] for m in win["melds"])]
        suits = {code[1] for code in every}
        if len(suits - {"z"}) == 1:
            seen["one suit" if "z" not in suits else "one suit and winds"] += 1
    wanted = [
        "doubled", "penalty", "two winners", "other kong", "drawn", "melds 0", "melds 1", "melds 2",
        "melds 3", "melds 4", "self-drawn", "discard", "flowers 0", "flowers 4",
        "flower kong", "unsorted", "liable", "after_flower", "after_kong", "pong",
        "upgraded", "exposed", "hidden", "wind set", "seven pairs",
        "seven pairs with four", "one suit", "one suit and winds",
    ]  # fmt: skip
    assert [name for name in wanted if seen[name] == 0] == []
    # about 15 % of the winners are dealt one suit, with or without winds
    winners = len(hands) - seen["drawn"]
    assert 0.10 < (seen["one suit"] + seen["one suit and winds"]) / winners < 0.25
    assert 0.02 < seen["drawn"] / len(hands) < 0.08


def test_it_deals_the_worksite_with_five_flowers() -> None:
    for hand in random_hands(5, 500, "jiangsu-worksite"):
        assert hand["ruleset"] == "jiangsu-worksite"
        assert hand["doubled"] is False
        for win in hand["wins"]:
            assert len(_codes(win["flowers"])) >= 5
            assert win["liable"] is None


def test_it_writes_mpsz() -> None:
    assert mpsz(["5p", "1m", "2m", "6z", "1f", "1z"]) == "12m5p16z1f"
    assert mpsz(["5p", "1m", "2m"], keep_order=True) == "5p12m"
    assert mpsz([]) == ""


def test_it_knows_the_flower_sets() -> None:
    assert len(FLOWER_WALL) == 20
    assert flower_sets(["5z", "5z", "5z", "5z", "1f", "2f", "3f", "4f"]) == 2
    assert flower_sets(["5z", "5z", "5z", "1f", "2f", "3f"]) == 0
    assert sum(len(group) for group in FLOWER_SETS) == 20


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_generated_hand_scores(ruleset: str) -> None:
    refused = []
    for hand in random_hands(11, 2000, ruleset):
        try:
            score(hand)
        except ScoringError as err:
            refused.append((str(err), hand))
    assert refused[:3] == []


def test_every_generated_worksite_hand_scores() -> None:
    hands = random_hands(12, 1000, "jiangsu-worksite")
    refused = []
    for hand in hands:
        try:
            score(hand)
        except ScoringError as err:
            refused.append((str(err), hand))
    assert refused[:3] == []
