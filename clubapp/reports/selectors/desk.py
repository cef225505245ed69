"""Today at the desk (today's page, and the manager's home page through the panel
the reports app registers)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q
from django.utils import timezone

from clubapp.books.models import IncomeEntry
from clubapp.books.selectors import (
    DeskCash,
    desk_cash,
    flows,
)
from clubapp.core.models import Room
from clubapp.members.models import Card, CardStatus, Visit
from clubapp.members.selectors import visits_open_past_closing, visits_present
from clubapp.play.models import (
    SEATS,
    Hand,
    TableSession,
)
from clubapp.reports.selectors.common import seat_label


@dataclass
class TodayDesk:
    """Today at the desk, for the manager and the accountant (their home page)."""

    day: dt.date
    #: (category label, entries, amount) of the 收 booked today, net of today's
    #: reversals (the books' ``flows`` of the day)
    takings: list[tuple[str, int, Decimal]]
    takings_total: Decimal
    #: the books' cash on hand and the oldest receipt not handed over
    desk_cash: DeskCash
    #: (visit, minutes so far)
    inside: list[tuple[Visit, int]]
    #: (session, seat labels, hands standing, minutes since it started)
    tables: list[tuple[TableSession, list[str], int, int]]
    #: (card, days left: negative when expired, how many days either way) for cards
    #: ending within the window and cards expired and not renewed (due for 年审)
    reminders: list[tuple[Card, int, int]]
    window_days: int = 30
    #: open visits past their closing time, for the desk to close with a time
    after_closing: int = 0


def today_desk(*, room: Room, now: dt.datetime | None = None, window_days: int = 30) -> TodayDesk:
    now = now or timezone.now()
    day = timezone.localdate(now)
    booked = dict(
        IncomeEntry.objects.filter(room=room, book_date=day)
        .order_by()
        .values_list("category")
        .annotate(n=Count("id"))
    )
    day_flows = flows(room=room, first=day, last=day)
    takings = [(line.label, booked.get(line.key, 0), line.amount) for line in day_flows.income]
    # today's present people only: a visit left open past its closing time is not
    # "in the room" (it waits on the desk's list 闭馆后仍在场)
    inside = [(row.visit, row.minutes) for row in visits_present(room=room, now=now)]
    after_closing = len(visits_open_past_closing(room=room, now=now))
    open_sessions = list(
        TableSession.objects.filter(room=room, ended_at__isnull=True)
        .select_related("ruleset")
        .prefetch_related("seats")
        .order_by("table_number")
    )
    counts = {
        row["session_id"]: row["played"] - row["reversals"]
        for row in Hand.objects.filter(session__in=open_sessions)
        .order_by()
        .values("session_id")
        .annotate(
            played=Count("id", filter=Q(voids__isnull=True)),
            reversals=Count("id", filter=Q(voids__isnull=False)),
        )
    }
    tables = []
    for session in open_sessions:
        names = {seat.wind: seat.name for seat in session.seats.all()}
        tables.append(
            (
                session,
                [seat_label(w, names) for w in SEATS if w in names],
                counts.get(session.pk, 0),
                int((now - session.started_at).total_seconds() // 60),
            )
        )
    cards = (
        Card.objects.filter(
            member__room=room,
            status=CardStatus.ACTIVE,
            valid_until__lte=day + dt.timedelta(days=window_days),
        )
        .select_related("member")
        .order_by("valid_until", "number")
    )
    return TodayDesk(
        day=day,
        takings=takings,
        takings_total=day_flows.income_total,
        desk_cash=desk_cash(room=room, now=now),
        inside=inside,
        tables=tables,
        reminders=[
            (card, (card.valid_until - day).days, abs((card.valid_until - day).days))
            for card in cards
        ],
        window_days=window_days,
        after_closing=after_closing,
    )
