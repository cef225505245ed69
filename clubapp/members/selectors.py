"""Reads of the members app: member lists, cards, today's visits, hours, free tables.

Other apps read members data through these functions; this app reads no other app
(a table in play is marked on the table by the play app, ``services.table_set_in_play``).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import (
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables

from clubapp.core.models import Room
from clubapp.members.crypto import id_number_digest
from clubapp.members.idnumbers import id_number_normalize
from clubapp.members.models import (
    DEFAULT_WEEKLY_PERIODS,
    LATEST_CLOSING,
    Card,
    CardState,
    CardStatus,
    ExceptionKind,
    IdNumberReveal,
    Member,
    OpeningException,
    OpeningPeriod,
    Receipt,
    Table,
    Visit,
    Weekday,
)

Period = tuple[dt.time, dt.time]


# ------------------------------------------------------------------ members


@sensitive_variables()
def member_list(*, room: Room, q: str = "", state: str = "") -> QuerySet[Member]:
    """Members with their current card (the newest one not voided) as annotations.

    ``q`` matches the name, the phone, or any card number the member has had;
    ``state`` is a CardState value or "none" (no card yet).
    """
    current = Card.objects.filter(room=room, member=OuterRef("pk")).exclude(status=CardStatus.VOID)
    current = current.order_by("-issued_on", "-pk")
    members = Member.objects.filter(room=room).annotate(
        card_number=Subquery(current.values("number")[:1]),
        card_status=Subquery(current.values("status")[:1]),
        card_valid_until=Subquery(current.values("valid_until")[:1]),
    )
    q = (q or "").strip()
    if q:
        match = (
            Q(name__icontains=q)
            | Q(phone__contains=q)
            | Q(Exists(Card.objects.filter(room=room, member=OuterRef("pk"), number__icontains=q)))
        )
        number = id_number_normalize(q)
        if len(number) == 18:
            # An ID number typed into the search: found by its keyed hash, never in clear.
            match |= Q(id_number_hash=id_number_digest(number))
        members = members.filter(match)
    today = timezone.localdate()
    if state == CardState.ACTIVE:
        members = members.filter(card_status=CardStatus.ACTIVE, card_valid_until__gte=today)
    elif state == CardState.EXPIRED:
        members = members.filter(card_status=CardStatus.ACTIVE, card_valid_until__lt=today)
    elif state in (CardState.SUSPENDED, CardState.REVOKED):
        members = members.filter(card_status=state)
    elif state == "none":
        members = members.filter(card_status__isnull=True)
    return members.order_by("name_pinyin", "name", "pk")


def member_state(member: Member, *, day: dt.date | None = None) -> str:
    """The state of the member's current card, or "none"."""
    card = member_current_card(member=member)
    return card.state_on(day or timezone.localdate()).value if card else "none"


def member_current_card(*, member: Member) -> Card | None:
    return member.cards.exclude(status=CardStatus.VOID).order_by("-issued_on", "-pk").first()


def member_for_user(*, room: Room | None, user: Any) -> Member | None:
    """The member whose account ``user`` is, in ``room`` (None elsewhere)."""
    if room is None or not getattr(user, "is_authenticated", False):
        return None
    return Member.objects.filter(room=room, user=user).select_related("room").first()


def card_get_by_number(*, room: Room, number: str) -> Card | None:
    number = (number or "").strip()
    if not number:
        return None
    return Card.objects.select_related("member").filter(room=room, number=number).first()


# Separators a desk types or a scanner sends inside a card number: 2026 0007, 2026-0007.
_SEPARATORS = re.compile(r"[\s\-_/.·—－]+")


