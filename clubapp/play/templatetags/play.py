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
def get(mapping: dict[str, str], key: str) -> str:
    return mapping.get(key, "")


@register.filter
def with_choices(form: Any, choices: list[Any]) -> list[tuple[Any, Any]]:
    """A form's bound fields, each with its choices (the view's, given once per page)."""
    return list(zip(form, choices, strict=True))
