"""Impossible to fool: any mangled record is either scored (and balances) or refused
with a ScoringError — never another exception."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError, score
from scoring.engine import compare
from scoring.generate import random_hand

VALUES: list[Any] = [
    None, True, 0, 1, -1, 3, 99, 1.5, "", "E", "X", "5p", "1m1m1m1m1m", "7z", "0m", "9f",
    "kong", "pong", "flower", [], [None], ["after_kong"], {}, {"seat": "S"}, "mahjong-hand/1",
]  # fmt: skip


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*path, i))
    return out


def _mangle(hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    hand = copy.deepcopy(hand)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(hand)[1:])
        parent: Any = hand
        for step in path[:-1]:
            parent = parent[step]
        action = rng.random()
        if action < 0.2 and isinstance(parent, dict):
            del parent[path[-1]]
        elif action < 0.3 and isinstance(parent, dict):
            key = rng.choice(["extra", "tile", "seat", "from", "passed", "features"])
            parent[key] = copy.deepcopy(rng.choice(VALUES))
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(VALUES))
    return hand


@settings(max_examples=400, deadline=None)
@given(st.integers(), st.sampled_from(["nanjing", "nanjing-classic", "jiangsu-worksite"]))
def test_a_mangled_record_is_scored_or_refused(seed: int, ruleset: str) -> None:
    rng = random.Random(seed)
    hand = _mangle(random_hand(rng, ruleset), rng)
    try:
        result = score(hand)
    except ScoringError as err:
        assert str(err) and err.zh
        return
    assert sum(result["net"].values()) == 0


@settings(max_examples=50, deadline=None)
@given(st.integers())
def test_compare_never_breaks_on_a_mangled_record(seed: int) -> None:
    rng = random.Random(seed)
    hand = _mangle(random_hand(rng, "nanjing"), rng)
    try:
        rows = compare(hand)
    except ScoringError:
        return
    assert len(rows) == 3