def desk_lookup(*, room: Room, q: str, limit: int = 20) -> list[tuple[Member, Card | None]]:
    """Who the desk means by ``q``: a card number in any form, a phone, or a name.

    Card numbers: ``2026-0007`` as printed (and as its QR code sends it, typed by a
    scanner as keyboard), ``20260007``, ``2026 0007``, or just the sequence ``0007`` /
    ``7`` (every year's card of that sequence, newest first; void cards left out).
    Digits are also matched against phone numbers (five digits or more); anything
    else against names. Each member comes with the card found, else their current one.
    """
    text = unicodedata.normalize("NFKC", q or "").strip()
    if not text:
        return []
    compact = _SEPARATORS.sub("", text)
    found: list[tuple[Member, Card | None]] = []
    if compact.isdigit():
        cards = Card.objects.filter(room=room).select_related("member")
        if len(compact) == 8:
            cards = cards.filter(number=f"{compact[:4]}-{compact[4:]}")
        elif len(compact) <= 4:
            cards = cards.filter(number__endswith=f"-{int(compact):04d}").exclude(
                status=CardStatus.VOID
            )
        else:
            cards = cards.none()
        found = [(card.member, card) for card in cards.order_by("-issued_on", "-pk")[:limit]]
        if len(compact) >= 5:
            seen = {member.pk for member, _card in found}
            for member in Member.objects.filter(room=room, phone__contains=compact)[:limit]:
                if member.pk not in seen:
                    found.append((member, member_current_card(member=member)))
        return found
    members = Member.objects.filter(room=room, name__icontains=text).order_by(
        "name_pinyin", "name", "pk"
    )
    return [(member, member_current_card(member=member)) for member in members[:limit]]


def member_cards(*, member: Member) -> QuerySet[Card]:
    return member.cards.select_related("replaces").order_by("-issued_on", "-pk")


def member_visits(*, member: Member, limit: int = 50) -> QuerySet[Visit]:
    return member.visits.select_related("card").order_by("-checked_in_at")[:limit]


def member_id_number_reveals(*, member: Member) -> QuerySet[IdNumberReveal]:
    """Who was shown the member's full ID number, and when: newest first."""
    return IdNumberReveal.objects.filter(member=member).select_related("by")


def member_receipts(*, member: Member) -> QuerySet[Receipt]:
    return member.receipts.select_related("card").order_by("-paid_at")


def receipt_get(*, room: Room, number: str) -> Receipt | None:
    return (
        Receipt.objects.select_related("member", "card", "visit", "received_by")
        .filter(room=room, number=number)
        .first()
    )


# ------------------------------------------------------------------- visits


def _day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min))
    return start, start + dt.timedelta(days=1)


def visits_today(*, room: Room, day: dt.date | None = None) -> QuerySet[Visit]:
    """Visits that began today (a visit left open from an earlier day is not today's:
    it is on the desk's list of visits still open after closing)."""
    start, end = _day_bounds(day or timezone.localdate())
    return (
        Visit.objects.filter(room=room, checked_in_at__gte=start, checked_in_at__lt=end)
        .select_related("member", "card", "admitted_by")
        .order_by("-checked_in_at", "-pk")
    )


def guest_hours(checked_in_at: dt.datetime, checked_out_at: dt.datetime) -> int:
    """Billed hours: every started hour counts, and a visit is at least one hour."""
    seconds = (checked_out_at - checked_in_at).total_seconds()
    return max(1, math.ceil(seconds / 3600))


def visit_closing_at(*, visit: Visit, periods: list[Period] | None = None) -> dt.datetime:
    """When the room closed (or closes) on the visit: the end of the first opening period
    of its day that ends after the check-in. A check-in after the day's last period (a
    special admission) closes at 23:00, the latest the regulations allow (篇三 三).

    ``periods`` are the opening periods of the check-in's day, when the caller has them.
    """
    local = timezone.localtime(visit.checked_in_at)
    if periods is None:
        periods = opening_periods_on(room=visit.room, day=local.date())
    moment = local.time()
    closes = next((c for _o, c in periods if c > moment), LATEST_CLOSING)
    return local.replace(hour=closes.hour, minute=closes.minute, second=0, microsecond=0)


