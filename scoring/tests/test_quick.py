"""Quick entry: counts and ticks instead of tiles, checked for what cannot combine."""

from __future__ import annotations

import pytest

from scoring import ScoringError, score

from .builders import pong


def quick(**kw: object) -> dict:
    ruleset = kw.pop("ruleset", "nanjing")
    win = {"seat": "S", "discarder": "E", "hard_flowers": 4}
    win.update(kw)
    return {"format": "mahjong-hand/1", "ruleset": ruleset, "dealer": "E", "wins": [win]}


def test_a_quick_entry_scores_from_counts_and_ticks() -> None:
    result = score(quick(soft_flowers=2, features=["menqing"]))
    win = result["wins"][0]
    # 2 × (4 + 2) + 20 + 20 = 52, like the contract's example
    assert win["value"] == 52
    assert win["features"] == ["soft_flowers", "menqing"][1:]
    assert [line["code"] for line in win["breakdown"]] == [
        "hard_flowers",
        "soft_flowers",
        "run20",
        "menqing",
    ]


def test_a_quick_small_hand_needs_four_hard_flowers() -> None:
    with pytest.raises(ScoringError, match="at least 4 hard flowers, it has 3"):
        score(quick(hard_flowers=3))
    assert (
        score(quick(hard_flowers=3, features=["duiduihu"]))["wins"][0]["value"] == 2 * 3 + 20 + 40
    )


def test_quick_wuhuaguo_comes_with_no_hard_flower() -> None:
    result = score(quick(hard_flowers=0, features=["menqing"]))
    assert result["wins"][0]["features"] == ["menqing", "wuhuaguo"]


def test_quick_flag_bonuses_come_from_flags() -> None:
    result = score(quick(discarder=None, flags=["after_flower"], features=["xiaogang_kaihua"]))
    assert "xiaogang_kaihua" in result["wins"][0]["features"]
    with pytest.raises(ScoringError, match="needs its flag"):
        score(quick(features=["tianhu"]))


@pytest.mark.parametrize(
    ("features", "kw", "message"),
    [
        (["qidui", "haohua_qidui"], {}, "only one seven-pairs tier"),
        (["qidui", "menqing"], {}, "seven pairs cannot be"),
        (["hunyise", "qingyise"], {}, "exclude each other"),
        (["quanqiu_dudiao"], {}, "always 对对胡"),
        (["wuhuaguo"], {}, "needs no hard flower"),
        (["wuhuaguo"], {"hard_flowers": 0}, "needs 门清 or another big hand"),
        (["menqing"], {"melds": [pong("1m", "W")]}, "contradicted by the melds"),
        (["queyi"], {}, "soft flower"),
        (["shuang_qidui"], {}, "unknown feature"),
        (
            ["quanqiu_dudiao", "duiduihu", "menqing"],
            {"ruleset": "nanjing-classic"},
            "cannot be 门清",
        ),
    ],
)
def test_quick_ticks_that_cannot_combine_are_refused(
    features: list[str], kw: dict, message: str
) -> None:
    with pytest.raises(ScoringError, match=message) as info:
        score(quick(features=features, **kw))
    assert info.value.field == "wins[0].features"


def test_quick_entry_needs_tiles_or_hard_flowers() -> None:
    record = quick()
    del record["wins"][0]["hard_flowers"]
    with pytest.raises(ScoringError, match="hard_flowers for a quick entry"):
        score(record)


def test_a_quick_entry_with_melds_is_checked_against_the_kongs() -> None:
    record = quick(melds=[{"type": "kong", "tile": "1m", "from": "W"}])
    with pytest.raises(ScoringError, match="do not match"):
        score(record)
    record["kongs"] = [{"seat": "S", "type": "exposed", "from": "W"}]
    assert score(record)["net"]["S"] == 2 * 4 + 20 + 6  # the win and the kong money


def test_quick_kuaizhao_needs_four_sets() -> None:
    with pytest.raises(ScoringError, match="four sets"):
        score(quick(discarder=None, liable="W", flags=["kuaizhao"], features=["duiduihu"]))


def test_quick_features_must_be_codes() -> None:
    with pytest.raises(ScoringError, match="feature code"):
        score(quick(features=[1]))
