"""Forms of the play app: they validate input, nothing else."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from clubapp.core.models import Room
from clubapp.members.models import Visit
from clubapp.members.selectors import visits_open
from clubapp.play.models import SEATS, Mode, RulesetVersion, SettleEvery, Wind


def latest_ruleset_versions() -> list[RulesetVersion]:
    """The newest stored version of each ruleset: what a new table may choose."""
    newest = RulesetVersion.objects.values("ruleset_id").annotate(last=Max("id"))
    return list(RulesetVersion.objects.filter(id__in=[row["last"] for row in newest]))


class SessionForm(forms.Form):
    table_number = forms.IntegerField(label=_("Table"), min_value=1, max_value=999)
    ruleset = forms.ModelChoiceField(label=_("Ruleset"), queryset=RulesetVersion.objects.none())
    mode = forms.ChoiceField(label=_("Mode"), choices=Mode.choices, initial=Mode.OPEN)
    garden_size = forms.IntegerField(
        label=_("Garden size (花)"), min_value=1, max_value=100000, required=False
    )
    end_when_out = forms.TypedChoiceField(
        label=_("The garden ends when this many players are out"),
        choices=[(2, "2"), (1, "1")],
        coerce=int,
        initial=2,
    )
    settle_every = forms.ChoiceField(
        label=_("Settle"),
        choices=[("", _("as the ruleset says")), *SettleEvery.choices],
        required=False,
    )
    jiang_count = forms.TypedChoiceField(
        label=_("将 in the night"), choices=[(2, "2"), (3, "3")], coerce=int, initial=2
    )

    def __init__(self, *args: Any, room: Room | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        versions = latest_ruleset_versions()
        self.fields["ruleset"].queryset = RulesetVersion.objects.filter(
            id__in=[v.id for v in versions]
        )
        users = get_user_model().objects.filter(is_active=True).order_by("first_name", "username")
        visits = visits_open(room=room) if room is not None else Visit.objects.none()
        for wind, label in zip(SEATS, Wind.labels, strict=True):
            self.fields[f"visit_{wind}"] = forms.ModelChoiceField(
                label=_("checked-in player"), queryset=visits, required=False
            )
            self.fields[f"name_{wind}"] = forms.CharField(
                label=label, max_length=60, required=False
            )
            self.fields[f"user_{wind}"] = forms.ModelChoiceField(
                label=_("member account"), queryset=users, required=False
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("mode") == Mode.GARDEN and not data.get("garden_size"):
            self.add_error("garden_size", _("A 进园子 table needs the size of its garden."))
        ruleset = data.get("ruleset")
        if data.get("mode") == Mode.GARDEN and ruleset and ruleset.family != "nanjing":
            self.add_error("mode", _("进园子 is a 南京麻将 mode."))
        for wind in SEATS:
            given = (data.get(f"name_{wind}") or "").strip()
            if not given and not data.get(f"user_{wind}") and not data.get(f"visit_{wind}"):
                self.add_error(f"name_{wind}", _("Every seat needs a player."))
        return data

    def seat_fields(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [(self[f"visit_{w}"], self[f"name_{w}"], self[f"user_{w}"]) for w in SEATS]


class RulesetForm(forms.Form):
    """A ruleset's parameters as JSON; scoring checks them on save."""

    params = forms.CharField(
        label=_("Parameters (JSON)"), widget=forms.Textarea(attrs={"rows": 24})
    )

    def clean_params(self) -> dict[str, Any]:
        try:
            value = json.loads(self.cleaned_data["params"])
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("Not valid JSON: %(error)s"), params={"error": exc}
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The parameters must be a JSON object."))
        return value


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)
    #: a double tap voids once
    key = forms.UUIDField(widget=forms.HiddenInput)
