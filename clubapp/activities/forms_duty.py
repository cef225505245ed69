"""Forms of the duty roster and leave: they validate input, the services write."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clubapp.core.fields import ModelMultipleChoiceField

DATE_ERRORS = {"invalid": _("Enter a date such as 2026-11-30."), "required": _("Enter a date.")}


def date_field(label: Any, **kwargs: Any) -> forms.DateField:
    return forms.DateField(
        label=label,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages=DATE_ERRORS,
        **kwargs,
    )


class StaffChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.get_short_name() or obj.get_username())


class StaffMultiple(ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.get_short_name() or obj.get_username())


class LeaveForm(forms.Form):
    starts = date_field(_("From"))
    ends = date_field(_("To (last day of leave)"))
    reason = forms.CharField(label=_("Reason"), max_length=200)
    cover = StaffChoice(
        label=_("Who covers"), queryset=User.objects.none(), required=False, empty_label="—"
    )

    def __init__(self, *args: Any, staff: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["cover"].queryset = staff.exclude(pk=user.pk)  # type: ignore[attr-defined]


class DecideForm(forms.Form):
    approved = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("yes", _("Approve")), ("no", _("Refuse"))],
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class BackForm(forms.Form):
    back_on = date_field(_("Back at work on"))


def roster_form(*, days: list[dt.date], staff: Any, data: Any = None, initial: Any = None) -> Any:
    """A box per staff member for each open day of the week (``day_YYYY-MM-DD``)."""
    fields = {
        f"day_{day:%Y-%m-%d}": StaffMultiple(
            label=date_format(day, "m-d D"),
            queryset=staff,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        for day in days
    }
    form_class = type("RosterForm", (forms.Form,), fields)
    return form_class(data=data, initial=initial)
