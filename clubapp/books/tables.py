"""django-tables2 tables of the cash book. On a phone the columns marked wide hide
(static/css/app.css), so a list stays one screen wide."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from clubapp.books.filters import EXPENSE_STATES, INCOME_STATES, SLIP_STATES, person_name
from clubapp.books.models import Expense, HandOverSlip, IncomeEntry, PlanState, PurchasePlan
from clubapp.books.money import CENT

_WIDE = {"th": {"class": "wide"}, "td": {"class": "wide"}}
_MONEY = {"th": {"class": "num"}, "td": {"class": "num"}}

# State → badge colour (CSS classes of the members app's badges).
_BADGE = {
    "at_desk": "",
    "on_slip": "state-suspended",
    "handed_over": "state-active",
    "pending": "state-suspended",
    "booked": "state-suspended",
    "confirmed": "state-active",
    "returned": "state-revoked",
    "reversed": "state-void",
    PlanState.DRAFT: "",
    PlanState.SUBMITTED: "state-suspended",
    PlanState.APPROVED: "state-active",
    PlanState.REJECTED: "state-revoked",
    PlanState.IN_PROGRESS: "state-active",
    PlanState.DONE: "",
}


def badge(state: str, label: Any) -> str:
    return format_html('<span class="badge {}">{}</span>', _BADGE.get(state, ""), label)


def late_mark(record: Any) -> str:
    """补记 and the day the row belongs to."""
    if record.late_for is None:
        return ""
    return format_html(
        ' <span class="badge late">{} {}</span>', _("Late entry"), f"{record.late_for:%m-%d}"
    )


class IncomeTable(tables.Table):
    reference = tables.Column(verbose_name=_("Receipt"), linkify=True)
    received_at = tables.DateTimeColumn(verbose_name=_("Received"), format="m-d H:i")
    category = tables.Column(verbose_name=_("Category"))
    amount = tables.Column(verbose_name=_("Yuan"), attrs=_MONEY)
    payer = tables.Column(verbose_name=_("Payer"), attrs=_WIDE)
    state = tables.Column(verbose_name=_("State"), orderable=False)
    recorded_by = tables.Column(verbose_name=_("Recorded by"), attrs=_WIDE)

    class Meta:
        model = IncomeEntry
        fields = ("reference", "received_at", "category", "amount", "payer", "state")
        attrs = {"class": "grid stack"}
        empty_text = _("No income entries.")

    def render_state(self, value: str, record: Any) -> str:
        return format_html(
            "{}{}", badge(value, dict(INCOME_STATES).get(value, value)), late_mark(record)
        )

    def render_recorded_by(self, value: Any) -> str:
        return person_name(value)


class SlipTable(tables.Table):
    number = tables.Column(verbose_name=_("Slip"), linkify=True)
    handed_over_at = tables.DateTimeColumn(verbose_name=_("Handed over"), format="m-d H:i")
    amount = tables.Column(verbose_name=_("Yuan"), attrs=_MONEY)
    state = tables.Column(verbose_name=_("State"), orderable=False)
    handed_over_by = tables.Column(verbose_name=_("By"), attrs=_WIDE)

    class Meta:
        model = HandOverSlip
        fields = ("number", "handed_over_at", "amount", "state", "handed_over_by")
        attrs = {"class": "grid stack"}
        empty_text = _("No hand-over slips.")

    def render_state(self, value: str, record: Any) -> str:
        return format_html(
            "{}{}", badge(value, dict(SLIP_STATES).get(value, value)), late_mark(record)
        )

    def render_handed_over_by(self, value: Any) -> str:
        return person_name(value)


class PlanTable(tables.Table):
    number = tables.Column(verbose_name=_("Plan"), linkify=True)
    title = tables.Column(verbose_name=_("Title"))
    # Rendered for drafts too (no submission yet): their estimated total.
    total = tables.Column(
        verbose_name=_("Yuan"), accessor="submission__total", attrs=_MONEY, empty_values=()
    )
    state = tables.Column(verbose_name=_("State"), orderable=False)
    drafted_by = tables.Column(verbose_name=_("Drafted by"), attrs=_WIDE)
    created_at = tables.DateTimeColumn(verbose_name=_("Drafted"), format="Y-m-d", attrs=_WIDE)

    class Meta:
        model = PurchasePlan
        fields = ("number", "title", "total", "state", "drafted_by", "created_at")
        attrs = {"class": "grid stack"}
        empty_text = _("No purchase plans.")

    def render_title(self, value: str, record: Any) -> str:
        submission = getattr(record, "submission", None) if record.state != "draft" else None
        return submission.title if submission is not None else value

    def value_total(self, record: Any) -> Any:
        if record.state != PlanState.DRAFT:
            return record.submission.total
        return record.draft_total

    def render_total(self, record: Any) -> str:
        value = self.value_total(record)
        return "—" if value is None else f"{Decimal(value).quantize(CENT)}"

    def render_state(self, value: str) -> str:
        return badge(value, PlanState(value).label)

    def render_drafted_by(self, value: Any) -> str:
        return person_name(value)


class ExpenseTable(tables.Table):
    number = tables.Column(verbose_name=_("Expense"), linkify=True)
    plan = tables.Column(
        verbose_name=_("Plan line"), accessor="line__submission__plan__number", orderable=False
    )
    amount = tables.Column(verbose_name=_("Yuan"), attrs=_MONEY)
    supplier = tables.Column(verbose_name=_("Supplier"), attrs=_WIDE)
    state = tables.Column(verbose_name=_("State"), orderable=False)
    recorded_at = tables.DateTimeColumn(verbose_name=_("Booked"), format="m-d", attrs=_WIDE)

    class Meta:
        model = Expense
        fields = ("number", "plan", "amount", "supplier", "state", "recorded_at")
        attrs = {"class": "grid stack"}
        empty_text = _("No expenses.")

    def render_plan(self, value: str, record: Any) -> str:
        return format_html('{}<br><span class="muted">{}</span>', value, record.line.item)

    def render_state(self, value: str, record: Any) -> str:
        return format_html(
            "{}{}", badge(value, dict(EXPENSE_STATES).get(value, value)), late_mark(record)
        )
