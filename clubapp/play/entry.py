"""The hand entry form: quick or tiles, per winner, on one page; it builds a hand
record (HAND_RECORD.md) and places scoring's errors beside the field at fault.

Quick: winners, discarder (or self-drawn), hard flowers, soft flowers, feature
ticks, flags, liable seat. Tiles: the winner's concealed tiles (MPSZ, or tapped
on the palette), melds, winning tile and flowers; scoring reads the features
itself. A winner with concealed tiles is entered by tiles, otherwise quick.

Melds are typed as short tokens: ``P5sW`` a pong of 5s fed by W, ``K1zN`` an
exposed kong fed by N, ``K7m`` a concealed kong, ``U3pS`` a pong fed by S later
upgraded. In tiles mode the winner's kongs and flower kongs are added to the
record's ``kongs`` from the melds and flowers; the kong rows are for the rest.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring.liability
import scoring.nanjing
import scoring.tiles
import scoring.worksite
from clubapp.play.models import SEATS, RulesetVersion
from scoring import ScoringError
from scoring.rulesets import NANJING_BONUSES, WORKSITE_BONUSES

SEAT_CHOICES = [("E", "东"), ("S", "南"), ("W", "西"), ("N", "北")]
NO_SEAT = [("", "—")]
FLAGS = {
    "nanjing": [
        ("after_flower", "小杠开花"),
        ("after_kong", "大杠开花"),
        ("robbing_kong", "抢杠"),
        ("kuaizhao", "快照"),
        ("tianhu", "天胡"),
        ("dihu", "地胡"),
    ],
    "worksite": [
        ("after_kong", "杠上开花"),
        ("kong_discard", "杠后炮"),
        ("robbing_kong", "抢杠"),
        ("tianhu", "天糊"),
        ("last_tile", "海底捞月"),
    ],
}
KONG_TYPES = [
    ("", "—"),
    ("exposed", "明杠"),
    ("upgraded", "补杠"),
    ("concealed", "暗杠"),
    ("flower", "花杠"),
]
PENALTY_TYPES = [("", "—"), ("follow", "跟打"), ("four_discards", "四张同打")]
CHIPS = forms.CheckboxSelectMultiple
KONG_ROWS = 4
PENALTY_ROWS = 2
_MELD = re.compile(r"^([PKU])([1-9][mpsz])([ESWN])?$")

#: ticks that cannot be held together (the page greys them out; scoring refuses them)
_NANJING_PAIRS = ("qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui")
_WORKSITE_PAIRS = scoring.worksite.SEVEN_PAIR_TIERS


def feature_choices(ruleset: RulesetVersion) -> list[tuple[str, str]]:
    """The ticks a ruleset offers: its bonuses, less those only flags can give."""
    bonus = ruleset.params.get("bonus", {})
    if ruleset.family == "worksite":
        return [(c, scoring.worksite.NAMES[c]) for c in WORKSITE_BONUSES if c in bonus]
    flagged = set(scoring.nanjing.FLAG_BONUSES.values())
    return [
        (c, scoring.nanjing.NAMES[c]) for c in NANJING_BONUSES if c in bonus and c not in flagged
    ]


def conflicts(ruleset: RulesetVersion) -> dict[str, list[str]]:
    """For each tick, the ticks it excludes (symmetric)."""
    groups: list[tuple[set[str], set[str]]] = []
    if ruleset.family == "worksite":
        pairs = set(_WORKSITE_PAIRS)
        sets = {"menqianqing", "duiduihu", "dadiaoche", "dasixi", "xiaosixi"}
        sets |= {"yitiaolong", "sananke", "sianke"}
        groups += [({"dasixi"}, {"xiaosixi"}), ({"sananke"}, {"sianke"})]
    else:
        pairs = {*_NANJING_PAIRS, "shuang_qidui"}
        sets = {"menqing", "duiduihu", "quanqiu_dudiao", "yajue"}
    groups += [(pairs, sets), ({"hunyise"}, {"qingyise"})]
    out: dict[str, set[str]] = {}
    for a, b in groups:
        for x in a:
            out.setdefault(x, set()).update(b)
        for y in b:
            out.setdefault(y, set()).update(a)
    for x in pairs:
        out.setdefault(x, set()).update(pairs - {x})
    return {k: sorted(v) for k, v in sorted(out.items())}


@functools.lru_cache(maxsize=64)
def _entry_fields(family: str, features: tuple[tuple[str, str], ...]) -> dict[str, forms.Field]:
    """The per-seat, kong and penalty fields of the entry form for a ruleset's family
    and ticks, built once and shared by every form of that kind (read-only: nothing
    sets a field's attributes after this; a form copies only its two declared fields)."""
    fields: dict[str, forms.Field] = {}
    for seat in SEATS:
        fields[f"hard_{seat}"] = forms.IntegerField(
            label=_("Hard flowers"), min_value=0, max_value=20, required=False
        )
        fields[f"soft_{seat}"] = forms.IntegerField(
            label=_("Soft flowers"), min_value=0, max_value=40, required=False
        )
        fields[f"features_{seat}"] = forms.MultipleChoiceField(
            label=_("Features"),
            choices=features,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        fields[f"flags_{seat}"] = forms.MultipleChoiceField(
            label=_("How it was won"),
            choices=FLAGS[family],
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        fields[f"liable_{seat}"] = forms.ChoiceField(
            label=_("Liable (包牌)"), choices=NO_SEAT + SEAT_CHOICES, required=False
        )
        fields[f"concealed_{seat}"] = forms.CharField(
            label=_("Concealed tiles (MPSZ)"), max_length=60, required=False
        )
        fields[f"melds_{seat}"] = forms.CharField(
            label=_("Melds (P5sW K1zN K7m U3pS)"), max_length=80, required=False
        )
        fields[f"winning_tile_{seat}"] = forms.CharField(
            label=_("Winning tile"), max_length=2, required=False
        )
        fields[f"flowers_{seat}"] = forms.CharField(
            label=_("Flowers"), max_length=60, required=False
        )
    for i in range(KONG_ROWS):
        fields[f"kong_seat_{i}"] = forms.ChoiceField(
            label=_("Kong by"), choices=NO_SEAT + SEAT_CHOICES, required=False
        )
        fields[f"kong_type_{i}"] = forms.ChoiceField(
            label=_("Kind"), choices=KONG_TYPES, required=False
        )
        fields[f"kong_from_{i}"] = forms.ChoiceField(
            label=_("Fed by"), choices=NO_SEAT + SEAT_CHOICES, required=False
        )
    for i in range(PENALTY_ROWS):
        fields[f"penalty_type_{i}"] = forms.ChoiceField(
            label=_("Penalty"), choices=PENALTY_TYPES, required=False
        )
        fields[f"penalty_seat_{i}"] = forms.ChoiceField(
            label=_("Paid by"), choices=NO_SEAT + SEAT_CHOICES, required=False
        )
    if family == "worksite":
        fields["false_wins"] = forms.MultipleChoiceField(
            label=_("诈糊"),
            choices=SEAT_CHOICES,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        fields["dead_hands"] = forms.MultipleChoiceField(
            label=_("相公"),
            choices=SEAT_CHOICES,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
    return fields


class HandEntryForm(forms.Form):
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

    def __init__(self, *args: Any, ruleset: RulesetVersion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        family = "worksite" if ruleset.family == "worksite" else "nanjing"
        # shared, never changed: building ~50 fields costs more than a booking's queries
        self.fields.update(_entry_fields(family, tuple(feature_choices(ruleset))))

    def _clean_fields(self) -> None:
        """Django's cleaning, with a short way for the many boxes a phone sends back
        empty: an optional field whose value is empty cleans to its empty value (the
        value ``field.clean`` gives it: None, "" or []), without building its bound
        field. Every other field is cleaned the usual way."""
        for name, field in self.fields.items():
            if not field.required and not field.disabled:
                value = field.widget.value_from_datadict(
                    self.data, self.files, self.add_prefix(name)
                )
                if value in field.empty_values:
                    self.cleaned_data[name] = field.to_python(value)
                    continue
            try:
                self.cleaned_data[name] = field.clean(self[name].data)
            except forms.ValidationError as exc:
                self.add_error(name, exc)

    # --- layout helpers for the template -------------------------------------------

    def seat_blocks(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "label": dict(SEAT_CHOICES)[seat],
                **{
                    name: self[f"{name}_{seat}"]
                    for name in (
                        "hard",
                        "soft",
                        "features",
                        "flags",
                        "liable",
                        "concealed",
                        "melds",
                        "winning_tile",
                        "flowers",
                    )  # fmt: skip
                },
            }
            for seat in SEATS
        ]

    def kong_rows(self) -> list[tuple[forms.BoundField, ...]]:
        return [
            (self[f"kong_seat_{i}"], self[f"kong_type_{i}"], self[f"kong_from_{i}"])
            for i in range(KONG_ROWS)
        ]

    def penalty_rows(self) -> list[tuple[forms.BoundField, ...]]:
        return [(self[f"penalty_type_{i}"], self[f"penalty_seat_{i}"]) for i in range(PENALTY_ROWS)]

    # --- building the record --------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        winners = data.get("winners") or []
        discarder = data.get("discarder") or None
        if discarder and discarder in winners:
            self.add_error("discarder", _("A winner cannot have dealt in."))
        for seat in winners:
            if (
                not (data.get(f"concealed_{seat}") or "").strip()
                and data.get(f"hard_{seat}") is None
            ):
                self.add_error(
                    f"hard_{seat}", _("Give the hard flowers, or the tiles of the hand.")
                )
            try:
                data[f"meld_list_{seat}"] = parse_melds(data.get(f"melds_{seat}") or "")
            except forms.ValidationError as exc:
                self.add_error(f"melds_{seat}", exc)
        for i in range(KONG_ROWS):
            seat, kind = data.get(f"kong_seat_{i}"), data.get(f"kong_type_{i}")
            if bool(seat) != bool(kind):
                self.add_error(f"kong_type_{i}", _("Give who made the kong and its kind."))
        for i in range(PENALTY_ROWS):
            if bool(data.get(f"penalty_type_{i}")) != bool(data.get(f"penalty_seat_{i}")):
                self.add_error(f"penalty_seat_{i}", _("Give the penalty and who pays it."))
        return data

    def record(self) -> dict[str, Any]:
        """The hand record of the cleaned form (dealer, doubling and 园子 come from the table)."""
        data = self.cleaned_data
        discarder = data.get("discarder") or None
        wins, kongs = [], []
        for seat in SEATS:
            if seat not in (data.get("winners") or []):
                continue
            win: dict[str, Any] = {"seat": seat, "discarder": discarder}
            liable = data.get(f"liable_{seat}") or None
            if liable:
                win["liable"] = liable
            flags = list(data.get(f"flags_{seat}") or [])
            if flags:
                win["flags"] = flags
            concealed = (data.get(f"concealed_{seat}") or "").replace(" ", "")
            features = list(data.get(f"features_{seat}") or [])
            if concealed:
                melds = data.get(f"meld_list_{seat}") or []
                flowers = (data.get(f"flowers_{seat}") or "").replace(" ", "")
                win["concealed"] = concealed
                win["melds"] = melds
                win["winning_tile"] = (data.get(f"winning_tile_{seat}") or "").strip() or (
                    _last_tile(concealed)
                )
                win["flowers"] = flowers
                if features:
                    win["features"] = features
                kongs += _kongs_of(seat, melds, flowers)
            else:
                win["hard_flowers"] = data.get(f"hard_{seat}") or 0
                win["soft_flowers"] = data.get(f"soft_{seat}") or 0
                win["features"] = features
            wins.append(win)
        for i in range(KONG_ROWS):
            seat, kind = data.get(f"kong_seat_{i}"), data.get(f"kong_type_{i}")
            if seat and kind:
                feeder = data.get(f"kong_from_{i}") or None
                if kind in ("concealed", "flower"):
                    feeder = None
                kongs.append({"seat": seat, "type": kind, "from": feeder})
        penalties = [
            {"type": data[f"penalty_type_{i}"], "seat": data[f"penalty_seat_{i}"]}
            for i in range(PENALTY_ROWS)
            if data.get(f"penalty_type_{i}") and data.get(f"penalty_seat_{i}")
        ]
        record: dict[str, Any] = {"wins": wins, "kongs": kongs, "penalties": penalties}
        if "false_wins" in self.fields:
            record["false_wins"] = [{"seat": s} for s in data.get("false_wins") or []]
            record["dead_hands"] = [{"seat": s} for s in data.get("dead_hands") or []]
        return record


def parse_melds(text: str) -> list[dict[str, Any]]:
    """``P5sW K7m`` → the contract's melds; a bad token is a form error in Chinese."""
    melds = []
    for token in re.split(r"[\s,，]+", text.strip()):
        if not token:
            continue
        match = _MELD.match(token[0].upper() + token[1:])
        if not match:
            raise forms.ValidationError(
                _("Cannot read the meld “%(token)s” (e.g. P5sW, K7m, U3pS)."),
                params={"token": token},
            )
        kind, tile, feeder = match.groups()
        if kind in "PU" and not feeder:
            raise forms.ValidationError(
                _("The pong “%(token)s” needs who fed it (e.g. P5sW)."), params={"token": token}
            )
        melds.append(
            {
                "type": "pong" if kind == "P" else "kong",
                "tile": tile,
                "from": feeder,
                "upgraded": kind == "U",
            }
        )
    return melds


def _last_tile(concealed: str) -> str:
    """The last tile written in MPSZ (``123m55p`` → ``5p``): what was won on by default."""
    match = re.search(r"(\d)\D*([mpsz])\s*$", concealed)
    return f"{match.group(1)}{match.group(2)}" if match else ""


def _kongs_of(seat: str, melds: list[dict[str, Any]], flowers: str) -> list[dict[str, Any]]:
    """The winner's kong entries, from the kong melds and the complete flower sets."""
    out = []
    for meld in melds:
        if meld["type"] != "kong":
            continue
        if meld["upgraded"]:
            out.append({"seat": seat, "type": "upgraded", "from": meld["from"]})
        elif meld["from"]:
            out.append({"seat": seat, "type": "exposed", "from": meld["from"]})
        else:
            out.append({"seat": seat, "type": "concealed", "from": None})
    try:
        codes = list(scoring.tiles.parse(flowers)) if flowers else []
    except ScoringError:
        return out  # scoring names the bad flower beside the field
    out += [{"seat": seat, "type": "flower", "from": None}] * scoring.tiles.flower_sets(codes)
    return out


def propose_liable(record: dict[str, Any], family: str) -> list[tuple[str, str, str]]:
    """Fill ``liable`` where the melds show who must pay as 包牌 and none was chosen.

    Returns (winner, liable, reason code) for each proposal made.
    """
    made = []
    for win in record.get("wins", []):
        if win.get("liable") or not (win.get("melds") or "robbing_kong" in win.get("flags", [])):
            continue
        if family == "worksite":
            seat, why = scoring.liability.worksite_liable(win.get("melds") or []), "worksite"
        else:
            seat, why = scoring.liability.propose_liable(win, record.get("kongs", []))
        if seat and seat != win["seat"]:
            win["liable"] = seat
            made.append((win["seat"], seat, why))
    return made


_WIN_FIELD = re.compile(r"^wins\[(\d+)\]\.?([a-z_]*)")
_ROW_FIELD = re.compile(r"^(kongs|penalties)\[(\d+)\]\.?([a-z_]*)")
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
}


def error_field(error: ScoringError, record: Mapping[str, Any], form: HandEntryForm) -> str | None:
    """The form field beside which ``error`` belongs, or None (shown above the form)."""
    where = error.field or ""
    match = _WIN_FIELD.match(where)
    if match:
        wins = record.get("wins") or []
        index, key = int(match.group(1)), match.group(2)
        if index >= len(wins):
            return None
        seat = wins[index]["seat"]
        if key == "discarder":
            return "discarder"
        if key == "seat" or not key:
            return "winners"
        name = _FIELD_OF_KEY.get(key)
        if name is None:
            return "winners"
        if (
            name in ("concealed", "winning_tile", "flowers", "melds")
            and "concealed" not in wins[index]
        ):
            name = "hard"
        return f"{name}_{seat}"
    match = _ROW_FIELD.match(where)
    if match:
        kind, index, key = match.group(1), int(match.group(2)), match.group(3)
        if kind == "penalties":
            return f"penalty_{'type' if key == 'type' else 'seat'}_{index}"
        # the winner's own kongs come first in tiles mode: they live in the melds
        kong = (record.get("kongs") or [])[index] if index < len(record.get("kongs") or []) else {}
        user_rows = [i for i in range(KONG_ROWS) if form.cleaned_data.get(f"kong_seat_{i}")]
        auto = len(record.get("kongs") or []) - len(user_rows)
        if index >= auto and index - auto < len(user_rows):
            row = user_rows[index - auto]
            return f"kong_{'from' if key == 'from' else 'type'}_{row}"
        seat = kong.get("seat")
        return f"melds_{seat}" if seat else None
    if where in ("false_wins", "dead_hands") and where in form.fields:
        return where
    return None
