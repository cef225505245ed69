"""The table-side entry page's grammar: from the plain values a form holds (texts,
counts, ticks, seats) to the entries of a hand record (HAND_RECORD.md).

Quick entry gives a winner's counts and ticks; tiles entry the winner's concealed
tiles, melds, winning tile and flowers, and scoring reads the features itself. A
winner with concealed tiles is entered by tiles, otherwise quick.

Melds are typed as short tokens: ``P5sW`` a pong of 5s fed by W, ``K1zN`` an exposed
kong fed by N, ``K7m`` a concealed kong, ``U3pS`` a pong fed by S later upgraded. In
tiles entry the winner's kongs and flower kongs go into the record's ``kongs`` from
the melds and flowers (``own_kongs``); kongs of other seats are entered one by one
(``kong``). ``record`` puts a page's winners, kong rows and penalty rows together.

Refusals name their input by ``code`` and ``params`` (the page words them itself) and
by ``field`` (``melds``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from . import tiles
from .errors import ScoringError

#: a meld token: the letter (P pong, K kong, U a pong later upgraded), the tile, the
#: seat that fed it (none: a concealed kong)
_MELD = re.compile(r"^([PKU])([1-9][mpsz])([ESWN])?$")
_SEPARATORS = re.compile(r"[\s,，]+")
#: the last tile written in MPSZ: its digit and the suit letter after it
_LAST_TILE = re.compile(r"(\d)\D*([mpsz])\s*$")
#: the kong kinds that nobody feeds
UNFED_KONGS = ("concealed", "flower")


def melds(text: str) -> list[dict[str, Any]]:
    """``P5sW K7m`` → the contract's melds (the letter may be lower case; tokens are
    parted by spaces or commas)."""
    out = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        match = _MELD.match(token[0].upper() + token[1:])
        if not match:
            raise ScoringError(
                f"cannot read the meld {token!r} (e.g. P5sW, K7m, U3pS)",
                field="melds",
                zh=f"无法识别副露“{token}”（例如 P5sW、K7m、U3pS）",
                code="meld_unreadable",
                params={"token": token},
            )
        kind, tile, feeder = match.groups()
        if kind in "PU" and not feeder:
            raise ScoringError(
                f"the pong {token!r} needs who fed it (e.g. P5sW)",
                field="melds",
                zh=f"碰“{token}”需要注明供牌者（例如 P5sW）",
                code="pong_needs_feeder",
                params={"token": token},
            )
        out.append(
            {
                "type": "pong" if kind == "P" else "kong",
                "tile": tile,
                "from": feeder,
                "upgraded": kind == "U",
            }
        )
    return out


def last_tile(concealed: str) -> str:
    """The last tile written in MPSZ (``123m55p`` → ``5p``): what was won on when the
    winning tile is not given; ``""`` when the text ends in no tile."""
    match = _LAST_TILE.search(concealed)
    return f"{match.group(1)}{match.group(2)}" if match else ""


def own_kongs(seat: str, melds: Sequence[dict[str, Any]], flowers: str) -> list[dict[str, Any]]:
    """A winner's kong entries, from the kong melds and the complete flower sets.
    Flowers that do not read give none: scoring refuses them by their own field."""
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
        codes = tiles.parse(flowers) if flowers else []
    except ScoringError:
        return out
    if not tiles.FLOWER_COPIES.keys() >= set(codes):
        return out  # playing tiles among the flowers: refused by scoring too
    out += [{"seat": seat, "type": "flower", "from": None}] * tiles.flower_sets(codes)
    return out


def kong(seat: str, kind: str, fed_by: str | None) -> dict[str, Any]:
    """A kong entry of a seat that is not entering its tiles: a concealed or flower kong
    keeps no feeder, whoever was picked."""
    return {"seat": seat, "type": kind, "from": None if kind in UNFED_KONGS else fed_by}


def win(
    seat: str,
    discarder: str | None,
    *,
    liable: str = "",
    flags: Sequence[str] = (),
    features: Sequence[str] = (),
    hard: int | None = None,
    soft: int | None = None,
    concealed: str = "",
    melds: Sequence[dict[str, Any]] = (),
    winning_tile: str = "",
    flowers: str = "",
    others_ponged: str = "",
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One winner's entry in the record, and the kongs its tiles show (tiles entry).

    Without ``concealed`` it is a quick entry: ``hard`` and ``soft`` (missing counts
    are 0) and the ticked ``features``. With them the tiles go in as typed, spaces
    left out, the winning tile being the last one written unless given."""
    entry: dict[str, Any] = {"seat": seat, "discarder": discarder}
    if liable:
        entry["liable"] = liable
    if flags:
        entry["flags"] = list(flags)
    concealed = concealed.replace(" ", "")
    if not concealed:
        entry["hard_flowers"] = hard or 0
        entry["soft_flowers"] = soft or 0
        entry["features"] = list(features)
        return entry, []
    flowers = flowers.replace(" ", "")
    entry["concealed"] = concealed
    entry["melds"] = list(melds)
    entry["winning_tile"] = winning_tile.strip() or last_tile(concealed)
    entry["flowers"] = flowers
    if others_ponged:
        entry["others_ponged"] = others_ponged.replace(" ", "")
    if features:
        entry["features"] = list(features)
    return entry, own_kongs(seat, melds, flowers)


def record(
    wins: Sequence[Mapping[str, Any]],
    kongs: Sequence[tuple[str, str, str | None]] = (),
    penalties: Sequence[tuple[str, str]] = (),
    *,
    false_wins: Sequence[str] | None = None,
    dead_hands: Sequence[str] = (),
) -> dict[str, Any]:
    """A hand's entries from a page: each of ``wins`` the keywords of ``win()``, the
    kong rows as (seat, kind, fed by), the penalty rows as (kind, seat). The winners'
    own kongs come first in ``kongs``, in the order of ``wins``, then the rows.
    ``false_wins`` (工地 only: None leaves 诈糊 and 相公 out) and ``dead_hands`` are
    seats. Dealer, doubling and 园子 are the table's, not the page's: not here."""
    out_wins, out_kongs = [], []
    for values in wins:
        entry, own = win(**values)
        out_wins.append(entry)
        out_kongs += own
    out_kongs += [kong(*row) for row in kongs]
    out: dict[str, Any] = {
        "wins": out_wins,
        "kongs": out_kongs,
        "penalties": [{"type": kind, "seat": seat} for kind, seat in penalties],
    }
    if false_wins is not None:
        out["false_wins"] = [{"seat": seat} for seat in false_wins]
        out["dead_hands"] = [{"seat": seat} for seat in dead_hands]
    return out
