"""The lists that export: one definition each (filter set, rows, columns, who may
read it), shared by the list page and its xlsx and CSV downloads.

Rows are read as tuples (``values_list``) in chunks, so an export of a million
ledger lines streams without holding them; the columns are the xlsx writer's
(``clubapp.reports.xlsx.Column``), user text escaped there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import django_filters
from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubapp.books.filters import (
    EXPENSE_STATES,
    SLIP_STATES,
    ExpenseFilter,
    PlanFilter,
    RoomFilterSet,
    SlipFilter,
)
from clubapp.books.models import (
    ExpenseCategory,
    HandOverLine,
    IncomeCategory,
    PaidBy,
    PlanState,
)
from clubapp.books.selectors import expense_list, income_list, plan_list, slip_list
from clubapp.core.models import Room
from clubapp.members.models import CardState, CardStatus, Visit
from clubapp.members.selectors import member_list
from clubapp.play.models import SEATS, Hand, LedgerLine, Mode, Seat, TableSession
from clubapp.play.reasons import reason_name
from clubapp.reports import filters
from clubapp.reports.permissions import can_read_books, can_read_room
from clubapp.reports.selectors import SEAT_NAMES, describe_hand
from clubapp.reports.xlsx import Column

CHUNK = 5000


@dataclass(frozen=True)
class ListSpec:
    slug: str
    title: Any
    #: the file's name without the date and suffix (Chinese: 会员名单)
    file_stem: Any
    filterset: type[django_filters.FilterSet]
    queryset: Callable[[Room], QuerySet[Any]]
    columns: Callable[[], Sequence[Column]]
    #: the tuples of a filtered queryset, as rows of cells
    rows: Callable[[QuerySet[Any]], Iterator[Sequence[Any]]]
    can_read: Callable[[Any], bool]
    total: bool = False
    #: where the list's own page lives in its app, for a link back
    home: str = ""
    #: the column that says who or what the row is: first on the page (on a phone, the
    #: card's title); the files keep the order of ``columns``
    lead: int = 0


def _chunks(qs: QuerySet[Any], *fields: str) -> Iterator[tuple[Any, ...]]:
    return qs.values_list(*fields).iterator(chunk_size=CHUNK)


def _name(first: str | None, username: str | None) -> str:
    return first or username or ""


# ------------------------------------------------------------------ members


def _card_state(status: str | None, valid_until: dt.date | None, today: dt.date) -> str:
    if status is None:
        return str(_("No card"))
    if status == CardStatus.ACTIVE and valid_until is not None and valid_until < today:
        return str(CardState.EXPIRED.label)
    return str(CardState(status).label)


def _member_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    today = timezone.localdate()
    fields = ("name", "phone", "card_number", "card_status", "card_valid_until", "created_at")
    for name, phone, card, status, valid, created in _chunks(qs, *fields):
        yield (name, phone, card, _card_state(status, valid, today), valid, created)


def _member_columns() -> list[Column]:
    # No ID number: it never leaves the members app in a file (docs/reports.md).
    return [
        Column(_("Name"), "text", 10),
        Column(_("Phone"), "text", 12),
        Column(_("Card number"), "text", 10),
        Column(_("Card state"), "label", 6),
        Column(_("Valid until"), "date", 10),
        Column(_("Registered"), "datetime", 16),
    ]


# ------------------------------------------------------------------- visits


def _visit_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    fields = (
        "checked_in_at",
        "checked_out_at",
        "member__name",
        "guest_name",
        "card__number",
        "hours_billed",
        "fee",
    )
    guest = str(_("Non-member"))
    for came, left, member, guest_name, card, billed, fee in _chunks(qs, *fields):
        hours = round((left - came).total_seconds() / 3600, 2) if left else None
        yield (came, left, member or guest_name, card or guest, hours, billed, fee)


def _visit_columns() -> list[Column]:
    return [
        Column(_("Checked in"), "datetime", 16),
        Column(_("Checked out"), "datetime", 16),
        Column(_("Name"), "text", 10),
        Column(_("Card number"), "text", 10),
        Column(_("Hours"), "hours", 6, total=True),
        Column(_("Hours billed"), "int", 6, total=True),
        Column(_("Equipment fee (yuan)"), "yuan", 10, total=True),
    ]


# ------------------------------------------------------------------- income


def _income_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    labels = dict(IncomeCategory.choices)
    fields = (
        "received_at",
        "reference",
        "category",
        "amount",
        "description",
        "recorded_by__first_name",
        "recorded_by__username",
    )
    for at, reference, category, amount, description, first, user in _chunks(qs, *fields):
        label = str(labels.get(category, category))
        yield (at, reference, label, amount, description, _name(first, user))


def _income_columns() -> list[Column]:
    return [
        Column(_("Received at"), "datetime", 16),
        Column(_("Receipt"), "text", 12),
        Column(_("Category"), "label", 14),
        Column(_("Amount (yuan)"), "yuan", 10, total=True),
        Column(_("Description"), "text", 28),
        Column(_("Recorded by"), "text", 8),
    ]


# ------------------------------------------- the cash book's other lists


def _state_label(states: Sequence[tuple[Any, Any]], value: str) -> str:
    return str(dict(states).get(value, value))


def _slip_queryset(room: Room) -> QuerySet[Any]:
    lines = (
        HandOverLine.objects.filter(slip=OuterRef("pk"))
        .order_by()
        .values("slip")
        .annotate(n=Count("id"))
        .values("n")
    )
    return (
        slip_list(room=room)
        .annotate(receipts=Coalesce(Subquery(lines), 0))
        .order_by("-handed_over_at", "-pk")
    )


def _slip_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    fields = (
        "number",
        "handed_over_at",
        "book_date",
        "amount",
        "receipts",
        "state",
        "handed_over_by__first_name",
        "handed_over_by__username",
        "decision__decided_by__first_name",
        "decision__decided_by__username",
        "decision__decided_at",
        "decision__reason",
        "note",
    )
    for row in _chunks(qs, *fields):
        number, at, day, amount, receipts, state, first, user = row[:8]
        checker_first, checker, decided_at, reason, note = row[8:]
        yield (
            number,
            at,
            day,
            amount,
            receipts,
            _state_label(SLIP_STATES, state),
            _name(first, user),
            _name(checker_first, checker),
            decided_at,
            reason or "",
            note,
        )


def _slip_columns() -> list[Column]:
    return [
        Column(_("Slip"), "text", 12),
        Column(_("Handed over"), "datetime", 16),
        Column(_("Booked on"), "date", 10),
        Column(_("Amount (yuan)"), "yuan", 10, total=True),
        Column(_("Receipts"), "int", 6, total=True),
        Column(_("State"), "label", 10),
        Column(_("Handed over by"), "text", 8),
        Column(_("Accountant"), "text", 8),
        Column(_("Decided at"), "datetime", 16),
        Column(_("Reason sent back"), "text", 20),
        Column(_("Note"), "text", 20),
    ]


def _expense_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    categories = dict(ExpenseCategory.choices)
    payers = dict(PaidBy.choices)
    fields = (
        "number",
        "book_date",
        "purchased_on",
        "line__submission__plan__number",
        "line__category",
        "line__item",
        "amount",
        "supplier",
        "invoice_number",
        "paid_by",
        "reimbursed_to",
        "state",
        "recorded_by__first_name",
        "recorded_by__username",
    )
    for row in _chunks(qs, *fields):
        number, day, bought, plan, category, item, amount, supplier, invoice = row[:9]
        paid_by, reimbursed, state, first, user = row[9:]
        payer = str(payers.get(paid_by, paid_by))
        yield (
            number,
            day,
            bought,
            plan,
            str(categories.get(category, category)),
            item,
            amount,
            supplier,
            invoice,
            f"{payer} {reimbursed}".strip() if reimbursed else payer,
            _state_label(EXPENSE_STATES, state),
            _name(first, user),
        )


def _expense_columns() -> list[Column]:
    return [
        Column(_("Expense"), "text", 12),
        Column(_("Booked on"), "date", 10),
        Column(_("Purchase date"), "date", 10),
        Column(_("Plan"), "text", 12),
        Column(_("Category"), "label", 12),
        Column(_("Item"), "text", 14),
        Column(_("Amount (yuan)"), "yuan", 10, total=True),
        Column(_("Supplier"), "text", 16),
        Column(_("Invoice number"), "text", 12),
        Column(pgettext_lazy("expense", "Paid by"), "label", 14),
        Column(_("State"), "label", 10),
        Column(_("Booked by"), "text", 8),
    ]


def _plan_queryset(room: Room) -> QuerySet[Any]:
    return (
        plan_list(room=room)
        .annotate(amount=Coalesce("submission__total", "draft_total"))
        .order_by("-created_at", "-pk")
    )


def _plan_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    states = dict(PlanState.choices)
    fields = (
        "number",
        "title",
        "submission__title",
        "state",
        "amount",
        "drafted_by__first_name",
        "drafted_by__username",
        "created_at",
        "submission__submitted_at",
    )
    for number, title, submitted_title, state, amount, first, user, at, sent in _chunks(
        qs, *fields
    ):
        yield (
            number,
            submitted_title if state != PlanState.DRAFT and submitted_title else title,
            str(states.get(state, state)),
            amount,
            _name(first, user),
            at,
            sent,
        )


def _plan_columns() -> list[Column]:
    return [
        Column(_("Plan"), "text", 12),
        Column(_("Title"), "text", 24),
        Column(_("State"), "label", 8),
        Column(_("Amount (yuan)"), "yuan", 10, total=True),
        Column(_("Drafted by"), "text", 8),
        Column(_("Drafted"), "datetime", 16),
        Column(_("Submitted at"), "datetime", 16),
    ]


# ----------------------------------------------------------------- sessions


def _session_queryset(room: Room) -> QuerySet[TableSession]:
    qs = TableSession.objects.filter(room=room).select_related("ruleset")
    played = Hand.objects.filter(session=OuterRef("pk"), voids__isnull=True)
    reversals = Hand.objects.filter(session=OuterRef("pk"), voids__isnull=False)
    qs = qs.annotate(
        played=Coalesce(
            Subquery(played.order_by().values("session").annotate(n=Count("id")).values("n")), 0
        ),
        reversals=Coalesce(
            Subquery(reversals.order_by().values("session").annotate(n=Count("id")).values("n")),
            0,
        ),
    )
    for wind in SEATS:
        seat = Seat.objects.filter(session=OuterRef("pk"), wind=wind)
        points = LedgerLine.objects.filter(hand__session=OuterRef("pk"), seat=wind).order_by()
        qs = qs.annotate(
            **{
                f"name_{wind}": Subquery(seat.values("name")[:1]),
                f"points_{wind}": Coalesce(
                    Subquery(points.values("seat").annotate(t=Sum("points")).values("t")), 0
                ),
            }
        )
    return qs.order_by("-started_at", "-id")


def _session_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    modes = dict(Mode.choices)
    fields = [
        "id",
        "started_at",
        "ended_at",
        "table_number",
        "ruleset__name",
        "mode",
        "garden_size",
        "played",
        "reversals",
    ]
    fields += [f"name_{w}" for w in SEATS] + [f"points_{w}" for w in SEATS]
    for row in _chunks(qs, *fields):
        pk, started, ended, table, ruleset, mode, garden, played, reversals = row[:9]
        names, points = row[9:13], row[13:17]
        label = str(modes.get(mode, mode)) + (f" {garden}" if garden else "")
        yield (pk, started, ended, table, ruleset, label, *names, played - reversals, *points)


def _session_columns() -> list[Column]:
    return [
        Column(_("Session number"), "int", 6),
        Column(_("Started"), "datetime", 16),
        Column(_("Ended"), "datetime", 16),
        Column(_("Table"), "int", 4),
        Column(_("Ruleset"), "label", 12),
        Column(_("Mode"), "label", 14),
        *(Column(str(SEAT_NAMES[w]), "text", 8) for w in SEATS),
        Column(_("Hands played"), "int", 6, total=True),
        *(Column(_("%(wind)s (points)") % {"wind": SEAT_NAMES[w]}, "int", 6) for w in SEATS),
    ]


# -------------------------------------------------------------------- hands


def _seat_name(session: str, wind: str) -> Subquery:
    return Subquery(
        Seat.objects.filter(session=OuterRef(session), wind=OuterRef(wind)).values("name")[:1]
    )


def _hand_queryset(room: Room) -> QuerySet[Hand]:
    qs = Hand.objects.filter(session__room=room)
    for wind in SEATS:
        qs = qs.annotate(
            **{
                f"name_{wind}": Subquery(
                    Seat.objects.filter(session=OuterRef("session"), wind=wind).values("name")[:1]
                )
            }
        )
    return qs.order_by("-id")


def _hand_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    fields = [
        "id",
        "created_at",
        "session__table_number",
        "session_id",
        "number",
        "record",
        "result",
        "voids__number",
        "voided_by__number",
        "void_reason",
    ]
    fields += [f"name_{w}" for w in SEATS]
    voided_label = str(_("voided by #%(n)s"))
    for row in _chunks(qs, *fields):
        pk, created, table, session, number, record, result, voids, voided_by, reason = row[:10]
        names = dict(zip(SEATS, row[10:14], strict=True))
        net = (result or {}).get("net", {})
        if voids is not None:
            what = str(_("Reverses hand #%(n)s: %(reason)s")) % {"n": voids, "reason": reason}
            features = ""
        else:
            what, features = describe_hand(record or {}, result or {}, names)
        state = voided_label % {"n": voided_by} if voided_by is not None else ""
        points = [net.get(w, 0) for w in SEATS]
        yield (created, table, session, number, what, features, *points, state)


def _hand_columns() -> list[Column]:
    return [
        Column(_("Booked at"), "datetime", 16),
        Column(_("Table"), "int", 4),
        Column(_("Session number"), "int", 6),
        Column(_("Hand number"), "int", 4),
        Column(_("Hand"), "text", 26),
        Column(_("Breakdown"), "label", 30),
        *(Column(_("%(wind)s (points)") % {"wind": SEAT_NAMES[w]}, "int", 6) for w in SEATS),
        Column(_("Voided"), "label", 10),
    ]


# ------------------------------------------------------------- ledger lines


def _line_queryset(room: Room) -> QuerySet[LedgerLine]:
    return (
        LedgerLine.objects.filter(hand__session__room=room)
        .annotate(
            player=_seat_name("hand__session_id", "seat"),
            other=_seat_name("hand__session_id", "counterparty"),
        )
        .order_by("-hand_id", "id")
    )


def _line_rows(qs: QuerySet[Any]) -> Iterator[Sequence[Any]]:
    fields = (
        "hand__created_at",
        "hand__session__table_number",
        "hand__session_id",
        "hand__number",
        "seat",
        "player",
        "counterparty",
        "other",
        "points",
        "reason",
    )
    for at, table, session, number, seat, player, other_seat, other, points, reason in _chunks(
        qs, *fields
    ):
        yield (
            at,
            table,
            session,
            number,
            f"{SEAT_NAMES[seat]} {player or ''}".strip(),
            f"{SEAT_NAMES[other_seat]} {other or ''}".strip(),
            points,
            reason_name(reason),
        )


def _line_columns() -> list[Column]:
    return [
        Column(_("Booked at"), "datetime", 16),
        Column(_("Table"), "int", 4),
        Column(_("Session number"), "int", 6),
        Column(_("Hand number"), "int", 4),
        Column(_("Player"), "text", 10),
        Column(_("Counterparty"), "text", 10),
        Column(_("Points scored"), "int", 6, total=True),
        Column(_("Reason"), "label", 8),
    ]


LISTS: dict[str, ListSpec] = {
    spec.slug: spec
    for spec in (
        ListSpec(
            slug="members",
            title=_("Members"),
            file_stem="会员名单",
            filterset=filters.MemberFilter,
            queryset=lambda room: member_list(room=room),
            columns=_member_columns,
            rows=_member_rows,
            can_read=can_read_room,
            home="members:member_list",
        ),
        ListSpec(
            slug="visits",
            title=_("Visits"),
            file_stem="来访记录",
            filterset=filters.VisitFilter,
            queryset=lambda room: Visit.objects.filter(room=room).order_by("-checked_in_at", "-pk"),
            columns=_visit_columns,
            rows=_visit_rows,
            can_read=can_read_room,
            total=True,
            home="members:visit_list",
            lead=2,
        ),
        ListSpec(
            slug="income",
            title=_("Income entries"),
            file_stem="收支",
            filterset=filters.IncomeFilter,
            queryset=lambda room: income_list(room=room).order_by("-received_at", "-pk"),
            columns=_income_columns,
            rows=_income_rows,
            can_read=can_read_books,
            total=True,
            home="books:income_list",
            lead=1,
        ),
        ListSpec(
            slug="slips",
            title=_("Hand-over slips"),
            file_stem="缴款单",
            filterset=SlipFilter,
            queryset=_slip_queryset,
            columns=_slip_columns,
            rows=_slip_rows,
            can_read=can_read_books,
            total=True,
            home="books:slip_list",
        ),
        ListSpec(
            slug="expenses",
            title=_("Expenses"),
            file_stem="支出",
            filterset=ExpenseFilter,
            queryset=lambda room: expense_list(room=room).order_by("-recorded_at", "-pk"),
            columns=_expense_columns,
            rows=_expense_rows,
            can_read=can_read_books,
            total=True,
            home="books:expense_list",
        ),
        ListSpec(
            slug="plans",
            title=_("Purchase plans"),
            file_stem="购置计划",
            filterset=PlanFilter,
            queryset=_plan_queryset,
            columns=_plan_columns,
            rows=_plan_rows,
            can_read=can_read_books,
            total=True,
            home="books:plan_list",
        ),
        ListSpec(
            slug="sessions",
            title=_("Table sessions"),
            file_stem="牌局场次",
            filterset=filters.SessionFilter,
            queryset=_session_queryset,
            columns=_session_columns,
            rows=_session_rows,
            can_read=can_read_room,
            total=True,
            home="play:sessions",
        ),
        ListSpec(
            slug="hands",
            title=_("Hands played"),
            file_stem="把数",
            filterset=filters.HandFilter,
            queryset=_hand_queryset,
            columns=_hand_columns,
            rows=_hand_rows,
            can_read=can_read_room,
            lead=4,
        ),
        ListSpec(
            slug="ledger",
            title=_("Points ledger"),
            file_stem="积分流水",
            filterset=filters.LedgerLineFilter,
            queryset=_line_queryset,
            columns=_line_columns,
            rows=_line_rows,
            can_read=can_read_room,
            total=True,
            lead=4,
        ),
    )
}


def filtered(spec: ListSpec, room: Room, data: Any) -> django_filters.FilterSet:
    # The cash book's filters offer the room's people only.
    extra = {"room": room} if issubclass(spec.filterset, RoomFilterSet) else {}
    return spec.filterset(data or None, queryset=spec.queryset(room), **extra)
