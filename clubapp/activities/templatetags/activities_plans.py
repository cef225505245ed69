"""Template filters of the plans, records and the calendar: games by their names."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import pgettext

from clubapp.activities.models import Game

register = template.Library()


@register.filter
def game_names(codes: Any) -> str:
    """象棋、围棋: the games of a line in the page's language, never their codes."""
    if isinstance(codes, str):
        codes = [codes]
    labels = dict(Game.choices)
    return pgettext("list separator", ", ").join(
        str(labels.get(code, code)) for code in codes or ()
    )
