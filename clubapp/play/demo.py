"""Demo data of the play app: a few table sessions with real booked hands.

Called by ``manage.py demo`` inside its transaction; silent. Hands come from
``scoring.generate.random_hands`` (legal tile records) and are booked through
``services.hand_record`` like any other, so the ledger, the dealer chain and the
statements are what the app itself would have written.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.utils import timezone

from clubapp.core.models import Room
from clubapp.play import services
from clubapp.play.models import TableSession
from scoring import ScoringError
from scoring.generate import random_hands

GUESTS = ("老王", "小李", "阿张", "赵姐", "钱师傅", "孙阿姨")


def _book(session: TableSession, ruleset: str, seed: int, count: int, user: Any) -> None:
    """Book ``count`` generated hands; a record that does not fit the table's state
    (天胡 by a seat that is not dealing, say) is skipped, as a recorder would."""
    booked = 0
    for record in random_hands(seed, count * 4, ruleset):
        if booked == count:
            break
        try:
            services.hand_record(
                session=session, record=record, idempotency_key=uuid.uuid4(), by=user
            )
        except ScoringError:
            continue
        booked += 1


def seed(*, room: Room, users: dict[str, Any]) -> None:
    member, manager = users.get("member"), users.get("manager")
    versions = {v.ruleset_id: v for v in services.ruleset_versions_sync()}
    now = timezone.now()
    evening = services.session_create(
        room=room,
        table_number=1,
        ruleset=versions["nanjing"],
        seats=[
            services.SeatIn(wind="E", user=member),
            services.SeatIn(wind="S", name=GUESTS[0]),
            services.SeatIn(wind="W", name=GUESTS[1]),
            services.SeatIn(wind="N", name=GUESTS[2]),
        ],
        by=manager,
        started_at=now - timedelta(hours=3),
    )
    _book(evening, "nanjing", 2026, 12, manager)
    services.settlement_make(session=evening, by=manager)
    garden = services.session_create(
        room=room,
        table_number=2,
        ruleset=versions["nanjing"],
        seats=[
            services.SeatIn(wind="E", name=GUESTS[3]),
            services.SeatIn(wind="S", user=manager),
            services.SeatIn(wind="W", name=GUESTS[4]),
            services.SeatIn(wind="N", name=GUESTS[5]),
        ],
        by=manager,
        mode="garden",
        garden_size=200,
        started_at=now - timedelta(hours=2),
    )
    _book(garden, "nanjing", 7, 6, manager)
    worksite = services.session_create(
        room=room,
        table_number=3,
        ruleset=versions["jiangsu-worksite"],
        seats=[
            services.SeatIn(wind="E", name=GUESTS[1]),
            services.SeatIn(wind="S", name=GUESTS[2]),
            services.SeatIn(wind="W", user=member),
            services.SeatIn(wind="N", name=GUESTS[4]),
        ],
        by=member,
        started_at=now - timedelta(hours=1),
    )
    _book(worksite, "jiangsu-worksite", 11, 8, member)
