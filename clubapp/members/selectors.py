"""Reads of the members app: member lists, cards, today's visits, hours, free tables.

Other apps read members data through these functions; this app reads no other app
(a table in play is marked on the table by the play app, ``services.table_set_in_play``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from clubapp.core.models import Room
from clubapp.members.models import (
    DEFAULT_WEEKLY_PERIODS,
    Card,
    CardState,
    CardStatus,
    ExceptionKind,
    Member,
    OpeningException,
    OpeningPeriod,
    Receipt,
    Table,
    Visit,
)

Period = tuple[dt.time, dt.time]


# ------------------------------------------------------------------ members


def member_list(*, room: Room, q: str = "", state: str = "") -> QuerySet[Member]:
    """Members with their current card (the newest one not voided) as annotations.

    ``q`` matches the name, the phone, or any card number the member has had;
    ``state`` is a CardState value or "none" (no card yet).
    """
    current = Card.objects.filter(member=OuterRef("pk")).exclude(status=CardStatus.VOID)
    current = current.order_by("-issued_on", "-pk")
    members = Member.objects.filter(room=room).annotate(
        card_number=Subquery(current.values("number")[:1]),
        card_status=Subquery(current.values("status")[:1]),
        card_valid_until=Subquery(current.values("valid_until")[:1]),
    )
    q = (q or "").strip()
    if q:
        members = members.filter(
            Q(name__icontains=q)
            | Q(phone__contains=q)
            | Exists(Card.objects.filter(member=OuterRef("pk"), number__icontains=q))
        )
    today = timezone.localdate()
    if state == CardState.ACTIVE:
        members = members.filter(card_status=CardStatus.ACTIVE, card_valid_until__gte=today)
    elif state == CardState.EXPIRED:
        members = members.filter(card_status=CardStatus.ACTIVE, card_valid_until__lt=today)
    elif state in (CardState.SUSPENDED, CardState.REVOKED):
        members = members.filter(card_status=state)
    elif state == "none":
        members = members.filter(card_status__isnull=True)
    return members.order_by("name", "pk")


def member_state(member: Member, *, day: dt.date | None = None) -> str:
    """The state of the member's current card, or "none"."""
    card = member_current_card(member=member)
    return card.state_on(day or timezone.localdate()).value if card else "none"


def member_current_card(*, member: Member) -> Card | None:
    return member.cards.exclude(status=CardStatus.VOID).order_by("-issued_on", "-pk").first()


def member_for_user(*, user: Any) -> Member | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Member.objects.filter(user=user).select_related("room").first()


def card_get_by_number(*, room: Room, number: str) -> Card | None:
    number = (number or "").strip()
    if not number:
        return None
    return Card.objects.select_related("member").filter(member__room=room, number=number).first()


def member_cards(*, member: Member) -> QuerySet[Card]:
    return member.cards.select_related("replaces").order_by("-issued_on", "-pk")


def member_visits(*, member: Member, limit: int = 50) -> QuerySet[Visit]:
    return member.visits.select_related("card").order_by("-checked_in_at")[:limit]


def member_receipts(*, member: Member) -> QuerySet[Receipt]:
    return member.receipts.select_related("card").order_by("-paid_at")


def receipt_get(*, room: Room, number: str) -> Receipt | None:
    return (
        Receipt.objects.select_related("member", "card", "visit", "received_by")
        .filter(room=room, number=number)
        .first()
    )


# ------------------------------------------------------------------- visits


def visits_today(*, room: Room, day: dt.date | None = None) -> QuerySet[Visit]:
    """Visits that began today, and any still open from before."""
    day = day or timezone.localdate()
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min))
    end = start + dt.timedelta(days=1)
    return (
        Visit.objects.filter(room=room)
        .filter(Q(checked_in_at__gte=start, checked_in_at__lt=end) | Q(checked_out_at__isnull=True))
        .select_related("member", "card")
        .order_by("-checked_in_at", "-pk")
    )


def visits_open(*, room: Room) -> QuerySet[Visit]:
    return (
        Visit.objects.filter(room=room, checked_out_at__isnull=True)
        .select_related("member", "card")
        .order_by("checked_in_at")
    )


def visits_open_past_closing(*, room: Room, now: dt.datetime | None = None) -> QuerySet[Visit]:
    """Visits still open while the room is closed: the desk has to see them out."""
    now = now or timezone.now()
    if room_is_open(room=room, at=now):
        return Visit.objects.none()
    return visits_open(room=room)


# ------------------------------------------------------------ opening hours


def weekly_periods(*, room: Room) -> list[tuple[int, dt.time, dt.time]]:
    """The room's weekly schedule; the regulations' default while it has none of its own."""
    rows = list(
        OpeningPeriod.objects.filter(room=room)
        .order_by("weekday", "opens")
        .values_list("weekday", "opens", "closes")
    )
    return rows if rows else list(DEFAULT_WEEKLY_PERIODS)


def opening_periods_on(*, room: Room, day: dt.date) -> list[Period]:
    """The periods the room is open on ``day``: the weekly ones, unless closed by an
    exception, plus the extra openings of that date."""
    exceptions = list(OpeningException.objects.filter(room=room, date=day))
    if any(e.kind == ExceptionKind.CLOSED for e in exceptions):
        return []
    periods = [(o, c) for wd, o, c in weekly_periods(room=room) if wd == day.weekday()]
    periods += [(e.opens, e.closes) for e in exceptions if e.opens and e.closes]
    return sorted(periods)


def room_is_open(*, room: Room, at: dt.datetime) -> bool:
    local = timezone.localtime(at)
    moment = local.time()
    return any(o <= moment < c for o, c in opening_periods_on(room=room, day=local.date()))


def closing_time(*, room: Room, at: dt.datetime) -> dt.time | None:
    """When the current period ends, or None if the room is closed at ``at``."""
    local = timezone.localtime(at)
    moment = local.time()
    for opens, closes in opening_periods_on(room=room, day=local.date()):
        if opens <= moment < closes:
            return closes
    return None


def opening_exceptions_upcoming(
    *, room: Room, day: dt.date | None = None
) -> QuerySet[OpeningException]:
    return OpeningException.objects.filter(room=room, date__gte=day or timezone.localdate())


# ------------------------------------------------------------------- tables


def tables_active(*, room: Room) -> QuerySet[Table]:
    return Table.objects.filter(room=room, active=True).order_by("number")


def tables_free(*, room: Room) -> QuerySet[Table]:
    """场所空闲: active tables neither marked occupied at the desk nor in play (a table
    session of the play app is open at them) (docs/members.md)."""
    return tables_active(room=room).filter(occupied=False, in_play=False)


def tables_free_count(*, room: Room) -> int:
    return tables_free(room=room).count()
