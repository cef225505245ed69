"""The monthly report's members, cards and visits (the members app's figures)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from clubapp.core.models import Room
from clubapp.members.models import Card, CardStatus, Member, Receipt, ReceiptKind, Visit
from clubapp.reports.selectors.common import ZERO, yuan
from clubapp.reports.selectors.month import Month, in_month

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
    cards = Card.objects.filter(member__room=room)
    first, last = month.first_day, month.last_day
    changed = in_month(month, "status_changed_at")
    counts = cards.aggregate(
        issued=Count("id", filter=Q(issued_on__range=(first, last), replaces__isnull=True)),
        reissued=Count("id", filter=Q(issued_on__range=(first, last), replaces__isnull=False)),
        expired=Count("id", filter=Q(status=CardStatus.ACTIVE, valid_until__range=(first, last))),
        suspended=Count("id", filter=Q(status=CardStatus.SUSPENDED) & changed),
        revoked=Count("id", filter=Q(status=CardStatus.REVOKED) & changed),
        active=Count(
            "id",
            filter=Q(status=CardStatus.ACTIVE, issued_on__lte=last, valid_until__gte=last),
        ),
    )
    receipts = Receipt.objects.filter(room=room).filter(in_month(month, "paid_at"))
    by_kind = {
        row["kind"]: (row["n"], yuan(row["amount"]))
        for row in receipts.filter(
            kind__in=[ReceiptKind.CARD, ReceiptKind.REISSUE, ReceiptKind.RENEWAL]
        )
        .values("kind")
        .annotate(n=Count("id"), amount=Sum("amount"))
    }
    fees = [
        (str(kind.label), *by_kind.get(kind.value, (0, ZERO)))
        for kind in (ReceiptKind.CARD, ReceiptKind.REISSUE, ReceiptKind.RENEWAL)
    ]
    new = (
        Member.objects.filter(room=room)
        .filter(in_month(month, "created_at"))
        .order_by("created_at")
    )
    current = {
        c.member_id: c.number
        for c in cards.filter(member__in=new).exclude(status=CardStatus.VOID).order_by("issued_on")
    }
    return MembersSection(
        new_members=new.count(),
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
    visits = Visit.objects.filter(room=room).filter(in_month(month, "checked_in_at")).order_by()
    duration = ExpressionWrapper(
        F("checked_out_at") - F("checked_in_at"), output_field=DurationField()
    )
    counts = visits.aggregate(
        members=Count("id", filter=Q(member__isnull=False)),
        distinct=Count("member", distinct=True),
        guests=Count("id", filter=Q(member__isnull=True)),
        open=Count("id", filter=Q(checked_out_at__isnull=True)),
        member_time=Sum(duration, filter=Q(member__isnull=False, checked_out_at__isnull=False)),
    )
    fees = (
        Visit.objects.filter(room=room, member__isnull=True)
        .filter(in_month(month, "checked_out_at"))
        .order_by()
        .aggregate(hours=Sum("hours_billed"), fee=Sum("fee"))
    )
    member_time = counts["member_time"] or dt.timedelta()
    busiest, days = _busiest(visits, month)
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


def _busiest(visits: QuerySet[Visit], month: Month) -> tuple[list[list[float]], int]:
    """The average number of people in the room in each hour of each weekday: every
    visit counts for the part of each hour it was present, summed per weekday and
    hour, divided by how many of that weekday the month has. A visit still open
    counts up to the month's end or now, whichever is first."""
    presence = [[0.0] * len(HOURS) for _ in WEEKDAYS]
    first_hour = HOURS[0]
    now = min(timezone.now(), month.end)
    days: set[dt.date] = set()
    for checked_in, checked_out in visits.values_list("checked_in_at", "checked_out_at"):
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
