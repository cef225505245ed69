"""Template filters of the play app: seats by wind and name, payment reasons by name,
in the page's language (the rule names stay Chinese beside their English)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from clubapp.play import reasons
from clubapp.play.forms import KONG_TYPES
from clubapp.play.glossary import GLOSSARY
from clubapp.play.models import Wind

register = template.Library()

#: E → 东 (Chinese) / East (English): the model's labels, translated
WIND_LABELS = dict(Wind.choices)


@register.filter
def seat_name(wind: str | None, names: dict[str, str]) -> str:
    """``E`` → ``东 老王`` given the session's {wind: name} (``East 老王`` in English)."""
    if not wind:
        return ""
    return f"{wind_name(wind)} {names.get(wind, '')}".strip()


@register.filter
def wind_name(wind: str) -> str:
    """``E`` → ``东`` (``East`` in English)."""
    label = WIND_LABELS.get(wind)
    return str(label) if label is not None else wind


@register.filter
def get(mapping: dict[str, str], key: str) -> str:
    return mapping.get(key, "")


@register.filter
def with_choices(form: Any, choices: list[Any]) -> list[tuple[Any, Any]]:
    """A form's bound fields, each with its choices (the view's, given once per page)."""
    return list(zip(form, choices, strict=True))


@register.filter
def reason_name(code: str) -> str:
    """``win`` → ``胡牌``; a reversal's ``void:win`` → ``作废 胡牌`` (``play.reasons``)."""
    return reasons.reason_name(code)


@register.filter
def gloss(code: str) -> str:
    """The English of a rule's code, for a page in English (empty in Chinese: the
    rule names are the room's own words)."""
    if (get_language() or "").startswith("zh"):
        return ""
    meaning = GLOSSARY.get(str(code))
    return str(meaning) if meaning is not None else ""


@register.filter
def person(user: Any) -> str:
    """Who booked a row, by the name the room knows them by."""
    from clubapp.play.selectors import person_name

    return person_name(user)


#: a kong entry's type (HAND_RECORD.md) by the name the entry page's chips give it
KONG_NAMES = dict(KONG_TYPES)


@register.filter
def kong_name(kind: str) -> str:
    """``exposed`` → ``明杠`` (a rule name: Chinese in both languages)."""
    return str(KONG_NAMES.get(kind, ""))
