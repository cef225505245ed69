"""Forms of the activity plans: they validate input, the services write."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubapp.activities.models import ActivityKind, Game, PlanPeriod
from clubapp.activities.services.plans import ActivityIn
from clubapp.books.models import PurchasePlan

BUDGET_ERRORS = {
    "invalid": _("Enter the budget as a number of yuan, such as 120.00."),
    "min_value": _("The budget cannot be negative."),
    "max_decimal_places": _("The budget has at most two decimal places (fen)."),
    "max_digits": _("The budget is too large."),
    "max_whole_digits": _("The budget is too large."),
}


class PlanForm(forms.Form):
    period = forms.ChoiceField(label=_("Period"), choices=PlanPeriod.choices)
    starts = forms.DateField(
        label=_("First month"),
        input_formats=["%Y-%m", "%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m"),
        help_text=_("A quarter starts in January, April, July or October."),
        error_messages={"invalid": _("Enter the month as 2026-12.")},
    )


class PurchasePlanChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.number} {obj.title}"


class ActivityForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=ActivityKind.choices)
    title = forms.CharField(label=_("Title"), max_length=100)
    games = forms.MultipleChoiceField(
        label=_("Games"),
        choices=Game.choices,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one of the six games.")},
    )
    expected = forms.IntegerField(
        label=_("Expected attendance"), min_value=0, max_value=10_000, initial=0
    )
    budget = forms.DecimalField(
        label=_("Budget (yuan)"),
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
        initial=Decimal("0.00"),
        error_messages=BUDGET_ERRORS,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    purchase_plan = PurchasePlanChoice(
        label=_("Purchase plan (when the budget needs buying)"),
        queryset=PurchasePlan.objects.none(),
        required=False,
    )

    def __init__(self, *args: Any, purchase_plans: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if purchase_plans is not None:
            cast(forms.ModelChoiceField, self.fields["purchase_plan"]).queryset = purchase_plans

    def has_changed(self) -> bool:
        # An untouched extra line (only its defaults) is left out.
        return bool(self.data.get(self.add_prefix("title"))) or bool(
            self.data.get(self.add_prefix("date"))
        )

    def line(self) -> ActivityIn:
        d = self.cleaned_data
        return ActivityIn(
            date=d["date"],
            kind=d["kind"],
            title=d["title"],
            games=tuple(d["games"]),
            expected=d["expected"],
            budget=d["budget"],
            purchase_plan=d["purchase_plan"],
        )


class BaseActivityFormSet(forms.BaseFormSet):
    def lines(self) -> list[ActivityIn]:
        return [f.line() for f in self.forms if f.has_changed() and f.cleaned_data]


ActivityFormSet = cast(
    Any,
    forms.formset_factory(ActivityForm, formset=BaseActivityFormSet, extra=3, can_delete=False),
)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Why the plan changes"),
        max_length=200,
        error_messages={"required": _("Say why the plan changes.")},
    )


class DecisionForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Decision"),
        choices=[("approve", _("Approve")), ("reject", _("Reject"))],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(label=_("Note (needed to reject)"), max_length=200, required=False)
