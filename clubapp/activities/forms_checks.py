"""Forms of the day's checks, damage and violations: they validate, the services write."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubapp.activities.forms_duty import date_field
from clubapp.activities.models import CheckPhase, ViolationKind
from clubapp.books.forms import MONEY_ERRORS
from clubapp.members.models import Member


class MemberChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} · {obj.phone[-4:]}"


def _members(room: Any) -> Any:
    return Member.objects.filter(room=room).order_by("name_pinyin", "pk")


class ItemAddForm(forms.Form):
    phase = forms.ChoiceField(label=_("When"), choices=CheckPhase.choices)
    text = forms.CharField(label=_("Item to check"), max_length=100)


class ItemRenameForm(forms.Form):
    text = forms.CharField(label=_("Item to check"), max_length=100)


class DamageForm(forms.Form):
    day = date_field(_("Day"), initial=timezone.localdate)
    equipment = forms.CharField(label=_("Equipment damaged"), max_length=100)
    member = MemberChoice(
        label=_("Caused by (member)"), queryset=Member.objects.none(), required=False
    )
    notes = forms.CharField(label=_("Notes"), max_length=200, required=False)
    compensation = forms.DecimalField(
        label=_("Compensation (yuan)"),
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0"),
        initial=Decimal("0"),
        required=False,
        error_messages={**MONEY_ERRORS, "min_value": _("The compensation cannot be negative.")},
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    payer = forms.CharField(label=_("Paid by (if not the member)"), max_length=50, required=False)
    request_key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)

    def __init__(self, *args: Any, room: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = _members(room)  # type: ignore[attr-defined]


class ViolationForm(forms.Form):
    day = date_field(_("Day"), initial=timezone.localdate)
    member = MemberChoice(label=_("Member"), queryset=Member.objects.none())
    kind = forms.ChoiceField(label=_("Violation"), choices=ViolationKind.choices)
    notes = forms.CharField(label=_("What happened"), max_length=200)

    def __init__(self, *args: Any, room: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = _members(room)  # type: ignore[attr-defined]
