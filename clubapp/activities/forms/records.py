"""Forms of the activity records: they validate input, the services write."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubapp.activities.models import ActivityKind, Game, PlannedActivity
from clubapp.activities.services.records import RecordIn
from clubapp.core.fields import ModelMultipleChoiceField
from clubapp.members.models import Member, Visit


class PhotosInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class PhotosField(forms.FileField):
    """Several photos at once (none is fine)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", PhotosInput(attrs={"accept": "image/jpeg,image/png"}))
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        if isinstance(data, list | tuple):
            return [super(PhotosField, self).clean(d, initial) for d in data if d]
        return [super().clean(data, initial)] if data else []


class PlannedChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.date:%m-%d} {obj.title}"


class RecordForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    starts = forms.TimeField(
        label=_("Starts at"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    ends = forms.TimeField(
        label=_("Ends at"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=ActivityKind.choices)
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices)
    title = forms.CharField(label=_("Title"), max_length=100)
    led_by = forms.CharField(label=_("Led by"), max_length=60)
    attendees = ModelMultipleChoiceField(
        label=_("Members who took part (that day's visitors)"),
        queryset=Member.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    others = forms.IntegerField(label=_("Others"), min_value=0, max_value=10_000, initial=0)
    notes = forms.CharField(label=_("Notes"), required=False, widget=forms.Textarea({"rows": 3}))
    planned = PlannedChoice(
        label=_("Planned activity"), queryset=PlannedActivity.objects.none(), required=False
    )
    photos = PhotosField(label=_("Photos (JPEG or PNG, at most 5 MB each)"))

    def __init__(
        self,
        *args: Any,
        room: Any,
        visits: list[Visit],
        planned: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        attendees = cast(forms.ModelMultipleChoiceField, self.fields["attendees"])
        # Any member of the room passes the form: the service says who did not visit.
        attendees.queryset = Member.objects.filter(room=room)
        attendees.widget.choices = [  # type: ignore[attr-defined]
            (v.member_id, f"{v.member} {timezone.localtime(v.checked_in_at):%H:%M}") for v in visits
        ]
        cast(forms.ModelChoiceField, self.fields["planned"]).queryset = planned

    def record(self) -> RecordIn:
        d = self.cleaned_data
        return RecordIn(
            date=d["date"],
            starts=d["starts"],
            ends=d["ends"],
            kind=d["kind"],
            game=d["game"],
            title=d["title"],
            led_by=d["led_by"],
            attendees=tuple(d["attendees"]),
            others=d["others"],
            notes=d["notes"],
            planned=d["planned"],
        )


class CorrectionForm(RecordForm):
    reason = forms.CharField(
        label=_("Why the record is corrected"),
        max_length=200,
        error_messages={"required": _("Say why the record is corrected.")},
    )
    remove = forms.TypedMultipleChoiceField(
        label=_("Remove photos"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, photos: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedMultipleChoiceField, self.fields["remove"]).choices = photos
