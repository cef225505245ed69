"""Forms of the members app: they validate input, the services write."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubapp.core.models import Room
from clubapp.core.roles import Role
from clubapp.members.idnumbers import id_number_check
from clubapp.members.models import CardState, ExceptionKind, Weekday
from clubapp.members.photos import MAX_PHOTO_BYTES

# FileField, not ImageField: the photo is judged by photos.photo_process, by content.
_PHOTO_ACCEPT = {"accept": "image/jpeg,image/png", "capture": "user"}


def _check_photo_size(photo: Any) -> None:
    if photo is not None and photo.size > MAX_PHOTO_BYTES:
        raise ValidationError(gettext("The photo must be at most 5 MB."), code="photo_too_large")


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
        self.id_number_note = checked.note
        return checked.number

    def clean_photo(self) -> Any:
        photo = self.cleaned_data.get("photo")
        _check_photo_size(photo)
        return photo


class MemberEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=50)
    phone = forms.CharField(label=_("Phone"), max_length=20)
    user = forms.ModelChoiceField(
        label=_("Account (to see their own card)"),
        required=False,
        queryset=get_user_model().objects.none(),
        error_messages={
            "invalid_choice": _("Choose a member account of this room."),
        },
    )
    photo = forms.FileField(
        label=_("New photo (JPEG or PNG, at most 5 MB)"),
        required=False,
        widget=forms.FileInput(attrs=_PHOTO_ACCEPT),
    )

    def __init__(self, *args: Any, room: Room, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The room's member accounts only: another room's account is not offered, and
        # naming it is refused as not one of the choices.
        self.fields["user"].queryset = get_user_model().objects.filter(  # type: ignore[attr-defined]
            groups__name=Role.MEMBER.value, is_active=True, room_link__room=room
        )

    def clean_photo(self) -> Any:
        photo = self.cleaned_data.get("photo")
        _check_photo_size(photo)
        return photo


class AccountForm(forms.Form):
    username = forms.CharField(
        label=_("Login name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class MemberSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Name, phone or card number"),
        required=False,
        max_length=50,
        widget=forms.TextInput(attrs={"placeholder": _("Name, phone or card number")}),
    )
    state = forms.ChoiceField(
        label=_("Card state"),
        required=False,
        choices=[("", _("All")), *CardState.choices, ("none", _("No card"))],
    )


class CardCheckInForm(forms.Form):
    """The desk's look-up: a card number in any form (or its QR code), a phone, a name."""

    q = forms.CharField(
        label=_("Card number, phone or name"),
        max_length=50,
        widget=forms.TextInput(
            attrs={"placeholder": "2026-0007 / 0007", "autocomplete": "off", "autofocus": True}
        ),
    )


class TableForm(forms.Form):
    number = forms.IntegerField(label=_("Table number"), min_value=1, max_value=999)
    name = forms.CharField(label=_("Name (optional)"), max_length=30, required=False)


class TableRenameForm(forms.Form):
    name = forms.CharField(label=_("Name (optional)"), max_length=30, required=False)


class GuestCheckInForm(forms.Form):
    guest_name = forms.CharField(label=_("Non-member name"), max_length=50)
    guest_phone = forms.CharField(label=_("Phone"), max_length=20, required=False)
    # A fresh key each time the page is shown: the same form sent twice is one visit.
    request_key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)
    # 是同一人？: the desk was asked and says this is another person of that name.
    same_name_confirmed = forms.BooleanField(
        label=_("Not the same person: another non-member of that name"), required=False
    )
    admitted_reason = forms.CharField(
        label=_("Special case: reason"), max_length=200, required=False
    )


