"""One hand under other rulesets."""

from __future__ import annotations

from scoring import rulesets
from scoring.compare import as_played_under, compare

TILES = {
    "format": "mahjong-hand/1",
    "ruleset": "nanjing",
    "dealer": "E",
    "doubled": True,
    "garden": {"size": 30, "left": {"E": 30, "S": 30, "W": 30, "N": 30}, "end_when_out": 2},
    "wins": [
        {
            "seat": "S",
            "discarder": "E",
            "concealed": "234m567m999m111p55p",
            "winning_tile": "5p",
            "flowers": "1f5z6z7z",
        }
    ],
}


def test_it_leaves_out_the_table_state_a_family_cannot_take() -> None:
    worksite = as_played_under(TILES, rulesets.get("jiangsu-worksite"))
    assert worksite["ruleset"] == "jiangsu-worksite" and "doubled" not in worksite
    assert "garden" not in worksite
    classic = as_played_under(TILES, rulesets.get("nanjing-classic"))
    assert classic["doubled"] is True and "garden" not in classic


def test_it_scores_under_each_ruleset_or_says_why_not() -> None:
    small = {"format": "mahjong-hand/1", "ruleset": "nanjing", "dealer": "E", "wins": [
        {"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": 0}
    ]}  # fmt: skip
    rows = compare(small, [rulesets.get("nanjing"), rulesets.get("jiangsu-worksite")])
    assert [row["ruleset"] for row in rows] == ["nanjing", "jiangsu-worksite"]
    assert rows[0]["result"]["wins"][0]["value"] == 28 and rows[0]["version"]
    assert "error" in rows[1] and rows[1]["error_zh"]
    assert rows[1]["error_code"] == "too_few_flowers"
    assert rows[1]["error_params"] == {"need": "5", "flowers": "4"}
    assert compare(TILES, [rulesets.get("nanjing")])[0]["result"]["wins"][0]["value"] == 104
