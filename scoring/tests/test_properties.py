"""Properties of ``score`` and ``analyze`` over random legal hands (hypothesis).

Hypothesis draws only the seed; ``scoring.generate`` deals the hand from a real
wall with ``random.Random(seed)``, so a failing example shrinks to one seed and
replays as ``random_hand(random.Random(seed), ruleset)``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring import analyze, score
from scoring.generate import FLOWER_WALL, random_hand
from scoring.tiles import flower_sets, parse

RULESETS = ("nanjing", "nanjing-classic", "jiangsu-worksite")
PROPERTY = settings(max_examples=200, deadline=None)

seeds = st.integers()
rulesets = st.sampled_from(RULESETS)


def _hand(seed: int, ruleset: str) -> dict[str, Any]:
    return random_hand(random.Random(seed), ruleset)


@PROPERTY
@given(seeds, rulesets)
def test_payments_sum_to_zero(seed: int, ruleset: str) -> None:
    result = score(_hand(seed, ruleset))
    net = result["net"]
    assert set(net) == {"E", "S", "W", "N"}
    assert sum(net.values()) == 0
    flows = dict.fromkeys(net, 0)
    for payment in result["payments"]:
        assert payment["from"] != payment["to"]
        flows[payment["from"]] -= payment["amount"]
        flows[payment["to"]] += payment["amount"]
    assert flows == net


@PROPERTY
@given(seeds, rulesets)
def test_breakdown_adds_up_to_the_value(seed: int, ruleset: str) -> None:
    hand = _hand(seed, ruleset)
    result = score(hand)
    assert [win["seat"] for win in result["wins"]] == [win["seat"] for win in hand["wins"]]
    for win in result["wins"]:
        assert sum(line["points"] for line in win["breakdown"]) == win["value"]
        assert win["value"] > 0


@PROPERTY
@given(seeds, rulesets, st.integers())
def test_tile_order_never_changes_the_result(seed: int, ruleset: str, shuffle: int) -> None:
    hand = _hand(seed, ruleset)
    shuffled = copy.deepcopy(hand)
    rng = random.Random(shuffle)
    for win in shuffled["wins"]:
        for key in ("concealed", "flowers"):
            codes = parse(win[key])
            rng.shuffle(codes)
            win[key] = "".join(codes)
    assert score(shuffled) == score(hand)


@PROPERTY
@given(seeds, rulesets)
def test_generated_hands_decompose(seed: int, ruleset: str) -> None:
    hand = _hand(seed, ruleset)
    for win in hand["wins"]:
        result = analyze(
            win["concealed"],
            win=win["winning_tile"],
            ruleset=ruleset,
            melds=win["melds"],
            flowers=win["flowers"],
        )
        assert result["shape"] in ("standard", "seven_pairs")
        assert sum(line["points"] for line in result["breakdown"]) >= 0


@PROPERTY
@given(seeds, rulesets, st.integers())
def test_one_more_hard_flower_never_lowers_the_value(seed: int, ruleset: str, pick: int) -> None:
    """硬花 +1 never lowers T, from one flower on.

    From none it may: 无花果 (H = 0 on a 门清 or big hand, +40) is lost to the first
    flower, which brings only 2 × 1. So the winner must already hold a flower.
    """
    hand = _hand(seed, ruleset)
    assume(hand["wins"] and hand["wins"][0]["flowers"])
    win = hand["wins"][0]
    held = parse(win["flowers"])
    spare = list(FLOWER_WALL)
    for other in hand["wins"]:
        for code in parse(other["flowers"]):
            spare.remove(code)
    assume(spare)  # two winners may hold all 20 flower tiles between them
    extra = spare[pick % len(spare)]
    more = copy.deepcopy(hand)
    more["wins"][0]["flowers"] = win["flowers"] + extra
    sets = flower_sets([*held, extra]) - flower_sets(held)
    more["kongs"] += [{"seat": win["seat"], "type": "flower", "from": None, "robbed": False}] * sets
    before = score(hand)["wins"][0]["value"]
    after = score(more)["wins"][0]["value"]
    assert after >= before
