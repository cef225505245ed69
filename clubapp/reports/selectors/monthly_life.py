"""The monthly report's section on the room's life (issue 23.6): read through the
activities app's selector (``activities.selectors.month.month_life``)."""

from __future__ import annotations

from dataclasses import dataclass

from clubapp.activities.selectors.month import MonthLife, month_life
from clubapp.core.models import Room
from clubapp.reports.selectors.month import Month


@dataclass(frozen=True)
class LifeSection:
    key = "life"
    life: MonthLife


def life_section(*, room: Room, month: Month) -> LifeSection:
    return LifeSection(life=month_life(room=room, year=month.year, month=month.month))
