"""Rulesets are data: TOML files, frozen dataclasses, a version hash of the numbers."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

from scoring import ScoringError, rulesets, score

from .builders import hand, win


def test_the_shipped_rulesets_load() -> None:
    assert {"nanjing", "nanjing-classic"} <= set(rulesets.available())
    nanjing = rulesets.get("nanjing")
    assert nanjing.name == "南京麻将" and nanjing.penalty == 6 and nanjing.bonus["qidui"] == 80
    classic = rulesets.get("nanjing-classic")
    assert (
        classic.penalty == 10
        and classic.bonus["shuang_qidui"] == 80
        and "haohua_qidui" not in classic.bonus
    )


def test_a_ruleset_is_frozen() -> None:
    nanjing = rulesets.get("nanjing")
    with pytest.raises(dataclasses.FrozenInstanceError):
        nanjing.penalty = 10  # type: ignore[misc]
    with pytest.raises(TypeError):
        nanjing.bonus["qidui"] = 1  # type: ignore[index]


def _copy(change: dict) -> str:
    data = tomllib.loads((rulesets.HERE / "nanjing.toml").read_text(encoding="utf-8"))
    for section, values in change.items():
        if isinstance(values, dict):
            data[section].update(values)
        else:
            data[section] = values
    lines = []
    for key in ("id", "name", "family"):
        lines.append(f'{key} = "{data[key]}"')
    for section in ("win", "bonus", "kong_money", "penalty", "next"):
        lines.append(f"[{section}]")
        for key, value in data[section].items():
            lines.append(f"{key} = {value!r}".replace("'", '"'))
    return "\n".join(lines)


def test_copying_a_file_and_changing_a_number_makes_a_new_ruleset() -> None:
    mine = rulesets.from_toml(
        _copy({"id": "nanjing-10", "name": "南京·罚10", "penalty": {"amount": 10}})
    )
    assert mine.penalty == 10
    assert mine.version != rulesets.get("nanjing").version
    result = score(
        hand(ruleset="nanjing-10", penalties=[{"type": "follow", "seat": "N"}]), ruleset=mine
    )
    assert result["net"]["N"] == -30
    assert result["ruleset"] == "nanjing-10" and result["ruleset_version"] == mine.version


def test_the_version_is_a_hash_of_the_parameters_not_the_name() -> None:
    renamed = rulesets.from_toml(_copy({"id": "copy", "name": "副本"}))
    assert renamed.version == rulesets.get("nanjing").version
    smaller = rulesets.from_toml(
        _copy({"id": "jyz", "name": "进园子", "win": {"run": 10, "flower_multiplier": 1}})
    )
    assert smaller.version != renamed.version
    result = score(hand(win(discarder="E"), ruleset="jyz"), ruleset=smaller)
    # 1 × (4 + 独占 + 缺一) + 跑10 + 门清 20 = 36
    assert result["wins"][0]["value"] == 36
    assert result["wins"][0]["breakdown"][3] == {"code": "run20", "label": "跑10", "points": 10}


def test_a_record_naming_another_ruleset_is_refused() -> None:
    with pytest.raises(ScoringError, match="scored under"):
        score(hand(ruleset="nanjing"), ruleset=rulesets.get("nanjing-classic"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"penalty": {"amount": -1}}, "whole number"),
        ({"penalty": {"amount": True}}, "whole number"),
        ({"penalty": {"amount": 10**12}}, "penalty.amount must be at most 9999"),
        ({"bonus": {"tianhu": 10000}}, "bonus.tianhu must be at most 9999"),
        ({"next": {"double_factor": 11}}, "next.double_factor must be at most 10"),
        ({"win": {"menqing": "maybe"}}, "win.menqing must be one of"),
        ({"next": {"doubling": ["moon"]}}, "unknown triggers"),
        ({"kong_money": {"extra": 1}}, "unknown key kong_money.extra"),
        ({"family": "sichuan"}, "unknown family"),
        ({"name": ""}, "needs an id and a name"),
    ],
)
def test_bad_parameters_are_refused(change: dict, message: str) -> None:
    data = tomllib.loads((rulesets.HERE / "nanjing.toml").read_text(encoding="utf-8"))
    for section, values in change.items():
        data[section] = {**data[section], **values} if isinstance(values, dict) else values
    with pytest.raises(ScoringError, match=message):
        rulesets.from_mapping(data)


def test_missing_parts_are_refused() -> None:
    data = tomllib.loads((rulesets.HERE / "nanjing.toml").read_text(encoding="utf-8"))
    for broken, message in (
        ({k: v for k, v in data.items() if k != "bonus"}, r"missing section \[bonus\]"),
        ({k: v for k, v in data.items() if k != "win"}, r"missing section \[win\]"),
        (dict(data, penalty={}), "missing key penalty.amount"),
        (dict(data, extra=1), "unknown key extra"),
    ):
        with pytest.raises(ScoringError, match=message):
            rulesets.from_mapping(broken)


def test_broken_toml_is_refused() -> None:
    with pytest.raises(ScoringError, match="not valid TOML"):
        rulesets.from_toml("id = ")


def test_a_file_whose_id_differs_from_its_name_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    (tmp_path / "odd.toml").write_text(_copy({"id": "even"}), encoding="utf-8")
    monkeypatch.setattr(rulesets, "HERE", tmp_path)
    rulesets.get.cache_clear()
    try:
        with pytest.raises(ScoringError, match="declares id 'even'"):
            rulesets.get("odd")
    finally:
        rulesets.get.cache_clear()
