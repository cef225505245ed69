"""南京麻将: the decisions of RULES.md ("Edge cases decided") and of this package,
each with a worked example. The rows of the tables are in test_worked_nanjing.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring import ScoringError, analyze, score

from .builders import hand, kong, one, pong, win

CONTRACT = Path(__file__).resolve().parents[2].parent / "shared" / "HAND_RECORD.md"


# HAND_RECORD.md's worked example, copied here so that the test stands without shared/
EXAMPLE_HAND = {
    "format": "mahjong-hand/1", "ruleset": "nanjing", "dealer": "E", "doubled": False,
    "wins": [{
        "seat": "S", "discarder": "E", "liable": None, "concealed": "234m567m999m111p55p",
        "melds": [], "winning_tile": "5p", "flowers": "1f5z6z7z", "flags": [],
    }],
    "kongs": [], "penalties": [], "false_wins": [], "dead_hands": [],
}  # fmt: skip
EXAMPLE_RESULT = {
    "format": "mahjong-result/1", "ruleset": "nanjing",
    "net": {"E": -52, "S": 52, "W": 0, "N": 0},
    "wins": [{
        "seat": "S", "value": 52, "features": ["duzhan", "queyi", "menqing"],
        "breakdown": [
            {"code": "hard_flowers", "label": "硬花 ×4", "points": 8},
            {"code": "duzhan", "label": "独占", "points": 2},
            {"code": "queyi", "label": "缺一", "points": 2},
            {"code": "run20", "label": "跑20", "points": 20},
            {"code": "menqing", "label": "门清", "points": 20},
        ],
    }],
    "payments": [{"from": "E", "to": "S", "amount": 52, "reason": "win"}],
    "next": {"dealer": "S", "doubled": False},
}  # fmt: skip


def test_the_contract_worked_example_reproduces_exactly() -> None:
    examples = [(EXAMPLE_HAND, EXAMPLE_RESULT)]
    if CONTRACT.exists():  # the contract itself, where shared/ sits beside the checkout
        blocks = re.findall(r"```json\n(.*?)```", CONTRACT.read_text(encoding="utf-8"), re.S)
        examples.append((json.loads(blocks[0]), json.loads(blocks[1])))
    for record, expected in examples:
        result = score(record)
        assert result.pop("ruleset_version") == "06f121db1cb1"
        assert result == expected


def test_the_example_by_value() -> None:
    # 2 × (4 H + 独占 + 缺一) + 跑20 + 门清 20 = 52
    result = score(hand(win(discarder="E")))
    assert result["wins"][0]["value"] == 52
    assert result["net"] == {"E": -52, "S": 52, "W": 0, "N": 0}


def test_yajue_needs_the_single_wait() -> None:
    # ponged 3m; 24m waits only 3m (closed): 压绝 40 replaces the 压档 flower
    single = one(
        hand(
            win(
                concealed="24m567p789p99s3m",
                winning_tile="3m",
                melds=[pong("3m", "W")],
                discarder="N",
            )
        )
    )
    assert "yajue" in single["features"] and "yadang" not in single["features"]
    # 45m waits 3m or 6m: no single wait, no 压绝
    double = one(
        hand(
            win(
                concealed="45m567p789p99s6m",
                winning_tile="6m",
                melds=[pong("3m", "W")],
                discarder="N",
            )
        )
    )
    assert "yajue" not in double["features"]


def test_yajue_also_replaces_bianzhi() -> None:
    # ponged 3m; 12m waits only 3m (edge)
    result = one(
        hand(
            win(
                concealed="12m567p789p99s3m",
                winning_tile="3m",
                melds=[pong("3m", "W")],
                discarder="N",
            )
        )
    )
    assert "yajue" in result["features"] and "bianzhi" not in result["features"]


def test_quanqiu_dudiao_counts_concealed_kongs_as_declared_sets() -> None:
    record = hand(
        win(concealed="5p5p", winning_tile="5p", discarder="N",
            melds=[kong("1m"), pong("2s", "W"), pong("3s", "W"), pong("4s", "N")]),
        kongs=[{"seat": "S", "type": "concealed", "from": None}],
    )  # fmt: skip
    result = one(record)
    assert {"quanqiu_dudiao", "duiduihu", "duzhan"} <= set(result["features"])


def test_seven_pairs_can_be_qingyise() -> None:
    result = one(hand(win(concealed="11223355667799m", winning_tile="9m", flowers="")))
    assert {"qidui", "qingyise"} <= set(result["features"])
    assert "menqing" not in result["features"]
    assert "queyi" not in result["features"]  # one suit lacks two: no 缺一


def test_a_hand_of_winds_only_gets_no_colour_and_no_queyi() -> None:
    result = one(hand(win(concealed="11112222333344z", winning_tile="4z", flowers="1f")))
    assert "chaochaohaohua_qidui" in result["features"]
    assert not {"hunyise", "qingyise", "queyi"} & set(result["features"])


def test_shuang_qidui_is_judged_on_the_seven_pair_reading() -> None:
    # 111m + 1m wins: as seven pairs the single wait was the fourth 1m; a standard
    # reading (111 123 ...) has other waits, which does not matter
    record = hand(
        win(concealed="11112233m445566p", winning_tile="1m", flowers="1f"),
        ruleset="nanjing-classic",
    )
    result = one(record)
    assert "shuang_qidui" in result["features"] and "qidui" not in result["features"]


def test_a_four_held_before_the_win_is_not_shuang_qidui() -> None:
    record = hand(
        win(concealed="11112233m445566p", winning_tile="6p", flowers="1f"),
        ruleset="nanjing-classic",
    )
    assert "qidui" in one(record)["features"]


def test_classic_kuaizhao_discard_pays_only_the_duiduihu_value() -> None:
    # S has three mouths from W (快照); N deals in. H = 4, S = 0 (清一色: no 缺一); the
    # hand is 清一色 对对胡: 2 × 4 + 20 + 60 + 40 = 128, but W pays 2 × 4 + 20 + 40 = 68
    record = hand(
        win(concealed="11m555m", winning_tile="5m", discarder="N", liable="W",
            melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "W")]),
        ruleset="nanjing-classic",
    )  # fmt: skip
    result = score(record)
    value = result["wins"][0]["value"]
    share = 2 * 4 + 20 + 40
    assert value == 128 and share == 68
    assert result["payments"] == [{"from": "W", "to": "S", "amount": share, "reason": "win"}]


def test_classic_kuaizhao_discard_share_is_doubled_with_the_hand() -> None:
    record = hand(
        win(concealed="11m555m", winning_tile="5m", discarder="N", liable="W",
            melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "W")]),
        ruleset="nanjing-classic", doubled=True,
    )  # fmt: skip
    assert score(record)["payments"][0]["amount"] == 2 * (2 * 4 + 20 + 40)


def test_nanjing_kuaizhao_discard_pays_the_full_value() -> None:
    record = hand(
        win(concealed="11m555m", winning_tile="5m", discarder="N", liable="W",
            melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "W")]),
    )  # fmt: skip
    result = score(record)
    assert result["payments"][0]["amount"] == result["wins"][0]["value"]


def test_a_robbing_win_needs_liable_and_counts_as_self_drawn() -> None:
    record = hand(
        win(concealed="234m567m999m111p55p",
            winning_tile="2m", liable="E", flags=["robbing_kong"]),
        kongs=[{"seat": "E", "type": "upgraded", "from": "N", "robbed": True}],
    )  # fmt: skip
    result = score(record)
    value = result["wins"][0]["value"]
    assert result["net"] == {"E": -3 * value, "S": 3 * value, "W": 0, "N": 0}
    assert all(p["reason"] == "win" for p in result["payments"])  # the robbed kong earns nothing


def test_flags_a_ruleset_does_not_use_are_accepted_and_score_nothing() -> None:
    plain = one(hand(win(discarder="E")))
    record = hand(
        win(discarder="E", flags=["kong_discard"]),
        kongs=[{"seat": "E", "type": "concealed", "from": None}],
    )
    assert one(record)["value"] == plain["value"]


def test_after_flower_and_after_kong_together_count_both() -> None:
    record = hand(
        win(concealed="234m567m111p55p", melds=[kong("9m")], flags=["after_flower", "after_kong"]),
        kongs=[{"seat": "S", "type": "concealed", "from": None}],
    )
    assert {"xiaogang_kaihua", "dagang_kaihua"} <= set(one(record)["features"])


def test_dagang_kaihua_counts_once_whatever_the_kong_chain() -> None:
    base = hand(
        win(concealed="234m567m55p", melds=[kong("9m"), kong("1p")], flags=["after_kong"]),
        kongs=[{"seat": "S", "type": "concealed", "from": None}] * 2,
    )
    chained = json.loads(json.dumps(base))
    chained["wins"][0]["kong_chain"] = 2
    assert one(chained)["value"] == one(base)["value"]


def test_after_kong_may_follow_a_flower_kong() -> None:
    record = hand(
        win(flowers="1234f", flags=["after_kong"]),
        kongs=[{"seat": "S", "type": "flower", "from": None}],
    )
    assert "dagang_kaihua" in one(record)["features"]


def test_kuaizhao_counts_sets_only() -> None:
    # three mouths fed by W, the fourth from N: instant win, paid by W as one share
    # (the fourth was taken from a discard: an 出冲 win)
    record = hand(
        win(
            concealed="5p",
            winning_tile="1z",
            liable="W",
            flags=["kuaizhao"],
            melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "W"), pong("1z", "N")],
        )
    )
    result = score(record)
    features = result["wins"][0]["features"]
    # the four sets are 万 and winds: 混一色, no 缺一 (the 5p in hand is not judged)
    # 2 × (4 H + 风碰) + 20 + 对对胡 40 + 全球独钓 60 + 混一色 40 = 170
    assert features == ["feng_peng", "hunyise", "duiduihu", "quanqiu_dudiao"]
    assert result["wins"][0]["value"] == 170
    assert result["net"] == {"E": 0, "S": 170, "W": -170, "N": 0}


def test_wait_flowers_need_a_single_wait() -> None:
    # 23m wins 1m or 4m: no flower
    result = one(hand(win(concealed="123m567p789p11s999s", winning_tile="1m", discarder="E")))
    assert not {"yadang", "bianzhi", "duzhan"} & set(result["features"])


def test_the_interpretation_worth_most_is_taken() -> None:
    # 112233m as seven pairs (80) beats 123m123m (门清 20): 七对 wins
    result = one(hand(win(concealed="112233m445566p77s", winning_tile="7s")))
    assert "qidui" in result["features"]


def test_tiles_contradicting_a_ticked_feature_are_refused() -> None:
    record = hand(win(discarder="E", features=["qingyise"]))
    with pytest.raises(ScoringError) as info:
        score(record)
    assert info.value.field == "wins[0].features" and "清一色" in info.value.zh


def test_ticked_features_the_tiles_confirm_are_accepted() -> None:
    assert one(hand(win(discarder="E", features=["menqing", "duzhan"])))["value"] == 52


def test_a_soft_flower_count_the_tiles_contradict_is_refused() -> None:
    with pytest.raises(ScoringError, match="soft flowers"):
        score(hand(win(discarder="E", soft_flowers=3)))
    assert one(hand(win(discarder="E", soft_flowers=2)))["value"] == 52


def test_hard_flowers_must_agree_with_the_flower_tiles() -> None:
    with pytest.raises(ScoringError, match="hard_flowers"):
        score(hand(win(discarder="E", hard_flowers=5)))


def test_analyze_accepts_a_hand_with_the_win_already_in_it() -> None:
    assert analyze("123m456p789s11z555s", win="5s")["waits"] == ["5s", "1z"]
    assert analyze("123m456p789s11z555s")["shape"] == "standard"


def test_analyze_takes_melds_and_flowers() -> None:
    result = analyze(
        "456p789s11z55s",
        win="5s",
        melds=[{"type": "pong", "tile": "1m", "from": "E"}],
        flowers="1f",
    )
    assert "menqing" not in result["features"]
    assert result["breakdown"][0] == {"code": "hard_flowers", "label": "硬花 ×1", "points": 2}


@pytest.mark.parametrize(
    ("tiles", "kw", "message"),
    [
        ("123m456p789s11z5s", {}, "12 tiles"),
        ("123m456p789s11z555s", {"win": "6s"}, "not in the hand"),
        ("123m456p789s11z557s", {}, "not a winning hand"),
        ("123m456p789s11z55s", {"win": "9x"}, "unknown tile"),
        ("123m456p789s11z55s", {"win": "5s5s"}, "exactly one tile"),
        ("123m456p789s11z55s", {"win": "5z"}, "flower tile"),
        ("123m456p789s11z55s", {"win": "5s", "flowers": "1m"}, "not a flower tile"),
        ("123m456p789s11z5s7z", {"win": "5s"}, "flower tile"),
        ("11111m456p789s11z", {"win": "1z"}, "more than four"),
        (
            "1m456p789s11z55s",
            {"win": "1m", "melds": [{"type": "kong", "tile": "1m", "from": None}]},
            "more than four copies of '1m'",
        ),
        ("456p789s11z", {"win": "1z", "melds": [{"type": "pong", "tile": "1m"}]}, "needs the seat"),
    ],
)
def test_analyze_refuses_bad_tiles(tiles: str, kw: dict, message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        analyze(tiles, **kw)


def test_a_small_hand_is_refused_whichever_reading_it_is_given() -> None:
    # 3m sits in 123m (边枝, not a single wait here) or in 345m: two readings, neither
    # 门清 (a pong) nor a big hand, and no hard flower: no reading is a legal win
    record = hand(
        win(concealed="123345m567p99s", winning_tile="3m", flowers="", melds=[pong("9p", "N")]),
        dealer="E",
    )
    record["wins"][0]["discarder"] = "E"
    with pytest.raises(ScoringError, match="not a legal win") as caught:
        score(record)
    assert caught.value.field == "wins[0].flowers"
    # with enough hard flowers the same tiles win, as their best reading
    record["wins"][0]["flowers"] = "1f2f3f5z"
    assert score(record)["wins"][0]["value"] > 0
