"""Demo data of the play app: a few table sessions with real booked hands.

Called by ``manage.py demo`` inside its transaction, after the members app's demo (its
members, cards and tables); silent. Every seat is a visit checked in at the desk. Hands come from
``scoring.generate.random_hands`` (legal tile records) and are booked through
``services.hand_record`` like any other, so the ledger, the dealer chain and the
statements are what the app itself would have written.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

import scoring.rulesets
from clubapp.core.models import Room
from clubapp.members import selectors as members_selectors
from clubapp.members import services as members_services
from clubapp.members.models import Member, Table, Visit
from clubapp.play import services
from clubapp.play.models import TableSession
from scoring import ScoringError
from scoring.generate import random_hands

#: non-members checked in at the desk for the demo tables
GUESTS = ("老王", "小李", "阿张", "赵姐", "钱师傅")
#: members of the members app's demo whose card lets them in
MEMBERS = ("钱大伯", "吴奶奶")


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


def _last_open_moment(room: Room, now: datetime) -> datetime:
    """The latest time not after ``now`` when the room was open (half-hour steps)."""
    moment = now.replace(second=0, microsecond=0)
    for _ in range(7 * 48):
        if members_selectors.room_is_open(room=room, at=moment):
            return moment
        moment -= timedelta(minutes=30)
    return now


def _players(room: Room, desk: Any, now: datetime) -> dict[str, Visit]:
    """Everyone in the room by name: the open visits (the members' demo checks in 赵会员
    and a non-member), the members with an active card, and the guests, checked in at
    the desk (non-members pay there)."""
    at = _last_open_moment(room, now)
    for number in range(1, 4):
        Table.objects.get_or_create(room=room, number=number)
    for member in Member.objects.filter(room=room, name__in=MEMBERS):
        card = members_selectors.member_current_card(member=member)
        in_room = Visit.objects.filter(
            room=room, member=member, checked_out_at__isnull=True
        ).exists()
        if card is not None and not in_room and card.state_on(timezone.localdate(at)) == "active":
            members_services.visit_check_in(room=room, card=card, by=desk, now=at)
    for name in GUESTS:
        members_services.visit_check_in(room=room, guest_name=name, by=desk, now=at)
    return {
        visit.visitor_name: visit
        for visit in members_selectors.visits_open(room=room).select_related("member__user")
    }


def _seats(players: dict[str, Visit], names: tuple[str, ...]) -> list[services.SeatIn]:
    return [
        services.SeatIn(wind=wind, visit=players[name])
        for wind, name in zip("ESWN", names, strict=True)
    ]


def seed(*, room: Room, users: dict[str, Any]) -> None:
    """Table 1 played earlier tonight and ended (a manager may reopen it), its first
    hands confirmed by the member seated there; table 2 a 进园子 table in play with a
    hand voided by the manager; table 3 a 工地 table in play opened by the member who
    sits at it, with a void the member asked for and a second player has not confirmed
    yet."""
    if TableSession.objects.filter(room=room).exists():
        return  # the demo ran before (its players are still seated)
    member, manager = users.get("member"), users.get("manager")
    versions = {v.ruleset_id: v for v in services.ruleset_versions_sync()}
    # the room's own ruleset beside the standard ones (docs/rooms.md): 南京麻将 with the
    # house's dearer penalty, on its rulesets page for the manager to pick
    nanjing = scoring.rulesets.get("nanjing").params
    services.ruleset_version_save(
        params={
            **nanjing,
            "id": "nanjing-house",
            "name": "南京麻将（本室罚分8）",
            "penalty": {**nanjing["penalty"], "amount": 8},
        },
        room=room,
    )
    now = timezone.now()
    players = _players(room, manager, now)
    tables = {t.number: t for t in Table.objects.filter(room=room, number__in=[1, 2, 3])}
    evening = services.session_create(
        room=room,
        table=tables[1],
        ruleset=versions["nanjing"],
        seats=_seats(players, ("赵会员", GUESTS[0], GUESTS[1], GUESTS[2])),
        by=manager,
        started_at=now - timedelta(hours=3),
    )
    _book(evening, "nanjing", 2026, 12, manager)
    if member is not None:
        # 赵会员 confirms the first hands on their phone; the later ones stay unconfirmed
        for hand in evening.hands.order_by("number")[:3]:
            services.hand_signoff(hand=hand, by=member)
    services.settlement_make(session=evening, by=manager)
    services.session_end(session=evening, by=manager, ended_at=now - timedelta(hours=1))
    garden = services.session_create(
        room=room,
        table=tables[2],
        ruleset=versions["nanjing"],
        seats=_seats(players, (GUESTS[3], "钱大伯", GUESTS[4], "吴奶奶")),
        by=manager,
        mode="garden",
        garden_size=200,
        started_at=now - timedelta(hours=2),
    )
    _book(garden, "nanjing", 7, 6, manager)
    # the last hand booked to the wrong winner, voided by the manager: its reversal
    # stands in the journal and the 园子 are recomputed (on a 进园子 table an earlier
    # hand may only be voided once the later hands are: docs/play.md)
    wrong = garden.hands.order_by("-number")[0]
    services.hand_void(hand=wrong, reason="胡牌人记错了，重新录入", by=manager)
    worksite = services.session_create(
        room=room,
        table=tables[3],
        ruleset=versions["jiangsu-worksite"],
        seats=_seats(players, (GUESTS[1], GUESTS[2], "赵会员", GUESTS[0])),
        by=member,
        started_at=now - timedelta(hours=1),
    )
    _book(worksite, "jiangsu-worksite", 11, 8, member)
    last = worksite.hands.order_by("-number").first()
    if last is not None and member is not None:
        services.hand_void_request(hand=last, reason="花数记错了", by=member)
