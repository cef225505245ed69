"""Today at the desk (today's page, and the manager's home page through the panel
the reports app registers)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone

from clubapp.books import selectors as books
from clubapp.books.selectors import DeskCash
from clubapp.core.models import Room
from clubapp.members import selectors as members
from clubapp.members.models import Card, Visit
from clubapp.play import selectors as play
from clubapp.play.models import SEATS, TableSession
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
    booked = books.income_booked(room=room, first=day, last=day)
    entries = {category: n for category, (n, _gross) in booked.items()}
    day_flows = books.flows(room=room, first=day, last=day)
    takings = [(line.label, entries.get(line.key, 0), line.amount) for line in day_flows.income]
    # today's present people only: a visit left open past its closing time is not
    # "in the room" (it waits on the desk's list 闭馆后仍在场)
    inside = [(row.visit, row.minutes) for row in members.visits_present(room=room, now=now)]
    after_closing = len(members.visits_open_past_closing(room=room, now=now))
    open_sessions = play.sessions_open(room=room)
    counts = play.hands_standing_by_session(sessions=open_sessions)
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
    cards = members.cards_ending_by(room=room, day=day + dt.timedelta(days=window_days))
    return TodayDesk(
        day=day,
        takings=takings,
        takings_total=day_flows.income_total,
        desk_cash=books.desk_cash(room=room, now=now),
        inside=inside,
        tables=tables,
        reminders=[
            (card, (card.valid_until - day).days, abs((card.valid_until - day).days))
            for card in cards
        ],
        window_days=window_days,
        after_closing=after_closing,
    )
