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
WORKSITE_BONUSES = (
    "dasixi", "xiaosixi", "dadiaoche", "qingyise", "hunyise", "duiduihu", "yitiaolong",
    "sananke", "sianke", "danqidui", "haohua_qidui", "haohua_shuang_qidui",
    "chaohaohua_shuang_qidui", "menqianqing",
)  # fmt: skip
DOUBLING_TRIGGERS = (
    "flower_kong", "dealer_wins", "dealer_stays", "penalty", "dagang_kaihua",
    "gang_kaihua", "drawn", "multiple_winners", "big_hand", "liable",
)  # fmt: skip
#: the largest number a ruleset may hold (a bonus, a count, an amount): a hand's points
#: then stay far below what the ledger stores, whatever it adds up
MAX_NUMBER = 9999
#: 比下胡 multiplies a whole hand: its factor has a bound of its own
MAX_DOUBLE_FACTOR = 10
_CHOICES = {
    "win.menqing": ("yigang", "none"),
    "win.seven_pairs": ("haohua", "shuang"),
    "win.kuaizhao_discard": ("full", "duiduihu"),
    "win.yajue": ("any", "own"),
    "next.dealer_stays": ("doubled", "big_hand", "dealer_wins"),
}


@dataclass(frozen=True)
class WinRules:
    flower_multiplier: int
    run: int
    min_hard_flowers: int
    menqing: str
    seven_pairs: str
    #: "full": 篇二's 快照 payments; "duiduihu": 篇一's (对对胡 only when another feeds it)
    kuaizhao_discard: str
    #: 压绝 on a pong of the tile: "any" seat's (篇二), or the winner's "own" only (篇一)
    yajue: str = "any"


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
    #: a hash of the parameters: the same numbers give the same version
    version: str
    #: the parameters as read, for storing a copy beside recorded hands
    params: Mapping[str, Any]
    bonus: Mapping[str, int]
    penalty: int


@dataclass(frozen=True)
class NanjingRuleset(Ruleset):
    """南京麻将 and its variants: T = multiplier × (H + S) + run + bonuses, 比下胡."""

    win: WinRules
    kong_money: KongMoney
    next: NextRules


@dataclass(frozen=True)
class WorksiteWin:
    min_flowers: int
    menqing: str


@dataclass(frozen=True)
class WorksiteCounts:
    """江苏工地麻将: how many flowers each thing in a hand counts."""

    flower_tile: int
    wind_pong: int
    wind_concealed_triplet: int
    wind_kong_exposed: int
    wind_kong_concealed: int
    kong_exposed: int
    kong_concealed: int
    gangshang_kaihua: int
    ganghou_pao: int
    tianhu: int
    haidi: int


@dataclass(frozen=True)
class WorksiteRuleset(Ruleset):
    """江苏工地麻将: T = the hand's flowers; no doubling, no kong money."""

    win: WorksiteWin
    counts: WorksiteCounts
    flower_set: int


def _fail(where: str, message: str, zh: str, *, code: str, **params: str) -> ScoringError:
    """A refusal of the ruleset ``where``: its params name it too (``where``)."""
    return ScoringError(
        message,
        field=f"ruleset {where}",
        zh=f"规则 {where}：{zh}",
        code=code,
        params={"where": where, **params},
    )


def _section(
    data: Mapping[str, Any], name: str, keys: tuple[str, ...], where: str
) -> dict[str, Any]:
    section = data[name]
    unknown = sorted(set(section) - set(keys))
    if unknown:
        key = f"{name}.{unknown[0]}"
        raise _fail(
            where, f"unknown key {key}", f"未知参数 {key}", code="ruleset_unknown_key", key=key
        )
    missing = [key for key in keys if key not in section]
    if missing:
        key = f"{name}.{missing[0]}"
        raise _fail(
            where, f"missing key {key}", f"缺少参数 {key}", code="ruleset_missing_key", key=key
        )
    for key in keys:
        value = section[key]
        full = f"{name}.{key}"
        choices = _CHOICES.get(full)
        if choices:
            if value not in choices:
                raise _fail(
                    where,
                    f"{full} must be one of {', '.join(choices)}",
                    f"{full} 只能是 {'、'.join(choices)}",
                    code="ruleset_choice",
                    key=full,
                    choices="、".join(choices),
                )
        elif key == "doubling":
            if not isinstance(value, list) or any(v not in DOUBLING_TRIGGERS for v in value):
                raise _fail(
                    where,
                    f"{name}.doubling lists unknown triggers",
                    "比下胡条件中有未知项",
                    code="ruleset_doubling",
                    key=full,
                )
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _fail(
                where,
                f"{full} must be a whole number ≥ 0",
                f"{full} 应为不小于 0 的整数",
                code="ruleset_not_a_number",
                key=full,
            )
        else:
            top = MAX_DOUBLE_FACTOR if full == "next.double_factor" else MAX_NUMBER
            if value > top:
                raise _fail(
                    where,
                    f"{full} must be at most {top}",
                    f"{full} 应为不大于 {top} 的整数",
                    code="ruleset_too_large",
                    key=full,
                    top=str(top),
                )
    return dict(section)


