"""Template filters of the play app."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def seat_name(wind: str | None, names: dict[str, str]) -> str:
    """``E`` → ``东 老王`` given the session's {wind: name}."""
    if not wind:
        return ""
    zh = {"E": "东", "S": "南", "W": "西", "N": "北"}.get(wind, wind)
    return f"{zh} {names.get(wind, '')}".strip()


_TILE_NAMES = {
    "z": ["东", "南", "西", "北", "白", "发", "中"],
    "f": ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"],
}
_SUIT = {"m": "万", "p": "饼", "s": "条"}


@register.filter
def tile_name(code: str) -> str:
    """``5m`` → ``5万``, ``7z`` → ``中``, ``1f`` → ``春``."""
    number, kind = int(code[0]), code[1]
    if kind in _TILE_NAMES:
        return _TILE_NAMES[kind][number - 1]
    return f"{number}{_SUIT[kind]}"


@register.filter
def get(mapping: dict[str, str], key: str) -> str:
    return mapping.get(key, "")


@register.simple_tag
def chip(option: Any) -> str:
    """One checkbox or radio of a choice field, written out (Django's widget template
    per option cost most of the entry page's time): the same input its template makes."""
    data = option.data
    return format_html(
        '<input type="{}" name="{}" value="{}" id="{}"{}>',
        data["type"],
        data["name"],
        data["value"],
        data["attrs"].get("id", ""),
        mark_safe(" checked") if data["selected"] else "",
    )
