"""Forms of the play app: they validate input and build what they were given into a
hand record (HAND_RECORD.md), nothing else.

The hand entry page is several plain forms (``HandEntry``): the hand (winners, who
dealt in; 诈糊 / 相公 on 工地 tables), one ``SeatForm`` per seat under the seat's
prefix (``S-hard``, ``S-concealed`` …: quick entry or the tiles), the kongs and the
penalties as formsets, and on a confirm the preview's hidden fields.

Quick: hard flowers, soft flowers, feature ticks, flags, liable seat. Tiles: the
winner's concealed tiles (MPSZ, or tapped on the palette), melds, winning tile,
flowers and (南京) the tiles of others' exposed pongs. The kong rows are for the
seats that do not enter their tiles.

What those values mean (the meld tokens ``P5sW``, quick or tiles, the winner's own
kongs, the winning tile by default) is ``scoring.entry``'s: these forms only read the
fields and place scoring's refusals beside them (``ScoringError.path``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _

import scoring.entry
import scoring.features
import scoring.record
from clubapp.core.jsontext import read_json
from clubapp.core.models import Room
from clubapp.members.models import Table
from clubapp.play import selectors
from clubapp.play.models import SEATS, Mode, RulesetVersion, SettleEvery, Wind
from clubapp.play.refusals import said
from scoring import ScoringError
from scoring.errors import Path
from scoring.rulesets import Ruleset

#: the seats by wind: 东 南 西 北 (East South West North on an English page)
SEAT_CHOICES: list[tuple[str, Any]] = list(Wind.choices)
NO_SEAT: list[tuple[str, Any]] = [("", "—")]
#: the names of scoring's kong kinds: 明杠 补杠 暗杠 花杠 (their English on an English page)
_KONG_NAMES = {
    "exposed": _("exposed kong"),
    "upgraded": _("added kong"),
    "concealed": _("concealed kong"),
    "flower": _("flower kong"),
}
KONG_TYPES: list[tuple[str, Any]] = [
    ("", "—"),
    *((kind, _KONG_NAMES[kind]) for kind in scoring.record.KONG_TYPES),
]
#: the names of scoring's penalties: 跟打, 四张同打
_PENALTY_NAMES = {
    "follow": _("same discard four in a row"),
    "four_discards": _("four of a tile discarded"),
}
PENALTY_TYPES: list[tuple[str, Any]] = [
    ("", "—"),
    *((kind, _PENALTY_NAMES[kind]) for kind in scoring.record.PENALTY_TYPES),
]


# ------------------------------------------------------------------ sessions, rulesets


class VisitChoice(forms.ModelChoiceField):
    """A checked-in player by name (a member's name, or a non-member's with a mark):
    never an account or a login name."""

    def label_from_instance(self, obj: Any) -> str:
        if obj.member_id is None:
            return str(_("%(name)s (non-member)") % {"name": obj.visitor_name})
        return str(obj.visitor_name)


class TableChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        if obj.occupied:
            return str(_("%(table)s (marked occupied)") % {"table": obj.label})
        return str(obj.label)


class SessionForm(forms.Form):
    """A new table: one of the room's free tables, the ruleset and mode, and a
    checked-in player at each wind (``typed_names``: a manager may type a guest's name
    instead, with the reason)."""

    table = TableChoice(label=_("Table"), queryset=Table.objects.none())
    ruleset = forms.ModelChoiceField(label=_("Ruleset"), queryset=RulesetVersion.objects.none())
    mode = forms.ChoiceField(label=_("Mode"), choices=Mode.choices, initial=Mode.OPEN)
    garden_size = forms.IntegerField(
        label=_("Garden size (points)"), min_value=1, max_value=100000, required=False
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
        label=_("Games in the night"), choices=[(2, "2"), (3, "3")], coerce=int, initial=2
    )

    def __init__(self, *args: Any, room: Room, typed_names: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typed_names = typed_names
        rulesets = self.fields["ruleset"]
        rulesets.queryset = selectors.ruleset_versions_latest(room=room)  # type: ignore[attr-defined]
        rulesets.label_from_instance = lambda version: version.name  # type: ignore[attr-defined]
        # the room's default ruleset is chosen unless the form says otherwise
        if room.default_ruleset and not self.is_bound:
            default = rulesets.queryset.filter(ruleset_id=room.default_ruleset).first()  # type: ignore[attr-defined]
            if default is not None:
                self.initial.setdefault("ruleset", default.pk)
        self.fields["table"].queryset = selectors.tables_openable(room=room)  # type: ignore[attr-defined]
        visits = selectors.visits_seatable(room=room)
        for wind, label in zip(SEATS, Wind.labels, strict=True):
            self.fields[f"visit_{wind}"] = VisitChoice(
                label=label, queryset=visits, required=False, empty_label=_("— choose —")
            )
            if typed_names:
                self.fields[f"name_{wind}"] = forms.CharField(
                    label=_("or a guest's name"), max_length=60, required=False
                )
                self.fields[f"reason_{wind}"] = forms.CharField(
                    label=_("why not checked in"), max_length=200, required=False
                )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("mode") == Mode.GARDEN and not data.get("garden_size"):
            self.add_error("garden_size", _("A garden table needs the size of its garden."))
        ruleset = data.get("ruleset")
        if data.get("mode") == Mode.GARDEN and ruleset and ruleset.family != "nanjing":
            self.add_error("mode", _("The garden is a mode of Nanjing mahjong."))
        taken: set[int] = set()
        for wind in SEATS:
            visit = data.get(f"visit_{wind}")
            name = (data.get(f"name_{wind}") or "").strip()
            if visit is not None and name:
                self.add_error(
                    f"name_{wind}", _("Choose a checked-in player or type a name, not both.")
                )
            elif visit is not None:
                if visit.pk in taken:
                    self.add_error(
                        f"visit_{wind}",
                        _("%(name)s has a seat already: one player, one seat.")
                        % {"name": visit.visitor_name},
                    )
                taken.add(visit.pk)
            elif name:
                if not (data.get(f"reason_{wind}") or "").strip():
                    self.add_error(
                        f"reason_{wind}",
                        _("Give the reason for typing a name instead of a check-in."),
                    )
            elif f"visit_{wind}" not in self.errors:
                self.add_error(f"visit_{wind}", _("Every seat needs a player."))
        return data

    def seat_fields(self) -> list[dict[str, Any]]:
        return [
            {
                "visit": self[f"visit_{w}"],
                "name": self[f"name_{w}"] if self.typed_names else None,
                "reason": self[f"reason_{w}"] if self.typed_names else None,
            }
            for w in SEATS
        ]

    def garden_fields(self) -> list[forms.BoundField]:
        return [self["garden_size"], self["end_when_out"]]


class RulesetForm(forms.Form):
    """A ruleset's parameters as JSON; scoring checks them on save. The text is bounded
    before it is parsed (``clubapp.core.jsontext``): the largest shipped ruleset is
    under 1,000 characters and 3 levels deep."""

    MAX_CHARS = 20_000
    MAX_DEPTH = 8

    params = forms.CharField(
        label=_("Parameters (JSON)"), widget=forms.Textarea(attrs={"rows": 24})
    )

    def clean_params(self) -> dict[str, Any]:
        value = read_json(
            self.cleaned_data["params"], max_chars=self.MAX_CHARS, max_depth=self.MAX_DEPTH
        )
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The parameters must be a JSON object."))
        return value


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)
    #: a double tap voids once
    key = forms.UUIDField(widget=forms.HiddenInput)


# ------------------------------------------------------------------ hand entry


class HandForm(forms.Form):
    """Who won (none: a drawn hand) and who dealt in; on 工地 tables 诈糊 and 相公."""

    winners = forms.MultipleChoiceField(
        label=_("Winner(s)"),
        choices=SEAT_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    discarder = forms.ChoiceField(
        label=_("Dealt in by"),
        choices=[("", _("self-drawn")), *SEAT_CHOICES],
        required=False,
        widget=forms.RadioSelect,
    )
    false_wins = forms.MultipleChoiceField(
        label=_("false win"),
        choices=SEAT_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    dead_hands = forms.MultipleChoiceField(
        label=_("dead hand"),
        choices=SEAT_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, family: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if family != "worksite":
            del self.fields["false_wins"], self.fields["dead_hands"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("discarder") and data["discarder"] in (data.get("winners") or []):
            self.add_error("discarder", _("A winner cannot have dealt in."))
        return data


class SeatForm(forms.Form):
    """One seat's win, under the seat's wind as prefix: quick (counts and ticks) or by
    its tiles. Only the winners' forms go into the record."""

    hard = forms.IntegerField(label=_("Hard flowers"), min_value=0, max_value=20, required=False)
    soft = forms.IntegerField(label=_("Soft flowers"), min_value=0, max_value=40, required=False)
    features = forms.MultipleChoiceField(
        label=_("Features"), required=False, widget=forms.CheckboxSelectMultiple
    )
    flags = forms.MultipleChoiceField(
        label=_("How it was won"), required=False, widget=forms.CheckboxSelectMultiple
    )
    liable = forms.ChoiceField(label=_("Liable"), choices=NO_SEAT + SEAT_CHOICES, required=False)
    concealed = forms.CharField(
        label=_("Tiles in hand, the winning tile included"), max_length=60, required=False
    )
    melds = forms.CharField(label=_("Pongs and kongs shown"), max_length=80, required=False)
    winning_tile = forms.CharField(label=_("Winning tile"), max_length=2, required=False)
    flowers = forms.CharField(label=_("Flowers"), max_length=60, required=False)
    others_ponged = forms.CharField(
        label=_("Pongs of others on the table (for the closed wait on a ponged tile)"),
        max_length=20,
        required=False,
    )

    def __init__(
        self, *args: Any, ruleset: Ruleset, ticks: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["features"].choices = ticks  # type: ignore[attr-defined]
        self.fields["flags"].choices = scoring.features.FLAGS[ruleset.family]  # type: ignore[attr-defined]
        if ruleset.family == "worksite":
            del self.fields["others_ponged"]
        self.label = dict(SEAT_CHOICES)[str(self.prefix)]

    def clean_melds(self) -> list[dict[str, Any]]:
        text = self.cleaned_data.get("melds") or ""
        if not text.strip():
            return []
        try:
            return scoring.entry.melds(text)
        except ScoringError as exc:
            raise forms.ValidationError(said(exc)) from None


class KongForm(forms.Form):
    """A kong of a seat that is not the winner entering its tiles."""

    seat = forms.ChoiceField(label=_("Kong by"), choices=NO_SEAT + SEAT_CHOICES, required=False)
    kind = forms.ChoiceField(label=_("Kind"), choices=KONG_TYPES, required=False)
    fed_by = forms.ChoiceField(label=_("Fed by"), choices=NO_SEAT + SEAT_CHOICES, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("seat")) != bool(data.get("kind")):
            self.add_error("kind", _("Give who made the kong and its kind."))
        return data


class PenaltyForm(forms.Form):
    kind = forms.ChoiceField(label=_("Penalty"), choices=PENALTY_TYPES, required=False)
    seat = forms.ChoiceField(label=_("Paid by"), choices=NO_SEAT + SEAT_CHOICES, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("kind")) != bool(data.get("seat")):
            self.add_error("seat", _("Give the penalty and who pays it."))
        return data


KongFormSet = forms.formset_factory(KongForm, extra=4, max_num=4, absolute_max=4)
PenaltyFormSet = forms.formset_factory(PenaltyForm, extra=2, max_num=2, absolute_max=2)


class BookForm(forms.Form):
    """What a preview page carries to its confirm: a key (a double tap books once), the
    digest of the record previewed, and the number of the row the preview followed."""

    key = forms.UUIDField()
    previewed = forms.CharField(max_length=64)
    after = forms.IntegerField(min_value=0)


class QueuedBookForm(BookForm):
    """What a phone sends for a hand it kept while offline (docs/play.md "Offline"):
    no preview was seen, so no digest; its basis is the row it follows and the last
    row of the table's last statement as the phone saw them."""

    previewed = forms.CharField(max_length=64, required=False)
    settled = forms.IntegerField(min_value=0)


def digest(record: Mapping[str, Any]) -> str:
    """A short fingerprint of a record: the confirm books only what was previewed."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class HandEntry:
    """The entry page's forms, validated and read as one hand record.

    ``book``: the data is a confirm's, so its hidden fields are read too and the
    record must be the one previewed (else ``changed``: the page shows it afresh).
    """

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        ruleset: Ruleset,
        book: bool = False,
        queued: bool = False,
    ) -> None:
        self.family = ruleset.family
        self.hand = HandForm(data, family=ruleset.family)
        # the ruleset's ticks, asked once for the four seats
        ticks = scoring.features.ticks(ruleset)
        self.seats = [SeatForm(data, prefix=seat, ruleset=ruleset, ticks=ticks) for seat in SEATS]
        self.kongs = KongFormSet(data, prefix="kong")
        self.penalties = PenaltyFormSet(data, prefix="penalty")
        self.queued = queued
        self.book = (QueuedBookForm(data) if queued else BookForm(data)) if book else None
        self._valid: bool | None = None
        self._record: dict[str, Any] | None = None
        #: the kong and penalty forms in the record's order (for placing errors)
        self.kong_forms: list[KongForm] = []
        self.penalty_forms: list[PenaltyForm] = []

    def forms(self) -> list[Any]:
        return [self.hand, *self.seats, self.kongs, self.penalties]

    def is_valid(self) -> bool:
        """Every form valid (each one validated, for all its errors), each winner's
        flowers or tiles given, and a confirm's record the one previewed. Read once."""
        if self._valid is not None:
            return self._valid
        self._valid = False
        valid = [form.is_valid() for form in self.forms()]  # every form, for every error
        if not all(valid):
            return False
        for seat in self.winners():
            if not seat.cleaned_data["concealed"].strip() and seat.cleaned_data["hard"] is None:
                seat.add_error("hard", _("Give the hard flowers, or the tiles of the hand."))
                return False
        if self.book is not None and not (
            self.book.is_valid()
            and (self.queued or self.book.cleaned_data["previewed"] == digest(self.record()))
        ):
            self.book.add_error(
                None,
                forms.ValidationError(
                    _("The hand or the table changed since the preview: check it again."),
                    code="changed",
                ),
            )
            return False
        self._valid = True
        return True

    @property
    def changed(self) -> bool:
        """A confirm whose hand is no longer the one previewed."""
        return self.book is not None and self.book.has_error(NON_FIELD_ERRORS, "changed")

    def winners(self) -> list[SeatForm]:
        chosen = self.hand.cleaned_data.get("winners") or []
        return [form for form in self.seats if form.prefix in chosen]

    def record(self) -> dict[str, Any]:
        """The hand record of the valid forms (dealer, doubling and 园子 come from the
        table: ``services.hand_preview``)."""
        if self._record is not None:
            return self._record
        hand = self.hand.cleaned_data
        discarder = hand["discarder"] or None
        # the rows filled in (a kong names its seat, a penalty its kind), in order
        self.kong_forms = [form for form in self.kongs if form.cleaned_data.get("seat")]
        self.penalty_forms = [form for form in self.penalties if form.cleaned_data.get("kind")]
        worksite = "false_wins" in self.hand.fields
        self._record = scoring.entry.record(
            # each winner's fields as scoring.entry.win() takes them
            [
                {
                    **form.cleaned_data,
                    "seat": str(form.prefix),
                    "discarder": discarder,
                    "others_ponged": form.cleaned_data.get("others_ponged") or "",
                }
                for form in self.winners()
            ],
            # (seat, kind, fed by), as scoring.entry.kong() takes them
            [
                (row["seat"], row["kind"], row["fed_by"] or None)
                for row in (form.cleaned_data for form in self.kong_forms)
            ],
            [(f.cleaned_data["kind"], f.cleaned_data["seat"]) for f in self.penalty_forms],
            false_wins=hand["false_wins"] if worksite else None,
            dead_hands=hand["dead_hands"] if worksite else (),
        )
        return self._record

    def non_field_errors(self) -> list[str]:
        errors = [*self.hand.non_field_errors(), *self.kongs.non_form_errors()]
        return [str(error) for error in [*errors, *self.penalties.non_form_errors()]]

    def has_errors(self) -> bool:
        """Whether any field or row has an error (a formset's ``errors`` is a list of
        one dict per row: never empty, so its rows are counted instead)."""
        rows = self.kongs.total_error_count() + self.penalties.total_error_count()
        return bool(rows) or any(form.errors for form in [self.hand, *self.seats])

    def add_scoring_error(self, error: ScoringError, message: str) -> None:
        """Place scoring's ``error`` beside the field its path names (``error.path``), or
        above the form when it names none of them."""
        form, name = self._field_of(error.path)
        form.add_error(name, message)

    def _field_of(self, path: Path) -> tuple[Any, str | None]:
        record = self.record()
        match path:
            case ("wins", int(index), *rest):
                return self._win_field(record["wins"], index, str(rest[0]) if rest else "")
            case ("penalties", int(index), *rest):
                if index < len(self.penalty_forms):
                    return self.penalty_forms[index], "kind" if rest[:1] == ["type"] else "seat"
            case ("kongs", int(index), *rest):
                own = len(record["kongs"]) - len(self.kong_forms)  # the winners' own come first
                if own <= index < len(record["kongs"]):
                    return self.kong_forms[index - own], "fed_by" if rest[:1] == [
                        "from"
                    ] else "kind"
                seat_of = record["kongs"][index]["seat"] if index < len(record["kongs"]) else None
                for form in self.seats:
                    if form.prefix == seat_of:
                        return form, "melds"
            case ("false_wins" | "dead_hands" as key,) if key in self.hand.fields:
                return self.hand, key
        return self.hand, None

    def _win_field(
        self, wins: list[dict[str, Any]], index: int, key: str
    ) -> tuple[Any, str | None]:
        """The field of the ``index``-th win's ``key`` (``""``: the win itself)."""
        if index >= len(wins):
            return self.hand, None
        if key in ("", "seat"):
            return self.hand, "winners"
        if key == "discarder":
            return self.hand, "discarder"
        win = wins[index]
        seat = next(form for form in self.seats if form.prefix == win["seat"])
        name = _FIELD_OF_KEY.get(key)
        if name is None:
            return self.hand, "winners"
        if name in _TILE_FIELDS and "concealed" not in win:
            name = "hard"  # a quick win: its counts are at fault
        return seat, name if name in seat.fields else "concealed"


_FIELD_OF_KEY = {
    "hard_flowers": "hard",
    "soft_flowers": "soft",
    "features": "features",
    "flags": "flags",
    "kong_chain": "flags",
    "liable": "liable",
    "concealed": "concealed",
    "melds": "melds",
    "winning_tile": "winning_tile",
    "flowers": "flowers",
    "passed": "concealed",
    "others_ponged": "others_ponged",
}
_TILE_FIELDS = {"concealed", "winning_tile", "flowers", "melds", "others_ponged"}