_FAMILIES = {
    "nanjing": ("win", "bonus", "kong_money", "penalty", "next"),
    "worksite": ("win", "counts", "bonus", "flower_set", "penalty"),
}


def from_mapping(data: Mapping[str, Any], where: str = "") -> Ruleset:
    """Build a ruleset from its parameters (a parsed TOML file or a stored copy)."""
    where = where or str(data.get("id", "?"))
    family = data.get("family")
    if not isinstance(family, str) or family not in _FAMILIES:
        raise _fail(
            where,
            f"unknown family {family!r}",
            f"未知的规则族 “{family}”",
            code="ruleset_family",
            family=str(family),
        )
    top = {"id", "name", "family", *_FAMILIES[family]}
    unknown = sorted(set(data) - top)
    if unknown:
        raise _fail(
            where,
            f"unknown key {unknown[0]}",
            f"未知参数 {unknown[0]}",
            code="ruleset_unknown_key",
            key=unknown[0],
        )
    ident, name = data.get("id"), data.get("name")
    if not isinstance(ident, str) or not ident or not isinstance(name, str) or not name:
        raise _fail(
            where, "needs an id and a name", "需要编号（id）和名称（name）", code="ruleset_id_name"
        )
    for section in _FAMILIES[family]:
        if not isinstance(data.get(section), dict):
            raise _fail(
                where,
                f"missing section [{section}]",
                f"缺少 [{section}] 部分",
                code="ruleset_section",
                section=section,
            )
    bonus_data = data["bonus"]
    codes = NANJING_BONUSES if family == "nanjing" else WORKSITE_BONUSES
    bonus = _section(data, "bonus", tuple(k for k in codes if k in bonus_data), where)
    penalty = _section(data, "penalty", ("amount",), where)
    params = {k: data[k] for k in sorted(top - {"id", "name"})}
    digest = hashlib.sha256(
        json.dumps(params, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()
    common: dict[str, Any] = {
        "id": ident,
        "name": name,
        "family": family,
        "version": digest[:12],
        "params": MappingProxyType(dict(data)),
        "bonus": MappingProxyType(bonus),
        "penalty": penalty["amount"],
    }
    if family == "worksite":
        win = _section(data, "win", tuple(WorksiteWin.__dataclass_fields__), where)
        counts = _section(data, "counts", tuple(WorksiteCounts.__dataclass_fields__), where)
        flower_set = _section(data, "flower_set", ("amount",), where)
        return WorksiteRuleset(
            **common,
            win=WorksiteWin(**win),
            counts=WorksiteCounts(**counts),
            flower_set=flower_set["amount"],
        )
    # win.yajue came later: a stored copy without it reads as 篇二 ("any")
    data = {**data, "win": {"yajue": "any", **data["win"]}}
    win = _section(data, "win", tuple(WinRules.__dataclass_fields__), where)
    kong = _section(data, "kong_money", tuple(KongMoney.__dataclass_fields__), where)
    nxt = _section(data, "next", tuple(NextRules.__dataclass_fields__), where)
    return NanjingRuleset(
        **common,
        win=WinRules(**win),
        kong_money=KongMoney(**kong),
        next=NextRules(nxt["double_factor"], frozenset(nxt["doubling"]), nxt["dealer_stays"]),
    )


def from_toml(text: str, where: str = "") -> Ruleset:
    """Build a ruleset from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(
            where or "?",
            f"is not valid TOML: {exc}",
            f"TOML 格式错误：{exc}",
            code="ruleset_toml",
            error=str(exc),
        ) from None
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
            code="unknown_ruleset",
            params={"ruleset": ident, "known": ", ".join(available())},
        )
    ruleset = from_toml((HERE / f"{ident}.toml").read_text(encoding="utf-8"), ident)
    if ruleset.id != ident:
        raise _fail(
            ident,
            f"file {ident}.toml declares id {ruleset.id!r}",
            f"文件的 id 为 {ruleset.id}",
            code="ruleset_file_id",
            id=ruleset.id,
        )
    return ruleset
