"""Forms of the cash book: they validate input, the services write.

Amounts go through ``MoneyField``: a clear message for text, zero, a negative and
a third decimal place, the same in every form (the services check again).
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubapp.books.models import (
    OTHER_INCOME,
    ExpenseCategory,
    IncomeEntry,
    PaidBy,
    PlanLine,
    PlanOutcome,
)
from clubapp.books.services import LineIn
from clubapp.core.fields import ModelMultipleChoiceField

MONEY_ERRORS = {
    "required": _("Enter the amount."),
    "invalid": _("Enter the amount as a number of yuan, such as 12.50."),
    "min_value": _("The amount must be more than zero."),
    "max_decimal_places": _("An amount has at most two decimal places (fen)."),
    "max_digits": _("The amount is too large."),
    "max_whole_digits": _("The amount is too large."),
}


class MoneyField(forms.DecimalField):
    """Yuan with at most two decimal places, more than zero."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 10)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal("0.01"))
        kwargs.setdefault("error_messages", MONEY_ERRORS)
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
        )
        super().__init__(**kwargs)


def _key_field() -> forms.UUIDField:
    # A fresh key each time the form is shown: the same form sent twice books once.
    return forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)


def fund_negative_field() -> forms.BooleanField:
    # Hidden until the service warns that the equipment fund would go below zero;
    # the page then shows it as a box to tick (books.views.common.ask_fund_negative).
    return forms.BooleanField(
        label=_("Below zero: the equipment fund goes below zero; the unit's funds pay the rest"),
        required=False,
        widget=forms.HiddenInput,
    )


def _now_local() -> dt.datetime:
    return timezone.localtime(timezone.now())


class IncomeForm(forms.Form):
    category = forms.ChoiceField(
        label=_("Category"), choices=[(c.value, c.label) for c in OTHER_INCOME]
    )
    amount = MoneyField(label=_("Amount (yuan)"))
    payer = forms.CharField(label=_("Payer"), max_length=50)
    description = forms.CharField(
        label=_("What it is for"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. chess tournament, 12 players")}),
    )
    received_on = forms.DateField(
        label=_("Received on"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        initial=lambda: _now_local().date(),
        error_messages={"invalid": _("Enter a date such as 2026-11-30.")},
    )
    received_time = forms.TimeField(
        label=_("At"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        initial=lambda: _now_local().time().replace(second=0, microsecond=0),
        error_messages={"invalid": _("Enter a time such as 14:30.")},
    )
    late = forms.BooleanField(
        label=_("Late entry: its day is closed; book it on the next open day"),
        required=False,
    )
    request_key = _key_field()

    def received_at(self) -> dt.datetime:
        data = self.cleaned_data
        return timezone.make_aware(dt.datetime.combine(data["received_on"], data["received_time"]))


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class NoteForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class ReceiptChoice(ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        when = timezone.localtime(obj.received_at)
        return f"{obj.reference} · {when:%m-%d %H:%M} · {obj.get_category_display()} · {obj.amount}"


class SlipForm(forms.Form):
    receipts = ReceiptChoice(
        label=_("Receipts handed over (each in full)"),
        queryset=IncomeEntry.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": _("Choose the receipts this slip hands over."),
            "invalid_choice": _("A receipt chosen is no longer at the desk."),
        },
    )
    amount = MoneyField(label=_("Cash counted (yuan)"))
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    request_key = _key_field()

    def __init__(self, *args: Any, receipts: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(ReceiptChoice, self.fields["receipts"]).queryset = receipts


class PlanForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=100)
    purpose = forms.CharField(
        label=_("Purpose"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


class LineForm(forms.Form):
    category = forms.ChoiceField(label=_("Category"), choices=ExpenseCategory.choices)
    item = forms.CharField(label=_("Item"), max_length=100)
    quantity = MoneyField(
        label=_("Quantity"),
        error_messages={
            **MONEY_ERRORS,
            "required": _("Enter the quantity."),
            "invalid": _("Enter the quantity as a number."),
            "min_value": _("The quantity must be more than zero."),
        },
    )
    unit = forms.CharField(
        label=_("Unit"), max_length=10, widget=forms.TextInput(attrs={"placeholder": "副"})
    )
    unit_price = MoneyField(label=_("Est. unit price"))
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)

    # A row whose boxes are all empty is a spare row, whatever its category select
    # shows (a phone always shows one): it is left out, not refused.
    FILLED = ("item", "quantity", "unit", "unit_price", "reason")

    def has_changed(self) -> bool:
        return any(self[name].value() not in (None, "") for name in self.FILLED)

    def line(self) -> LineIn:
        data = self.cleaned_data
        return LineIn(
            category=data["category"],
            item=data["item"],
            quantity=data["quantity"],
            unit=data["unit"],
            unit_price=data["unit_price"],
            reason=data.get("reason", ""),
        )


class BaseLineFormSet(forms.BaseFormSet):
    """Blank rows are ignored; a plan needs one line only when it is submitted."""

    def lines(self) -> list[LineIn]:
        return [f.line() for f in self.forms if f.has_changed() and f.cleaned_data]


# formset_factory makes a subclass of ``formset``; the stubs only say BaseFormSet.
LineFormSet = cast(
    "type[BaseLineFormSet]",
    forms.formset_factory(LineForm, formset=BaseLineFormSet, extra=2, max_num=30),
)


class DecisionForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Your decision"),
        choices=[(PlanOutcome.APPROVED, _("Approve")), (PlanOutcome.REJECTED, _("Reject"))],
        widget=forms.RadioSelect,
    )
    comment = forms.CharField(label=_("Comment (needed to reject)"), max_length=200, required=False)
    fund_negative_ok = fund_negative_field()


class LineChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        plan = obj.submission.plan
        return f"{plan.number} {obj.submission.title} · {obj.item} ({obj.amount})"


class ExpenseForm(forms.Form):
    line = LineChoice(
        label=_("Plan line"),
        queryset=PlanLine.objects.none(),
        error_messages={
            "required": _("Choose the line of an approved plan."),
            "invalid_choice": _("Choose the line of an approved plan."),
        },
    )
    amount = MoneyField(label=_("Amount paid (yuan)"))
    supplier = forms.CharField(label=_("Supplier"), max_length=100)
    invoice_number = forms.CharField(label=_("Invoice number"), max_length=40)
    purchased_on = forms.DateField(
        label=_("Purchase date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        initial=lambda: _now_local().date(),
        error_messages={"invalid": _("Enter a date such as 2026-11-30.")},
    )
    paid_by = forms.ChoiceField(
        label=_("Who paid"),
        choices=PaidBy.choices,
        widget=forms.RadioSelect,
        initial=PaidBy.FINANCE,
    )
    reimbursed_to = forms.CharField(label=_("Reimbursed to (name)"), max_length=50, required=False)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    fund_negative_ok = fund_negative_field()
    request_key = _key_field()

    def __init__(self, *args: Any, lines: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(LineChoice, self.fields["line"]).queryset = lines

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("paid_by") == PaidBy.REIMBURSEMENT and not data.get("reimbursed_to"):
            raise ValidationError(_("Name the person to reimburse."), code="reimbursed_to")
        return data


class MonthForm(forms.Form):
    month = forms.DateField(
        label=_("Month"),
        input_formats=["%Y-%m"],
        widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m"),
    )
