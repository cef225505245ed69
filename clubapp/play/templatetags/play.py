"""Template filters of the play app."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def seat_name(wind: str | None, names: dict[str, str]) -> str:
    """``E`` → ``东 老王`` given the session's {wind: name}."""
    if not wind:
        return ""
    zh = {"E": "东", "S": "南", "W": "西", "N": "北"}.get(wind, wind)
    return f"{zh} {names.get(wind, '')}".strip()
