"""Forms of the members app: they validate input, the services write."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubapp.members.idnumbers import id_number_check
from clubapp.members.models import CardState, ExceptionKind
from clubapp.members.photos import MAX_PHOTO_BYTES

# FileField, not ImageField: the photo is judged by photos.photo_process, by content.
_PHOTO_ACCEPT = {"accept": "image/jpeg,image/png", "capture": "user"}


def _check_photo_size(photo: Any) -> None:
    if photo is not None and photo.size > MAX_PHOTO_BYTES:
        raise ValidationError("照片不能超过5 MB", code="photo_too_large")


class MemberCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=50)
    phone = forms.CharField(label=_("Phone"), max_length=20)
    id_number = forms.CharField(
        label=_("ID card number"),
        max_length=24,
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "text"}),
    )
    photo = forms.FileField(
        label=_("Photo (2-inch, JPEG or PNG, at most 5 MB)"),
        required=False,
        widget=forms.ClearableFileInput(attrs=_PHOTO_ACCEPT),
    )

    def clean_id_number(self) -> str:
        checked = id_number_check(self.cleaned_data["id_number"])
        self.id_number_warning = checked.warning
        return checked.number

    def clean_photo(self) -> Any:
        photo = self.cleaned_data.get("photo")
        _check_photo_size(photo)
        return photo


class MemberEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=50)
    phone = forms.CharField(label=_("Phone"), max_length=20)
    photo = forms.FileField(
        label=_("New photo (JPEG or PNG, at most 5 MB)"),
        required=False,
        widget=forms.FileInput(attrs=_PHOTO_ACCEPT),
    )

    def clean_photo(self) -> Any:
        photo = self.cleaned_data.get("photo")
        _check_photo_size(photo)
        return photo


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class MemberSearchForm(forms.Form):
    q = forms.CharField(label=_("Name, phone or card number"), required=False, max_length=50)
    state = forms.ChoiceField(
        label=_("Card state"),
        required=False,
        choices=[("", _("All")), *CardState.choices, ("none", _("No card"))],
    )


class CardCheckInForm(forms.Form):
    card = forms.CharField(
        label=_("Card number"),
        max_length=20,
        widget=forms.TextInput(attrs={"placeholder": "2026-0001", "autocomplete": "off"}),
    )


class GuestCheckInForm(forms.Form):
    guest_name = forms.CharField(label=_("Non-member name"), max_length=50)
    guest_phone = forms.CharField(label=_("Phone"), max_length=20, required=False)


class RoomSettingsForm(forms.Form):
    card_fee = forms.DecimalField(
        label=_("Card fee (yuan)"), min_value=Decimal("0"), max_digits=10, decimal_places=2
    )
    renewal_fee = forms.DecimalField(
        label=_("Yearly review fee (yuan)"), min_value=Decimal("0"), max_digits=10, decimal_places=2
    )
    guest_hourly_fee = forms.DecimalField(
        label=_("Non-member fee per started hour (yuan)"),
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
    )
    notice = forms.CharField(
        label=_("Room notice"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )


class OpeningExceptionForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    kind = forms.ChoiceField(label=_("Kind"), choices=ExceptionKind.choices)
    opens = forms.TimeField(
        label=_("Opens"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    closes = forms.TimeField(
        label=_("Closes"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    note = forms.CharField(label=_("Note"), required=False, max_length=200)