class AdmissionForm(forms.Form):
    """特殊情况: why a manager admits a person outside the opening hours."""

    admitted_reason = forms.CharField(
        label=_("Special case: reason"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. evening match agreed with the unit")}),
    )


class CheckOutForm(forms.Form):
    # The fee the desk showed and took: refused if another hour began since.
    fee = forms.DecimalField(widget=forms.HiddenInput, required=False, decimal_places=2)
    # 闭馆后补记: when the person left, on the day of the check-in (the closing time
    # unless the desk says otherwise).
    left_at = forms.TimeField(
        label=_("Left at"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    request_key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)


class CardForm(forms.Form):
    """Issue and reissue: the same form sent twice issues one card."""

    request_key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)


class RenewForm(forms.Form):
    # The validity the desk saw: a second tap after a renewal renews nothing.
    valid_until = forms.DateField(widget=forms.HiddenInput, required=False)
    # The desk confirmed a review before the card is near its end.
    early = forms.BooleanField(widget=forms.HiddenInput, required=False)
    next = forms.CharField(widget=forms.HiddenInput, required=False)
    request_key = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)


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
    renewal_window_days = forms.IntegerField(
        label=_("Yearly review from (days before the card's end)"), min_value=0, max_value=366
    )
    notice = forms.CharField(
        label=_("Room notice"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )
    # The cash book's setting (docs/books.md); left empty, the current value stays.
    handover_limit_days = forms.IntegerField(
        label=_("Hand-over limit (days): a receipt not handed over for longer is late"),
        required=False,
        min_value=1,
        max_value=90,
    )
    # The cash book's setting (docs/books.md); left empty, the current value stays.
    fund_may_go_negative = forms.TypedChoiceField(
        label=_("The equipment fund below zero"),
        choices=[
            ("", "—"),
            ("yes", _("Allowed, after a warning (the unit's funds pay the rest)")),
            ("no", _("Not allowed: approvals and expenses beyond the fund are refused")),
        ],
        coerce=lambda value: value == "yes",
        empty_value=None,
        required=False,
    )
    # Play's setting: the ruleset a new table starts with, by name: a standard one or
    # one of the room's own (another room's is not a choice).
    default_ruleset = forms.ChoiceField(label=_("Default ruleset of a new table"), required=False)

    def __init__(self, *args: Any, room: Room, **kwargs: Any) -> None:
        from clubapp.play import selectors as play_selectors

        super().__init__(*args, **kwargs)
        self.fields["default_ruleset"].choices = [  # type: ignore[attr-defined]
            ("", "—"),
            *play_selectors.ruleset_choices(room=room),
        ]


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


class WeeklyHoursForm(forms.Form):
    """The weekly schedule: up to two periods a weekday (a morning and an afternoon)."""

    PERIODS_PER_DAY = 2

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.days: list[tuple[str, list[tuple[forms.BoundField, forms.BoundField]]]] = []
        for day in Weekday:
            for n in range(self.PERIODS_PER_DAY):
                for edge, label in (("opens", _("Opens")), ("closes", _("Closes"))):
                    self.fields[f"d{day.value}_{edge}{n}"] = forms.TimeField(
                        label=f"{day.label} {label}",
                        required=False,
                        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
                    )
        for day in Weekday:
            pairs = [
                (self[f"d{day.value}_opens{n}"], self[f"d{day.value}_closes{n}"])
                for n in range(self.PERIODS_PER_DAY)
            ]
            self.days.append((str(day.label), pairs))

    @classmethod
    def initial_from(cls, periods: list[tuple[int, dt.time, dt.time]]) -> dict[str, dt.time]:
        initial: dict[str, dt.time] = {}
        seen: dict[int, int] = {}
        for weekday, opens, closes in periods:
            n = seen.get(weekday, 0)
            if n < cls.PERIODS_PER_DAY:
                initial[f"d{weekday}_opens{n}"] = opens
                initial[f"d{weekday}_closes{n}"] = closes
            seen[weekday] = n + 1
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for day in Weekday:
            for n in range(self.PERIODS_PER_DAY):
                opens = data.get(f"d{day.value}_opens{n}")
                closes = data.get(f"d{day.value}_closes{n}")
                if (opens is None) != (closes is None):
                    raise ValidationError(
                        _("%(day)s: give both the start and the end."), params={"day": day.label}
                    )
        return data

    def periods(self) -> list[tuple[int, dt.time, dt.time]]:
        result = []
        for day in Weekday:
            for n in range(self.PERIODS_PER_DAY):
                opens = self.cleaned_data.get(f"d{day.value}_opens{n}")
                closes = self.cleaned_data.get(f"d{day.value}_closes{n}")
                if opens is not None and closes is not None:
                    result.append((day.value, opens, closes))
        return result
