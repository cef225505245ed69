"""Demo data of the activities app, one module per part; ``seed`` is what the ``demo``
command calls (clubapp/core/management/commands/demo.py). Every row is written by the
services; each part does nothing when its rows are already there."""

from __future__ import annotations

from typing import Any

from clubapp.activities.demo.duty import demo_duty_and_checks
from clubapp.activities.demo.plans import demo_plans_and_records
from clubapp.activities.demo.tournaments import MAHJONG, XIANGQI, demo_tournaments
from clubapp.core.models import Room

__all__ = [
    "MAHJONG",
    "XIANGQI",
    "demo_duty_and_checks",
    "demo_plans_and_records",
    "demo_tournaments",
    "seed",
]


def seed(*, room: Room, users: dict[str, Any]) -> None:
    demo_plans_and_records(room, users["manager"], users["approver"])
    demo_tournaments(room, users["manager"])
    demo_duty_and_checks(
        room=room, managers=[users["manager"], users["manager2"]], approver=users["approver"]
    )