def visit_is_past_closing(*, visit: Visit, now: dt.datetime | None = None) -> bool:
    """An open visit whose period has closed: 闭馆后仍在场."""
    return visit.is_open and (now or timezone.now()) >= visit_closing_at(visit=visit)


def visit_fee_so_far(
    *, visit: Visit, now: dt.datetime | None = None, left_at: dt.datetime | None = None
) -> tuple[int, Decimal]:
    """Hours and fee of a non-member leaving at ``left_at`` (a member: 0 hours, 0.00 yuan).

    Without ``left_at``: leaving now, but never later than the visit's closing time, so
    the fee of a guest nobody checked out stops growing when the room closes.
    """
    if not visit.is_guest:
        return 0, Decimal("0.00")
    if left_at is None:
        left_at = min(now or timezone.now(), visit_closing_at(visit=visit))
    hours = guest_hours(visit.checked_in_at, max(left_at, visit.checked_in_at))
    return hours, (visit.room.guest_hourly_fee * hours).quantize(Decimal("0.01"))


@dataclass(frozen=True)
class VisitNow:
    """An open or closed visit as the desk sees it now."""

    visit: Visit
    #: minutes in the room: so far (capped at closing), or the whole stay once out
    minutes: int
    #: a non-member's fee so far (capped at closing); None for members and closed visits
    fee_so_far: Decimal | None
    #: open while its period has closed
    past_closing: bool
    closing_at: dt.datetime | None


