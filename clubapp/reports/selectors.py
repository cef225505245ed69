"""Reads of the reports app: the monthly report (月报), today's page, a settlement
sheet. Everything is read from the other apps' selectors and models, never written.

The monthly report is one object made of sections, each computed by one function
(``MONTHLY_SECTIONS``); the page, the xlsx and the PDF all render that object. The
cash book's sections (income, hand-overs, expenses, balances, the equipment fund)
read the books' ``month_summary``, so the report's figures are the cash book's.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

import scoring.nanjing
import scoring.worksite
from clubapp.books.models import IncomeCategory, IncomeEntry, Reversal, ReversalKind
from clubapp.books.selectors import (
    DeskCash,
    MonthSummary,
    desk_cash,
    flows,
    fund_summary,
    income_list,
    month_summary,
)
from clubapp.books.selectors.summaries import income_by_day
from clubapp.core.models import Room
from clubapp.members.models import Card, CardStatus, Member, Receipt, ReceiptKind, Visit
from clubapp.members.selectors import visits_open_past_closing, visits_present
from clubapp.play.models import (
    SEATS,
    Hand,
    HandSignoff,
    LedgerLine,
    Seat,
    Settlement,
    TableSession,
    Wind,
)
from clubapp.play.reasons import reason_name
from scoring.features import big_hand_codes, is_big_hand

ZERO = Decimal("0.00")
#: 东 南 西 北 (East South West North on an English page): the model's labels
SEAT_NAMES: dict[str, Any] = dict(Wind.choices)
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


def yuan(value: Decimal | None) -> Decimal:
    """An amount of money with its two places (SQLite sums lose them)."""
    return (value or ZERO).quantize(Decimal("0.01"))


def describe_hand(
    record: dict[str, Any], result: dict[str, Any], names: dict[str, str]
) -> tuple[str, str]:
    """("南 陈喆 ← 东 王堃 88", "清一色") for a hand; a drawn hand says so."""
    wins = result.get("wins") or []
    if not wins:
        return str(_("Drawn hand")), ""
    parts, features = [], []
    records = record.get("wins") or []
    for win, rec in zip(wins, records + [{}] * (len(wins) - len(records)), strict=True):
        seat = win["seat"]
        who = f"{SEAT_NAMES.get(seat, seat)} {names.get(seat) or ''}".strip()
        discarder = rec.get("discarder")
        if discarder:
            by = f"{SEAT_NAMES.get(discarder, discarder)} {names.get(discarder) or ''}".strip()
            parts.append(f"{who} ← {by} {win.get('value', '')}")
        else:
            parts.append(f"{who} {_('self-drawn')} {win.get('value', '')}")
        features += [b["label"] for b in win.get("breakdown", [])]
    # the rule names stay Chinese (a page in English marks them so), joined as Chinese is
    return pgettext("list separator", "; ").join(parts), "、".join(features)


# ---------------------------------------------------------------------- month


@dataclass(frozen=True)
class Month:
    """A calendar month in the room's time zone."""

    year: int
    month: int

    @classmethod
    def parse(cls, text: str) -> Month:
        """``2026-11`` → Month(2026, 11); ValueError otherwise."""
        match = re.fullmatch(r"(\d{4})-(\d{1,2})", (text or "").strip())
        if match is None:
            raise ValueError(f"not a month: {text!r}")
        year, month = int(match.group(1)), int(match.group(2))
        if not (1 <= month <= 12 and 2000 <= year <= 2999):
            raise ValueError(f"not a month: {text!r}")
        return cls(year, month)

    @classmethod
    def of(cls, day: dt.date) -> Month:
        return cls(day.year, day.month)

    @property
    def first_day(self) -> dt.date:
        return dt.date(self.year, self.month, 1)

    @property
    def next(self) -> Month:
        return Month(self.year + self.month // 12, self.month % 12 + 1)

    @property
    def previous(self) -> Month:
        return Month(self.year - (self.month == 1), (self.month - 2) % 12 + 1)

    @property
    def last_day(self) -> dt.date:
        return self.next.first_day - dt.timedelta(days=1)

    @property
    def start(self) -> dt.datetime:
        return timezone.make_aware(dt.datetime.combine(self.first_day, dt.time.min))

    @property
    def end(self) -> dt.datetime:
        """The first moment after the month (ranges are start <= t < end)."""
        return self.next.start

    @property
    def slug(self) -> str:
        return f"{self.year}-{self.month:02d}"

    @property
    def label(self) -> str:
        """2026年11月 (November 2026 on an English page)."""
        return date_format(self.first_day, "YEAR_MONTH_FORMAT")

    def days(self) -> list[dt.date]:
        return [self.first_day + dt.timedelta(days=n) for n in range(self.last_day.day)]


def _in(month: Month, field_name: str) -> Q:
    return Q(**{f"{field_name}__gte": month.start, f"{field_name}__lt": month.end})


# ------------------------------------------------- the cash book (收, 支, 缴款)


@dataclass
class IncomeSection:
    """The month's 收 of the cash book (``books.selectors.month_summary``), by
    category and by day: booked in the month (by book day, a 补记 entry on the day
    it was booked), net of the reversals booked in it."""

    key = "income"
    categories: list[str]
    #: (category label, entries booked, amount net of reversals), every category
    by_category: list[tuple[str, int, Decimal]]
    #: (day, amounts in the order of ``categories``, day total), days with income
    by_day: list[tuple[dt.date, list[Decimal], Decimal]]
    total: Decimal
    count: int
    #: the month's receipts (收据) in the members app: equal to ``total`` when every
    #: fee was booked (each receipt has its entry)
    receipts_total: Decimal
    #: reversed in the month (included, negative, in ``total``)
    reversed_total: Decimal = ZERO
    #: the fees booked (the members app's categories, before reversals): each has
    #: its receipt, so they equal ``receipts_total``
    fees_total: Decimal = ZERO

    @property
    def ties_out(self) -> bool:
        return self.receipts_total == self.fees_total


@dataclass
class CashBookSection:
    """The rest of the month's cash book, as ``books.selectors.month_summary`` has it:
    the balance (结余 = income − expenses since the books began), the cash on hand
    (库存现金 = income − handed over: 收支两条线, no expense is paid from it), the
    expenses by category and by purchase plan."""

    key = "cash_book"
    summary: MonthSummary
    #: (label, amount) of every expense category; of the plans with expenses
    expenses_by_category: list[tuple[str, Decimal]]
    expenses_by_plan: list[tuple[str, Decimal]]

    @property
    def opening_balance(self) -> Decimal:
        return self.summary.opening_balance

    @property
    def income_total(self) -> Decimal:
        return self.summary.income_total

    @property
    def expense_total(self) -> Decimal:
        return self.summary.expense_total

    @property
    def closing_balance(self) -> Decimal:
        return self.summary.closing_balance

    @property
    def cash_opening(self) -> Decimal:
        return self.summary.cash_opening

    @property
    def handed_over(self) -> Decimal:
        return self.summary.handed_over

    @property
    def cash_closing(self) -> Decimal:
        return self.summary.cash_closing


@dataclass
class EquipmentFundSection:
    """器材费专款: the non-member equipment fees (器材损耗费) go to equipment only;
    the fund pays the expenses on equipment and facility lines (the books'
    ``FUND_CATEGORIES``). The month's figures and those since the books began."""

    key = "equipment_fund"
    opening: Decimal
    collected_month: Decimal
    spent_month: Decimal
    #: the fund's balance at the month's end (opening + collected − spent)
    balance: Decimal
    collected_to_date: Decimal
    spent_to_date: Decimal


def cash_book_sections(
    *, room: Room, month: Month
) -> tuple[IncomeSection, CashBookSection, EquipmentFundSection]:
    """The three sections of the cash book, from one ``month_summary`` of the books."""
    summary = month_summary(room=room, year=month.year, month=month.month)
    first, last = summary.first_day, summary.last_day
    booked = {
        row["category"]: (row["n"], yuan(row["gross"]))
        for row in IncomeEntry.objects.filter(room=room, book_date__gte=first, book_date__lte=last)
        .order_by()
        .values("category")
        .annotate(n=Count("id"), gross=Sum("amount"))
    }
    counts = {category: n for category, (n, _gross) in booked.items()}
    categories = list(IncomeCategory)
    amounts = {line.key: line.amount for line in summary.income}
    by_category = [
        (str(c.label), counts.get(c.value, 0), amounts.get(c.value, ZERO)) for c in categories
    ]
    days = income_by_day(room=room, first=first, last=last)
    by_day = []
    for day in sorted(days):
        row = [days[day].get(c.value, ZERO) for c in categories]
        by_day.append((day, row, sum(row, ZERO)))
    receipts = (
        Receipt.objects.filter(room=room)
        .filter(_in(month, "paid_at"))
        .aggregate(total=Sum("amount"))["total"]
    )
    reversed_total = yuan(
        Reversal.objects.filter(
            room=room, kind=ReversalKind.INCOME, book_date__gte=first, book_date__lte=last
        ).aggregate(t=Sum("amount"))["t"]
    )
    fees = {IncomeCategory.CARD_FEE, IncomeCategory.RENEWAL_FEE, IncomeCategory.GUEST_FEE}
    income = IncomeSection(
        categories=[str(c.label) for c in categories],
        by_category=by_category,
        by_day=by_day,
        total=summary.income_total,
        count=sum(counts.values()),
        receipts_total=yuan(receipts),
        reversed_total=reversed_total,
        fees_total=sum((gross for k, (_n, gross) in booked.items() if k in fees), ZERO),
    )
    cash_book = CashBookSection(
        summary=summary,
        expenses_by_category=[(line.label, line.amount) for line in summary.expenses],
        expenses_by_plan=[(line.label, line.amount) for line in summary.expenses_by_plan],
    )
    since_start = fund_summary(room=room, first=None, last=last)
    fund = EquipmentFundSection(
        opening=summary.fund.opening,
        collected_month=summary.fund.collected,
        spent_month=summary.fund.spent,
        balance=summary.fund.closing,
        collected_to_date=since_start.collected,
        spent_to_date=since_start.spent,
    )
    return income, cash_book, fund


# ------------------------------------------------------------------ members


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
    changed = _in(month, "status_changed_at")
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
    receipts = Receipt.objects.filter(room=room).filter(_in(month, "paid_at"))
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
    new = Member.objects.filter(room=room).filter(_in(month, "created_at")).order_by("created_at")
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
    visits = Visit.objects.filter(room=room).filter(_in(month, "checked_in_at")).order_by()
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
        .filter(_in(month, "checked_out_at"))
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


# ---------------------------------------------------------------- table play


@dataclass
class BigHand:
    played_at: dt.datetime
    table: int
    session_id: int
    number: int
    winner: str
    features: list[str]
    value: int


@dataclass
class PlaySection:
    """Table sessions that started in the month and their hands (points 花 only)."""

    key = "play"
    sessions: int
    hands: int
    voided: int
    #: (ruleset name, sessions, hands standing)
    by_ruleset: list[tuple[str, int, int]]
    big_hands: list[BigHand]
    #: (member name, card number, sessions, points), the month's points of each member
    member_points: list[tuple[str, str, int, int]]
    #: points of the seats that were not a member's (guests)
    guest_points: int
    guest_seats: int

    @property
    def points_balance(self) -> int:
        """Every hand's points sum to zero, so members' and guests' points do too."""
        return sum(p for *_rest, p in self.member_points) + self.guest_points


def big_hand_pattern(family: str) -> str:
    """A regular expression over a hand's wins (JSON text) that every big win of
    ``family`` matches (``scoring.features.big_hand_codes``): the database's quick
    filter; each candidate is checked exactly with ``is_big_hand``."""
    return '"(' + "|".join(sorted(big_hand_codes(family))) + ')"'


def _big_candidates() -> Q:
    worksite = Q(ruleset__family="worksite")
    return (worksite & Q(result__wins__regex=big_hand_pattern("worksite"))) | (
        ~worksite & Q(result__wins__regex=big_hand_pattern("nanjing"))
    )


def _feature_names(family: str) -> dict[str, str]:
    return scoring.worksite.NAMES if family == "worksite" else scoring.nanjing.NAMES


def play_section(*, room: Room, month: Month, big_hands_limit: int = 100) -> PlaySection:
    sessions = TableSession.objects.filter(room=room).filter(_in(month, "started_at")).order_by()
    hands = Hand.objects.filter(session__in=sessions).order_by()
    per_ruleset_sessions = {
        row["ruleset__name"]: row["n"]
        for row in sessions.values("ruleset__name").annotate(n=Count("id"))
    }
    per_ruleset_hands = {
        row["ruleset__name"]: (row["played"], row["reversals"])
        for row in hands.values("ruleset__name").annotate(
            played=Count("id", filter=Q(voids__isnull=True)),
            reversals=Count("id", filter=Q(voids__isnull=False)),
        )
    }
    names = sorted(set(per_ruleset_sessions) | set(per_ruleset_hands))
    by_ruleset = [
        (
            name,
            per_ruleset_sessions.get(name, 0),
            per_ruleset_hands.get(name, (0, 0))[0] - per_ruleset_hands.get(name, (0, 0))[1],
        )
        for name in names
    ]
    voided = sum(r for _p, r in per_ruleset_hands.values())
    seats = _seats_of(sessions)
    big = _big_hands(sessions, seats, big_hands_limit)
    member_points, guest_points, guest_seats = _points(sessions, seats)
    return PlaySection(
        sessions=sum(per_ruleset_sessions.values()),
        hands=sum(h for _n, _s, h in by_ruleset),
        voided=voided,
        by_ruleset=by_ruleset,
        big_hands=big,
        member_points=member_points,
        guest_points=guest_points,
        guest_seats=guest_seats,
    )


@dataclass(frozen=True)
class _SeatRow:
    name: str
    member_id: int | None
    member_name: str
    card: str


def _seats_of(sessions: QuerySet[TableSession]) -> dict[tuple[int, str], _SeatRow]:
    """Each seat of the sessions, with the member behind it: through the visit it was
    seated with, or through the member account that sat there."""
    seats = Seat.objects.filter(session__in=sessions).values_list(
        "session_id", "wind", "name", "user_id", "visit__member_id"
    )
    rows = list(seats)
    users = {user for *_rest, user, _m in rows if user is not None}
    by_user = dict(Member.objects.filter(user_id__in=users).values_list("user_id", "id"))
    ids = {m for *_rest, m in rows if m is not None} | set(by_user.values())
    members = {m.pk: m for m in Member.objects.filter(pk__in=ids)}
    cards = {
        c.member_id: c.number
        for c in Card.objects.filter(member_id__in=ids)
        .exclude(status=CardStatus.VOID)
        .order_by("issued_on", "pk")
    }
    out = {}
    for session_id, wind, name, user, visit_member in rows:
        member_id = visit_member or by_user.get(user)
        member = members.get(member_id) if member_id else None
        out[(session_id, wind)] = _SeatRow(
            name=name,
            member_id=member.pk if member else None,
            member_name=member.name if member else "",
            card=cards.get(member.pk, "") if member else "",
        )
    return out


def _big_hands(
    sessions: QuerySet[TableSession], seats: dict[tuple[int, str], _SeatRow], limit: int
) -> list[BigHand]:
    """The month's big hands in the order the nights were played, at most ``limit``:
    read a few sessions at a time, so that the database stops looking once the list
    is full (one regular expression over each hand's wins as a quick filter; each
    candidate checked exactly here)."""
    ids = list(sessions.order_by("started_at", "id").values_list("id", flat=True))
    out: list[BigHand] = []
    for first in range(0, len(ids), 50):
        candidates = (
            Hand.objects.filter(
                _big_candidates(),
                session_id__in=ids[first : first + 50],
                voids__isnull=True,
            )
            .order_by("session__started_at", "session_id", "number")
            .values_list(
                "session_id",
                "number",
                "created_at",
                "session__table_number",
                "ruleset__family",
                "result__wins",
                "voided_by",
            )
        )
        for session_id, number, created, table, family, wins, voided in candidates:
            if voided is not None:
                continue
            for win in wins or []:
                if not is_big_hand(family, win.get("features", [])):
                    continue
                seat = seats.get((session_id, win["seat"]))
                labels = _feature_names(family)
                out.append(
                    BigHand(
                        played_at=created,
                        table=table,
                        session_id=session_id,
                        number=number,
                        winner=f"{SEAT_NAMES[win['seat']]} {seat.name if seat else ''}".strip(),
                        features=[labels.get(f, f) for f in win.get("features", [])],
                        value=win.get("value", 0),
                    )
                )
            if len(out) >= limit:
                return out[:limit]
    return out


def _points(
    sessions: QuerySet[TableSession], seats: dict[tuple[int, str], _SeatRow]
) -> tuple[list[tuple[str, str, int, int]], int, int]:
    sums = (
        LedgerLine.objects.filter(hand__session__in=sessions)
        .order_by()
        .values_list("hand__session_id", "seat")
        .annotate(points=Sum("points"))
    )
    per_member: dict[int, list[Any]] = {}
    guest_points = 0
    guest_seats: set[tuple[int, str]] = set()
    for session_id, wind, points in sums:
        seat = seats.get((session_id, wind))
        if seat is None or seat.member_id is None:
            guest_points += points
            guest_seats.add((session_id, wind))
            continue
        row = per_member.setdefault(seat.member_id, [seat.member_name, seat.card, set(), 0])
        row[2].add(session_id)
        row[3] += points
    members = [(name, card, len(s), points) for name, card, s, points in per_member.values()]
    members.sort(key=lambda r: (-r[3], r[0]))
    return members, guest_points, len(guest_seats)


# ------------------------------------------------------------ the report


@dataclass
class MonthlyReport:
    room: Room
    month: Month
    made_at: dt.datetime
    sections: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        # report.income, report.members …: the sections by key
        sections = self.__dict__.get("sections", {})
        if name in sections:
            return sections[name]
        raise AttributeError(name)


#: the sections of the monthly report, in order: one function each, keyword-only
#: (room, month). A new section (the cash book's hand-overs, expenses, balances) is
#: one more entry here, a template ``reports/monthly/_<key>.html`` and a sheet
#: writer in ``reports.monthly_xlsx``.
MONTHLY_SECTIONS: list[Callable[..., Any]] = [
    cash_book_sections,
    members_section,
    visits_section,
    play_section,
]


def monthly_report(*, room: Room, month: Month) -> MonthlyReport:
    sections = {}
    for section in MONTHLY_SECTIONS:
        result = section(room=room, month=month)
        # a function may give several sections that share their reads (the cash book)
        for part in result if isinstance(result, tuple) else (result,):
            sections[part.key] = part
    return MonthlyReport(room=room, month=month, made_at=timezone.now(), sections=sections)


def income_entries_of_month(*, room: Room, month: Month) -> QuerySet[IncomeEntry]:
    """The 收 entries booked in the month, oldest first (the report's ledger sheet)."""
    return (
        income_list(room=room)
        .filter(book_date__gte=month.first_day, book_date__lte=month.last_day)
        .order_by("received_at", "pk")
    )


def income_reversals_of_month(*, room: Room, month: Month) -> QuerySet[Reversal]:
    """The reversals of 收 entries booked in the month (negative lines of the sheet)."""
    return (
        Reversal.objects.filter(
            room=room,
            kind=ReversalKind.INCOME,
            book_date__gte=month.first_day,
            book_date__lte=month.last_day,
        )
        .select_related("income", "reversed_by")
        .order_by("reversed_at", "pk")
    )


# ---------------------------------------------------------- settlement sheet


@dataclass
class SheetEntry:
    number: int
    booked_at: dt.datetime
    description: str
    #: (seat label with name, breakdown labels with points) per win
    wins: list[tuple[str, list[tuple[str, int]]]]
    #: (payer, payee, amount, reason label)
    payments: list[tuple[str, str, int, str]]
    points: list[int]
    signed_by: list[str]
    reversal_of: int | None
    voided_by: int | None

    @property
    def stands(self) -> bool:
        return self.reversal_of is None and self.voided_by is None


@dataclass
class SheetStatement:
    number: int
    first_number: int
    last_number: int
    made_at: dt.datetime
    net: list[int]
    transfers: list[tuple[str, str, int]]


@dataclass
class SettlementSheet:
    """A table session on paper: seats, every entry with its breakdown and payments,
    who confirmed it, the statements and their transfers, and the totals."""

    session: TableSession
    seats: list[tuple[str, str]]
    entries: list[SheetEntry]
    statements: list[SheetStatement]
    totals: list[int]

    @property
    def standing(self) -> int:
        return sum(1 for e in self.entries if e.stands)


def seat_label(wind: str, names: dict[str, str]) -> str:
    return f"{SEAT_NAMES.get(wind, wind)} {names.get(wind) or ''}".strip()


def settlement_sheet(*, session: TableSession) -> SettlementSheet:
    """Read-only: the session's seats, hands, sign-offs, statements and ledger sums."""
    names = dict(Seat.objects.filter(session=session).values_list("wind", "name"))
    signoffs: dict[int, list[str]] = defaultdict(list)
    for hand_id, wind in HandSignoff.objects.filter(hand__session=session).values_list(
        "hand_id", "seat"
    ):
        signoffs[hand_id].append(seat_label(wind, names))
    rows = list(
        Hand.objects.filter(session=session)
        .order_by("number")
        .values("id", "number", "created_at", "record", "result", "voids__number")
    )
    voided_by = {r["voids__number"]: r["number"] for r in rows if r["voids__number"] is not None}
    entries = []
    for row in rows:
        record, result = row["record"] or {}, row["result"] or {}
        net = result.get("net") or {}
        reversal_of = row["voids__number"]
        if reversal_of is not None:
            description = _("Reverses hand #%(n)s") % {"n": reversal_of}
            wins: list[tuple[str, list[tuple[str, int]]]] = []
        else:
            description, _features = describe_hand(record, result, names)
            wins = [
                (
                    seat_label(win["seat"], names),
                    [(b["label"], b["points"]) for b in win.get("breakdown", [])],
                )
                for win in result.get("wins") or []
            ]
        entries.append(
            SheetEntry(
                number=row["number"],
                booked_at=row["created_at"],
                description=description,
                wins=wins,
                payments=[
                    (
                        seat_label(p["from"], names),
                        seat_label(p["to"], names),
                        p["amount"],
                        reason_name(p["reason"]),
                    )
                    for p in result.get("payments") or []
                ],
                points=[net.get(w, 0) for w in SEATS],
                signed_by=sorted(signoffs.get(row["id"], [])),
                reversal_of=reversal_of,
                voided_by=voided_by.get(row["number"]),
            )
        )
    statements = []
    for s in Settlement.objects.filter(session=session).order_by("number"):
        frozen = s.statement.get("names") or names
        statements.append(
            SheetStatement(
                number=s.number,
                first_number=s.first_number,
                last_number=s.last_number,
                made_at=s.created_at,
                net=[s.statement.get("net", {}).get(w, 0) for w in SEATS],
                transfers=[
                    (seat_label(t["from"], frozen), seat_label(t["to"], frozen), t["amount"])
                    for t in s.statement.get("transfers", [])
                ],
            )
        )
    sums = dict(
        LedgerLine.objects.filter(hand__session=session)
        .order_by()
        .values_list("seat")
        .annotate(t=Sum("points"))
    )
    return SettlementSheet(
        session=session,
        seats=[(w, seat_label(w, names)) for w in SEATS],
        entries=entries,
        statements=statements,
        totals=[sums.get(w, 0) for w in SEATS],
    )


# ------------------------------------------------------------ today's page


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
