"""The monthly report's members, cards and visits (the members app's figures)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import pgettext_lazy

from clubapp.core.models import Room
from clubapp.members import selectors as members
from clubapp.members.models import ReceiptKind
from clubapp.reports.selectors.common import ZERO, yuan
from clubapp.reports.selectors.month import Month

#: 周一 … 周日 (Mon … Sun on an English page)
WEEKDAYS: tuple[Any, ...] = (
    pgettext_lazy("weekday", "Mon"),
    pgettext_lazy("weekday", "Tue"),
    pgettext_lazy("weekday", "Wed"),
    pgettext_lazy("weekday", "Thu"),
    pgettext_lazy("weekday", "Fri"),
    pgettext_lazy("weekday", "Sat"),
    pgettext_lazy("weekday", "Sun"),
)
#: the hours of the busiest-hours chart (the room opens at 9:00 and closes by 23:00)
HOURS = tuple(range(8, 23))


@dataclass
class MembersSection:
    """Members and their cards over the month (as the cards are stored now: the
    members app keeps each card's current state and when it last changed)."""

    key = "members"
    new_members: int
    cards_issued: int
    cards_reissued: int
    #: 年审 counted by their receipts: a 年审 at a fee of 0 leaves none
    renewals: int
    renewal_fee_zero: bool
    expired: int
    suspended: int
    revoked: int
    active_at_end: int
    #: (receipt kind label, receipts, amount) for the card fees
    fees: list[tuple[str, int, Decimal]]
    new_member_rows: list[tuple[str, dt.date, str]] = field(default_factory=list)

    @property
    def fees_total(self) -> Decimal:
        return sum((amount for _label, _n, amount in self.fees), ZERO)


def members_section(*, room: Room, month: Month) -> MembersSection:
    start, end = month.start, month.end
    counts = members.card_counts(
        room=room, first=month.first_day, last=month.last_day, start=start, end=end
    )
    kinds = (ReceiptKind.CARD, ReceiptKind.REISSUE, ReceiptKind.RENEWAL)
    by_kind = {
        kind: (n, yuan(amount))
        for kind, (n, amount) in members.receipts_by_kind(
            room=room, start=start, end=end, kinds=kinds
        ).items()
    }
    fees = [(str(kind.label), *by_kind.get(kind.value, (0, ZERO))) for kind in kinds]
    new = list(members.members_registered(room=room, start=start, end=end))
    current = members.current_card_numbers(room=room, members=new)
    return MembersSection(
        new_members=len(new),
        cards_issued=counts["issued"],
        cards_reissued=counts["reissued"],
        renewals=by_kind.get(ReceiptKind.RENEWAL.value, (0, ZERO))[0],
        renewal_fee_zero=room.renewal_fee == 0,
        expired=counts["expired"],
        suspended=counts["suspended"],
        revoked=counts["revoked"],
        active_at_end=counts["active"],
        fees=fees,
        new_member_rows=[
            (m.name, timezone.localdate(m.created_at), current.get(m.pk, "")) for m in new
        ],
    )


# ------------------------------------------------------------------- visits


@dataclass
class VisitsSection:
    """Visits that began in the month; fees of the non-member visits that ended in it
    (the day their receipt was written)."""

    key = "visits"
    member_visits: int
    members_distinct: int
    member_hours: float
    guest_visits: int
    guest_hours_billed: int
    guest_fees: Decimal
    still_open: int
    days_with_visits: int
    #: average number of people present, [weekday][hour index of HOURS]
    busiest: list[list[float]]
    hours: tuple[int, ...] = HOURS
    weekdays: tuple[str, ...] = WEEKDAYS

    @property
    def busiest_rows(self) -> list[tuple[str, list[float]]]:
        return list(zip((str(day) for day in self.weekdays), self.busiest, strict=True))

    @property
    def peak(self) -> tuple[str, int, float] | None:
        best = max(
            ((day, hour, value) for day, row in self.busiest_rows
             for hour, value in zip(self.hours, row, strict=True)),
            key=lambda item: item[2],
            default=None,
        )  # fmt: skip
        return best if best is not None and best[2] > 0 else None


def visits_section(*, room: Room, month: Month) -> VisitsSection:
    counts = members.visit_counts(room=room, start=month.start, end=month.end)
    fees = members.guest_fees(room=room, start=month.start, end=month.end)
    member_time = counts["member_time"] or dt.timedelta()
    times = members.visit_times(room=room, start=month.start, end=month.end)
    busiest, days = _busiest(times, month)
    return VisitsSection(
        member_visits=counts["members"],
        members_distinct=counts["distinct"],
        member_hours=round(member_time.total_seconds() / 3600, 1),
        guest_visits=counts["guests"],
        guest_hours_billed=fees["hours"] or 0,
        guest_fees=yuan(fees["fee"]),
        still_open=counts["open"],
        days_with_visits=days,
        busiest=busiest,
    )


def _busiest(
    times: list[tuple[dt.datetime, dt.datetime | None]], month: Month
) -> tuple[list[list[float]], int]:
    """The average number of people in the room in each hour of each weekday: every
    visit counts for the part of each hour it was present, summed per weekday and
    hour, divided by how many of that weekday the month has. A visit still open
    counts up to the month's end or now, whichever is first."""
    presence = [[0.0] * len(HOURS) for _ in WEEKDAYS]
    first_hour = HOURS[0]
    now = min(timezone.now(), month.end)
    days: set[dt.date] = set()
    for checked_in, checked_out in times:
        start = timezone.localtime(checked_in)
        days.add(start.date())
        weekday = start.weekday()
        # seconds from the local midnight of the day it began (a stay never spans
        # midnight in a room that closes by 23:00; any part past midnight is cut)
        begin = start.hour * 3600 + start.minute * 60 + start.second
        length = ((checked_out or max(now, checked_in)) - checked_in).total_seconds()
        end = min(begin + length, 24 * 3600)
        hour = int(begin // 3600)
        while hour * 3600 < end:
            index = hour - first_hour
            if 0 <= index < len(HOURS):
                overlap = min(end, (hour + 1) * 3600) - max(begin, hour * 3600)
                presence[weekday][index] += overlap / 3600
            hour += 1
    weekday_count = [0] * 7
    for day in month.days():
        weekday_count[day.weekday()] += 1
    averages = [
        [round(value / weekday_count[wd], 1) if weekday_count[wd] else 0.0 for value in row]
        for wd, row in enumerate(presence)
    ]
    return averages, len(days)
