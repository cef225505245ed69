"""Forms of the tournaments: they validate input, ``services.tournaments`` writes."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubapp.activities.models import ActivityKind, Entrant, Format, Game, PlannedActivity, RankBy
from clubapp.core.models import Room
from clubapp.members import selectors as members_selectors
from clubapp.members.models import Member, Table
from clubapp.play import selectors as play_selectors
from clubapp.play.models import SEATS, RulesetVersion, Wind

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
DATE_ERRORS = {"invalid": _("Enter a date such as 2026-11-30.")}


def _key_field() -> forms.UUIDField:
    # A fresh key each time the form is shown: the same form sent twice books once.
    return forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)


class RulesetChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.name)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Format.choices,
        help_text=_("Mahjong plays tables of four; the other games round robin or Swiss."),
    )
    starts = forms.DateField(
        label=_("Starts"), widget=DATE, error_messages=DATE_ERRORS, initial=timezone.localdate
    )
    ends = forms.DateField(
        label=_("Ends"), widget=DATE, error_messages=DATE_ERRORS, initial=timezone.localdate
    )
    rounds_planned = forms.IntegerField(label=_("Rounds planned"), min_value=1, max_value=50)
    entry_fee = forms.DecimalField(
        label=_("Entry fee (yuan)"),
        min_value=Decimal("0"),
        max_digits=10,
        decimal_places=2,
        initial=Decimal("0.00"),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        error_messages={
            "invalid": _("Enter the amount as a number of yuan, such as 12.50."),
            "min_value": _("The entry fee is a number of yuan, zero or more, such as 20.00."),
            "max_decimal_places": _("An amount has at most two decimal places (fen)."),
        },
    )
    ruleset = RulesetChoice(
        label=_("Mahjong: ruleset"),
        queryset=RulesetVersion.objects.none(),
        required=False,
    )
    rank_by = forms.ChoiceField(
        label=_("Mahjong: rank by"), choices=RankBy.choices, initial=RankBy.POINTS
    )
    placings = forms.CharField(
        label=_("Mahjong: placing points, first to fourth"), initial="4,2,1,0", max_length=40
    )
    planned = forms.ModelChoiceField(
        label=_("Planned activity"), queryset=PlannedActivity.objects.none(), required=False
    )

    def __init__(self, *args: Any, room: Room, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruleset = self.fields["ruleset"]
        assert isinstance(ruleset, forms.ModelChoiceField)
        ruleset.queryset = play_selectors.ruleset_versions_latest(room=room)
        planned = self.fields["planned"]
        assert isinstance(planned, forms.ModelChoiceField)
        # the tournaments of the room's plans (the plans' part decides which version holds)
        planned.queryset = PlannedActivity.objects.filter(
            room=room, kind=ActivityKind.TOURNAMENT
        ).order_by("-date", "-pk")


class EntrantChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.name)


class EntrantForm(forms.Form):
    member = EntrantChoice(label=_("Member"), queryset=Member.objects.none())
    late = forms.BooleanField(
        label=_("Late entry: the fee's day is closed; book it on the next open day"),
        required=False,
    )
    request_key = _key_field()

    def __init__(self, *args: Any, room: Room, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["member"]
        assert isinstance(member, forms.ModelChoiceField)
        member.queryset = Member.objects.filter(room=room)


WIN, DRAW, LOSS, SCORE = "win", "draw", "loss", "score"


class ResultForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Result"),
        choices=[
            (WIN, _("First wins")),
            (DRAW, _("Draw")),
            (LOSS, _("Second wins")),
            (SCORE, _("Scores")),
        ],
    )
    first_score = forms.IntegerField(label=_("First's score"), min_value=0, required=False)
    second_score = forms.IntegerField(label=_("Second's score"), min_value=0, required=False)

    def scores(self) -> tuple[int, int]:
        data = self.cleaned_data
        outcome = data["outcome"]
        if outcome == WIN:
            return 1, 0
        if outcome == LOSS:
            return 0, 1
        if outcome == DRAW:
            return 1, 1
        if data.get("first_score") is None or data.get("second_score") is None:
            raise ValidationError(_("Enter both scores."), code="scores")
        return int(data["first_score"]), int(data["second_score"])


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Draw seed"),
        min_value=0,
        max_value=10**9 - 1,
        required=False,
        help_text=_("Empty: a seed is chosen at random and shown."),
    )


class EntrantSeat(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.number}. {obj.member.name}"


class RoundSetForm(forms.Form):
    """A 麻将 round's seats by hand: four entrants a table, 东南西北; a table left
    empty is not played."""

    def __init__(self, *args: Any, entrants: Sequence[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table_count = max(1, len(entrants) // len(SEATS))
        pks = [e.pk for e in entrants]
        for table in range(1, self.table_count + 1):
            for wind in SEATS:
                self.fields[f"t{table}-{wind}"] = EntrantSeat(
                    label=Wind(wind).label,
                    queryset=Entrant.objects.filter(pk__in=pks).select_related("member"),
                    required=False,
                )

    def tables(self) -> list[list[Entrant]]:
        out = []
        for table in range(1, self.table_count + 1):
            four = [self.cleaned_data.get(f"t{table}-{wind}") for wind in SEATS]
            if not any(four):
                continue
            if not all(four):
                raise ValidationError(
                    _("Table %(table)s: every table seats four entrants.") % {"table": table},
                    code="table_of_four",
                )
            out.append([e for e in four if e is not None])
        return out

    def table_fields(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [
            (table, [self[f"t{table}-{wind}"] for wind in SEATS])
            for table in range(1, self.table_count + 1)
        ]


class BoardChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.label)


class TableOpenForm(forms.Form):
    board = BoardChoice(label=_("At the room's table"), queryset=Table.objects.none())

    def __init__(self, *args: Any, room: Room, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        board = self.fields["board"]
        assert isinstance(board, forms.ModelChoiceField)
        board.queryset = members_selectors.tables_free(room=room)