def _visit_now(visit: Visit, *, now: dt.datetime, periods: list[Period]) -> VisitNow:
    if not visit.is_open:
        assert visit.checked_out_at is not None
        minutes = int((visit.checked_out_at - visit.checked_in_at).total_seconds() // 60)
        return VisitNow(visit, minutes, None, False, None)
    closing = visit_closing_at(visit=visit, periods=periods)
    end = max(min(now, closing), visit.checked_in_at)
    minutes = int((end - visit.checked_in_at).total_seconds() // 60)
    fee = visit_fee_so_far(visit=visit, left_at=end)[1] if visit.is_guest else None
    return VisitNow(visit, minutes, fee, now >= closing, closing)


def visits_now(
    *, visits: Iterable[Visit], room: Room, now: dt.datetime | None = None
) -> list[VisitNow]:
    """Each visit with its time (and a non-member's fee) so far, and whether it is past
    its closing time. Reads the opening periods once per day of check-in."""
    now = now or timezone.now()
    periods: dict[dt.date, list[Period]] = {}
    rows = []
    for visit in visits:
        visit.room = room
        day = timezone.localtime(visit.checked_in_at).date()
        if day not in periods:
            periods[day] = opening_periods_on(room=room, day=day)
        rows.append(_visit_now(visit, now=now, periods=periods[day]))
    return rows


def visits_open(*, room: Room) -> QuerySet[Visit]:
    return (
        Visit.objects.filter(room=room, checked_out_at__isnull=True)
        .select_related("member", "card", "admitted_by")
        .order_by("checked_in_at")
    )


def visits_present(*, room: Room, now: dt.datetime | None = None) -> list[VisitNow]:
    """Today's present people (在场): open visits whose opening period has not closed,
    longest inside first. For the desk, the home page and today's page."""
    return [row for row in visits_now(visits=visits_open(room=room), room=room, now=now)
            if not row.past_closing]  # fmt: skip


def visits_open_past_closing(*, room: Room, now: dt.datetime | None = None) -> list[VisitNow]:
    """闭馆后仍在场: open visits whose opening period has closed (today's or an earlier
    day's). The desk closes each with the time the person left (the closing time unless
    it says otherwise)."""
    return [row for row in visits_now(visits=visits_open(room=room), room=room, now=now)
            if row.past_closing]  # fmt: skip


def visit_same_name_present(
    *, room: Room, guest_name: str, now: dt.datetime | None = None
) -> Visit | None:
    """A non-member of that name already present (是同一人？), or None."""
    name = " ".join(guest_name.split())
    if not name:
        return None
    for row in visits_present(room=room, now=now):
        if row.visit.is_guest and " ".join(row.visit.guest_name.split()) == name:
            return row.visit
    return None


def check_in_refusal(*, room: Room, at: dt.datetime) -> str:
    """Why a check-in at ``at`` is outside the opening hours ("" while open): a special
    closure, the weekly rest day (星期三调休 by the regulations), before opening, the
    break between periods, after closing."""
    local = timezone.localtime(at)
    day = local.date()
    if room_is_open(room=room, at=at):
        return ""
    closure = OpeningException.objects.filter(
        room=room, date=day, kind=ExceptionKind.CLOSED
    ).first()
    if closure is not None:
        reason = _("The room is closed today (%(note)s).") % {
            "note": closure.note or _("special closure")
        }
        return str(reason)
    periods = opening_periods_on(room=room, day=day)
    if not periods:
        return _("The room is closed on %(weekday)s (the weekly rest day).") % {
            "weekday": Weekday(day.weekday()).label
        }
    moment = local.time()
    later = [o for o, _c in periods if o > moment]
    if later:
        return _("The room is closed now: it opens at %(time)s.") % {
            "time": later[0].strftime("%H:%M")
        }
    return _("The room closed at %(time)s today.") % {"time": periods[-1][1].strftime("%H:%M")}


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


def table_numbers_in_play(*, room: Room) -> list[int]:
    """Numbers of the tables with an open session (marked by the play app)."""
    return list(
        Table.objects.filter(room=room, in_play=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def tables_all(*, room: Room) -> list[tuple[Table, str]]:
    """Every table of the room with its state: "free", "play" (an open session),
    "occupied" (marked at the desk) or "inactive" (停用), in number order. A room not
    saved yet (no fixtures loaded) has none."""
    if room.pk is None:
        return []
    in_play = set(table_numbers_in_play(room=room))
    result = []
    for table in Table.objects.filter(room=room).order_by("number"):
        if not table.active:
            state = "inactive"
        elif table.number in in_play:
            state = "play"
        elif table.occupied:
            state = "occupied"
        else:
            state = "free"
        result.append((table, state))
    return result


def tables_free(*, room: Room) -> QuerySet[Table]:
    """场所空闲: active tables neither marked occupied at the desk nor in play (a table
    session of the play app is open at them) (docs/members.md)."""
    return tables_active(room=room).filter(occupied=False, in_play=False)


def tables_free_count(*, room: Room) -> int:
    return tables_free(room=room).count()


# ------------------------------------------- what the reports read of members
# Periods: ``start``/``end`` are moments (start <= t < end), ``first``/``last`` days
# (both included), as the monthly report has them.


def members_registered(*, room: Room, start: dt.datetime, end: dt.datetime) -> QuerySet[Member]:
    """The members registered from ``start`` to before ``end``, oldest first."""
    return Member.objects.filter(room=room, created_at__gte=start, created_at__lt=end).order_by(
        "created_at"
    )


def members_of_users(*, room: Room, user_ids: Iterable[int]) -> dict[int, int]:
    """{account pk: member pk} of the room's members among the accounts."""
    return dict(Member.objects.filter(room=room, user_id__in=user_ids).values_list("user_id", "id"))


def members_by_pk(*, room: Room, pks: Iterable[int]) -> dict[int, Member]:
    return {m.pk: m for m in Member.objects.filter(room=room, pk__in=pks)}


def current_card_numbers(*, room: Room, members: Iterable[Member | int]) -> dict[int, str]:
    """{member pk: number} of the newest card not voided of each of the room's ``members``."""
    cards = (
        Card.objects.filter(room=room, member__in=members)
        .exclude(status=CardStatus.VOID)
        .order_by("issued_on", "pk")
    )
    return {card.member_id: card.number for card in cards}


def card_counts(
    *, room: Room, first: dt.date, last: dt.date, start: dt.datetime, end: dt.datetime
) -> dict[str, int]:
    """The room's cards over a period, as they are stored now (each card keeps its
    current state and when it last changed): ``issued`` (not a reissue) and
    ``reissued`` in it; ``expired``: active cards whose validity ended in it;
    ``suspended`` / ``revoked``: cards in that state since a moment in it; ``active``:
    active cards issued by ``last`` and valid through it."""
    changed = Q(status_changed_at__gte=start, status_changed_at__lt=end)
    return Card.objects.filter(room=room).aggregate(
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


def cards_ending_by(*, room: Room, day: dt.date) -> QuerySet[Card]:
    """Active cards valid until ``day`` at the latest (expired and not renewed
    included), with their member, soonest first."""
    return (
        Card.objects.filter(room=room, status=CardStatus.ACTIVE, valid_until__lte=day)
        .select_related("member")
        .order_by("valid_until", "number")
    )


def receipts_total(*, room: Room, start: dt.datetime, end: dt.datetime) -> Decimal | None:
    """The amount of the receipts paid from ``start`` to before ``end`` (None: none)."""
    receipts = Receipt.objects.filter(room=room, paid_at__gte=start, paid_at__lt=end)
    total: Decimal | None = receipts.aggregate(total=Sum("amount"))["total"]
    return total


def receipts_by_kind(
    *, room: Room, start: dt.datetime, end: dt.datetime, kinds: Iterable[str]
) -> dict[str, tuple[int, Decimal]]:
    """{kind: (receipts, amount)} of the receipts of ``kinds`` paid in the period."""
    rows = (
        Receipt.objects.filter(room=room, paid_at__gte=start, paid_at__lt=end, kind__in=kinds)
        .values("kind")
        .annotate(n=Count("id"), amount=Sum("amount"))
    )
    return {row["kind"]: (row["n"], row["amount"]) for row in rows}


def visit_counts(*, room: Room, start: dt.datetime, end: dt.datetime) -> dict[str, Any]:
    """The visits that began in the period: ``members`` (member visits), ``distinct``
    (members), ``guests`` (non-member visits), ``open`` (not checked out) and
    ``member_time`` (the closed member visits' time in the room, None when none)."""
    duration = ExpressionWrapper(
        F("checked_out_at") - F("checked_in_at"), output_field=DurationField()
    )
    return _visits_begun(room, start, end).aggregate(
        members=Count("id", filter=Q(member__isnull=False)),
        distinct=Count("member", distinct=True),
        guests=Count("id", filter=Q(member__isnull=True)),
        open=Count("id", filter=Q(checked_out_at__isnull=True)),
        member_time=Sum(duration, filter=Q(member__isnull=False, checked_out_at__isnull=False)),
    )


def visit_times(
    *, room: Room, start: dt.datetime, end: dt.datetime
) -> list[tuple[dt.datetime, dt.datetime | None]]:
    """(checked in, checked out or None) of each visit that began in the period."""
    return list(_visits_begun(room, start, end).values_list("checked_in_at", "checked_out_at"))


def _visits_begun(room: Room, start: dt.datetime, end: dt.datetime) -> QuerySet[Visit]:
    return Visit.objects.filter(
        room=room, checked_in_at__gte=start, checked_in_at__lt=end
    ).order_by()


def guest_fees(*, room: Room, start: dt.datetime, end: dt.datetime) -> dict[str, Any]:
    """The non-member visits that ended in the period (the day their receipt was
    written): ``hours`` billed and ``fee`` (each None when none)."""
    return (
        Visit.objects.filter(
            room=room, member__isnull=True, checked_out_at__gte=start, checked_out_at__lt=end
        )
        .order_by()
        .aggregate(hours=Sum("hours_billed"), fee=Sum("fee"))
    )
