"""Forms of the reports app (they only validate)."""

from __future__ import annotations

import re

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from clubapp.core.models import Room
from clubapp.members.models import LIVE_STATUSES, Card


class CardBatchForm(forms.Form):
    """Which 会员证 to print: by card numbers, or by the day they were issued."""

    numbers = forms.CharField(
        label=_("Card numbers (one or more, separated by spaces or commas)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    issued_from = forms.DateField(
        label=_("Issued from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    issued_to = forms.DateField(
        label=_("Issued up to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not (data.get("numbers") or data.get("issued_from") or data.get("issued_to")):
            raise forms.ValidationError(_("Give card numbers or the days they were issued."))
        return data

    def card_numbers(self) -> list[str]:
        return [n for n in re.split(r"[\s,，、]+", self.cleaned_data.get("numbers") or "") if n]

    def cards(self, room: Room) -> QuerySet[Card]:
        """Live cards (active or suspended) of the room that match, by number."""
        qs = Card.objects.filter(member__room=room, status__in=LIVE_STATUSES)
        numbers = self.card_numbers()
        if numbers:
            qs = qs.filter(number__in=numbers)
        if self.cleaned_data.get("issued_from"):
            qs = qs.filter(issued_on__gte=self.cleaned_data["issued_from"])
        if self.cleaned_data.get("issued_to"):
            qs = qs.filter(issued_on__lte=self.cleaned_data["issued_to"])
        return qs.select_related("member").order_by("number")
