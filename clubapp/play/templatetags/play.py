"""Template filters of the play app."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

WIND_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}


@register.filter
def seat_name(wind: str | None, names: dict[str, str]) -> str:
    """``E`` → ``东 老王`` given the session's {wind: name}."""
    if not wind:
        return ""
    return f"{WIND_NAMES.get(wind, wind)} {names.get(wind, '')}".strip()


@register.filter
def wind_name(wind: str) -> str:
    """``E`` → ``东``."""
    return WIND_NAMES.get(wind, wind)


@register.filter
def get(mapping: dict[str, str], key: str) -> str:
    return mapping.get(key, "")


@register.filter
def with_choices(form: Any, choices: list[Any]) -> list[tuple[Any, Any]]:
    """A form's bound fields, each with its choices (the view's, given once per page)."""
    return list(zip(form, choices, strict=True))


#: what a payment or ledger line is for, and why a 包牌 seat was proposed, by name
REASON_NAMES = {
    "win": "胡牌",
    "kong": "杠",
    "flower_kong": "花杠",
    "penalty": "罚分",
    "kuaizhao": "快照",
    "qingyise_fourth": "清一色第四口",
    "dagang_kaihua": "大杠开花",
    "robbing_kong": "抢杠",
    "worksite": "喂三口",
}


@register.filter
def reason_name(code: str) -> str:
    """``win`` → ``胡牌``; a reversal's ``void:win`` → ``冲销 胡牌``."""
    if code.startswith("void:"):
        return f"冲销 {REASON_NAMES.get(code[5:], code[5:])}"
    return REASON_NAMES.get(code, code)
