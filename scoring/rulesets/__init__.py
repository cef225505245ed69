"""Rulesets are data: TOML files here, read into frozen dataclasses.

Copy a file, change a number and give it a new ``id``: that is a new ruleset,
no code needed. A ruleset's ``version`` is a hash of its parameters, so a
recorded hand can name exactly the numbers it was scored with.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import ScoringError

HERE = Path(__file__).parent

#: bonus codes each family understands
NANJING_BONUSES = (
    "menqing", "hunyise", "qingyise", "duiduihu", "quanqiu_dudiao", "qidui",
    "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui", "shuang_qidui",
    "yajue", "wuhuaguo", "xiaogang_kaihua", "dagang_kaihua", "tianhu", "dihu",
)  # fmt: skip
DOUBLING_TRIGGERS = (
    "flower_kong", "dealer_wins", "dealer_stays", "penalty", "dagang_kaihua",
    "gang_kaihua", "drawn", "multiple_winners", "big_hand", "liable",
)  # fmt: skip
_CHOICES = {
    "win.menqing": ("yigang", "none"),
    "win.seven_pairs": ("haohua", "shuang"),
    "win.kuaizhao_discard": ("full", "duiduihu"),
    "next.dealer_stays": ("doubled", "big_hand", "dealer_wins"),
}


@dataclass(frozen=True)
class WinRules:
    flower_multiplier: int
    run: int
    min_hard_flowers: int
    menqing: str
    seven_pairs: str
    kuaizhao_discard: str


@dataclass(frozen=True)
class KongMoney:
    exposed: int
    concealed: int
    flower: int


@dataclass(frozen=True)
class NextRules:
    double_factor: int
    doubling: frozenset[str]
    dealer_stays: str


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its id and name, its family of rules (code) and its numbers (data)."""

    id: str
    name: str
    family: str
    win: WinRules
    bonus: Mapping[str, int]
    kong_money: KongMoney
    penalty: int
    next: NextRules
    #: a hash of the parameters: the same numbers give the same version
    version: str
    #: the parameters as read, for storing a copy beside recorded hands
    params: Mapping[str, Any]


def _fail(where: str, message: str) -> ScoringError:
    return ScoringError(message, field=f"ruleset {where}", zh=f"规则 {where}：{message}")


def _section(
    data: Mapping[str, Any], name: str, keys: tuple[str, ...], where: str
) -> dict[str, Any]:
    section = data.get(name)
    if not isinstance(section, dict):
        raise _fail(where, f"missing section [{name}]")
    unknown = sorted(set(section) - set(keys))
    if unknown:
        raise _fail(where, f"unknown key {name}.{unknown[0]}")
    missing = [key for key in keys if key not in section]
    if missing:
        raise _fail(where, f"missing key {name}.{missing[0]}")
    for key in keys:
        value = section[key]
        choices = _CHOICES.get(f"{name}.{key}")
        if choices:
            if value not in choices:
                raise _fail(where, f"{name}.{key} must be one of {', '.join(choices)}")
        elif key == "doubling":
            if not isinstance(value, list) or any(v not in DOUBLING_TRIGGERS for v in value):
                raise _fail(where, f"{name}.doubling lists unknown triggers")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _fail(where, f"{name}.{key} must be a whole number ≥ 0")
    return dict(section)


def from_mapping(data: Mapping[str, Any], where: str = "") -> Ruleset:
    """Build a ruleset from its parameters (a parsed TOML file or a stored copy)."""
    where = where or str(data.get("id", "?"))
    top = {"id", "name", "family", "win", "bonus", "kong_money", "penalty", "next"}
    unknown = sorted(set(data) - top)
    if unknown:
        raise _fail(where, f"unknown key {unknown[0]}")
    ident, name, family = data.get("id"), data.get("name"), data.get("family")
    if not isinstance(ident, str) or not ident or not isinstance(name, str) or not name:
        raise _fail(where, "needs an id and a name")
    if family != "nanjing":
        raise _fail(where, f"unknown family {family!r}")
    win = _section(data, "win", tuple(WinRules.__dataclass_fields__), where)
    bonus_data = data.get("bonus")
    if not isinstance(bonus_data, dict):
        raise _fail(where, "missing section [bonus]")
    bonus = _section(data, "bonus", tuple(k for k in NANJING_BONUSES if k in bonus_data), where)
    kong = _section(data, "kong_money", tuple(KongMoney.__dataclass_fields__), where)
    penalty = _section(data, "penalty", ("amount",), where)
    nxt = _section(data, "next", tuple(NextRules.__dataclass_fields__), where)
    params = {k: data[k] for k in sorted(top - {"id", "name"})}
    digest = hashlib.sha256(
        json.dumps(params, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()
    return Ruleset(
        id=ident,
        name=name,
        family=family,
        win=WinRules(**win),
        bonus=MappingProxyType(bonus),
        kong_money=KongMoney(**kong),
        penalty=penalty["amount"],
        next=NextRules(nxt["double_factor"], frozenset(nxt["doubling"]), nxt["dealer_stays"]),
        version=digest[:12],
        params=MappingProxyType(dict(data)),
    )


def from_toml(text: str, where: str = "") -> Ruleset:
    """Build a ruleset from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(where or "?", f"is not valid TOML: {exc}") from None
    return from_mapping(data, where)


def available() -> list[str]:
    """The ids of the rulesets shipped with the package."""
    return sorted(path.stem for path in HERE.glob("*.toml"))


@cache
def get(ident: str) -> Ruleset:
    """A shipped ruleset by id; ScoringError naming the field when there is none."""
    if ident not in available():
        raise ScoringError(
            f"unknown ruleset {ident!r} (known: {', '.join(available())})",
            field="ruleset",
            zh=f"未知的规则 “{ident}”",
        )
    ruleset = from_toml((HERE / f"{ident}.toml").read_text(encoding="utf-8"), ident)
    if ruleset.id != ident:
        raise _fail(ident, f"file {ident}.toml declares id {ruleset.id!r}")
    return ruleset
