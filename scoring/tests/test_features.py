"""What the entry page offers per family, and what excludes what (from the family data)."""

from __future__ import annotations

import pytest

from scoring import nanjing, rulesets, worksite
from scoring.features import (
    FLAGS,
    big_hand_codes,
    conflicts,
    is_big_hand,
    ticks,
    without_hard_flowers,
)
from scoring.record import FLAGS as RECORD_FLAGS


@pytest.mark.parametrize("family", ["nanjing", "worksite"])
def test_conflicts_are_symmetric(family: str) -> None:
    found = conflicts(family)
    for code, others in found.items():
        assert code not in others
        for other in others:
            assert code in found[other]


def test_nanjing_conflicts_come_from_its_rules() -> None:
    found = conflicts("nanjing")
    assert "menqing" in found["qidui"] and "haohua_qidui" in found["qidui"]
    assert found["hunyise"] == ["qingyise"]
    assert without_hard_flowers("nanjing") == ["wuhuaguo"]


def test_worksite_conflicts_come_from_its_rules() -> None:
    found = conflicts("worksite")
    assert "xiaosixi" in found["dasixi"] and "yitiaolong" in found["danqidui"]
    assert without_hard_flowers("worksite") == []


def test_quick_entry_offers_the_bonuses_flags_cannot_give() -> None:
    nanjing = dict(ticks(rulesets.get("nanjing")))
    assert nanjing["menqing"] == "门清" and "tianhu" not in nanjing and "yajue" in nanjing
    worksite = dict(ticks(rulesets.get("jiangsu-worksite")))
    assert worksite["yitiaolong"] == "一条龙" and "menqing" not in worksite


def test_every_offered_flag_is_a_record_flag() -> None:
    for flags in FLAGS.values():
        assert {code for code, _name in flags} <= set(RECORD_FLAGS)


def test_big_hands_by_family() -> None:
    assert is_big_hand("nanjing", ["qingyise"]) and not is_big_hand("nanjing", ["menqing"])
    assert is_big_hand("worksite", ["yitiaolong"]) and not is_big_hand("worksite", ["menqianqing"])


def test_worksite_big_hands_are_its_patterns_not_its_counted_items() -> None:
    """工地: a big hand is one of RULES.md's patterns but 门前清; the counted items
    before the table (wind sets, kongs, other flowers, 杠上开花, 杠后炮, 天糊, 海底捞月)
    add flowers and do not make a win big."""
    counted = ["feng_peng", "minggang", "angang", "soft_flowers", "gangshang_kaihua", "tianhu"]
    assert not is_big_hand("worksite", [*counted, "haidi", "ganghou_pao", "menqianqing"])
    assert is_big_hand("worksite", ["soft_flowers", "duiduihu"])


@pytest.mark.parametrize(
    ("family", "names"), [("nanjing", nanjing.NAMES), ("worksite", worksite.NAMES)]
)
def test_the_big_hand_codes_are_the_features_that_make_a_win_big(
    family: str, names: dict[str, str]
) -> None:
    codes = big_hand_codes(family)
    for code in set(names) - {"hard_flowers"}:  # a breakdown line, never a feature
        assert is_big_hand(family, [code]) == (code in codes), code
    assert "menqianqing" not in big_hand_codes("worksite")
    assert "dasixi" in big_hand_codes("worksite")
    assert "menqing" not in big_hand_codes("nanjing")
