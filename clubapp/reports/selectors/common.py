"""What the reports' documents share: money with its two places, seats by wind and
name, a hand in one line."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubapp.play.models import (
    Wind,
)

ZERO = Decimal("0.00")
#: 东 南 西 北 (East South West North on an English page): the model's labels
SEAT_NAMES: dict[str, Any] = dict(Wind.choices)


def yuan(value: Decimal | None) -> Decimal:
    """An amount of money with its two places (SQLite sums lose them)."""
    return (value or ZERO).quantize(Decimal("0.01"))


def describe_hand(
    record: dict[str, Any], result: dict[str, Any], names: dict[str, str]
) -> tuple[str, str]:
    """("南 陈喆 ← 东 王堃 88", "清一色") for a hand; a drawn hand says so."""
    wins = result.get("wins") or []
    if not wins:
        return str(_("Drawn hand")), ""
    parts, features = [], []
    records = record.get("wins") or []
    for win, rec in zip(wins, records + [{}] * (len(wins) - len(records)), strict=True):
        seat = win["seat"]
        who = f"{SEAT_NAMES.get(seat, seat)} {names.get(seat) or ''}".strip()
        discarder = rec.get("discarder")
        if discarder:
            by = f"{SEAT_NAMES.get(discarder, discarder)} {names.get(discarder) or ''}".strip()
            parts.append(f"{who} ← {by} {win.get('value', '')}")
        else:
            parts.append(f"{who} {_('self-drawn')} {win.get('value', '')}")
        features += [b["label"] for b in win.get("breakdown", [])]
    # the rule names stay Chinese (a page in English marks them so), joined as Chinese is
    return pgettext("list separator", "; ").join(parts), "、".join(features)


def seat_label(wind: str, names: dict[str, str]) -> str:
    return f"{SEAT_NAMES.get(wind, wind)} {names.get(wind) or ''}".strip()
