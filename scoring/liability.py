"""包牌 helpers: from the melds and who fed them, propose the liable seat.

``score`` takes ``liable`` as recorded; these helpers let the entry page propose
it, so the recorder only confirms.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from . import tiles
from .errors import ScoringError
from .record import SEATS, kuaizhao_against, one_suit, read_meld


class _Mouth(NamedTuple):
    feeder: str | None
    concealed: bool


def kuaizhao_liable(melds: Iterable[Mapping[str, Any]]) -> str | None:
    """快照: the seat that fed three mouths, counting the holder's concealed kongs
    (``record.kuaizhao_against``). ``melds`` in the contract's form."""
    mouths = [
        _Mouth(m.get("from"), m.get("from") is None and m.get("type") == "kong") for m in melds
    ]
    fed = Counter(m.feeder for m in mouths if m.feeder is not None)
    for seat, _count in fed.most_common():
        if kuaizhao_against(mouths, seat):
            return seat
    return None


def _one_suit(melds: Sequence[Mapping[str, Any]]) -> bool:
    return one_suit(tiles.kind_of(m["tile"]) for m in melds)


def propose_liable(
    win: Mapping[str, Any], kongs: Sequence[Mapping[str, Any]] = ()
) -> tuple[str | None, str]:
    """The seat that should pay as 包牌 for this win, and why (a code), or (None, "").

    - ``robbing_kong``: 抢杠, the seat whose kong was robbed;
    - ``kuaizhao``: a 快照 feeder (for a 快照 instant win, judged on the sets before
      the last one; otherwise on all the winner's sets);
    - ``qingyise_fourth``: three mouths showing 清一色, the feeder of the fourth;
    - ``dagang_kaihua``: 大杠开花 on an exposed kong, the seat that fed it.
    """
    flags = set(win.get("flags") or ())
    melds = list(win.get("melds") or ())
    if "robbing_kong" in flags:
        robbed = [k.get("seat") for k in kongs if k.get("robbed")]
        return (robbed[0], "robbing_kong") if robbed else (None, "")
    before = melds[:-1] if "kuaizhao" in flags else melds
    seat = kuaizhao_liable(before)
    if seat is not None and seat != win.get("seat"):
        return seat, "kuaizhao"
    if len(melds) == 4 and _one_suit(melds[:3]) and melds[3].get("from") and _one_suit(melds):
        return melds[3]["from"], "qingyise_fourth"
    if "after_kong" in flags:
        last = [m for m in melds if m.get("type") == "kong"]
        if last and last[-1].get("from"):
            return last[-1]["from"], "dagang_kaihua"
    return None, ""


def worksite_liable(melds: Iterable[Mapping[str, Any]]) -> str | None:
    """江苏工地麻将 包牌: the seat that fed three or more of the winner's sets in the hand
    (pongs, and kongs it fed or whose pong it fed)."""
    fed: Counter[str] = Counter(str(m["from"]) for m in melds if m.get("from") is not None)
    for seat, count in fed.most_common(1):
        if count >= 3:
            return seat
    return None


def propose(
    record: Mapping[str, Any], family: str
) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    """The record with ``liable`` filled in where the melds show who pays as 包牌 and
    none was given, and each proposal made as (winner, liable seat, reason code:
    ``worksite`` or one of ``propose_liable``'s)."""
    out = dict(record)
    if not _readable(record):
        return out, []  # score refuses it, naming the fault
    wins, made = [], []
    for win in record.get("wins", []):
        seat: str | None = None
        if not win.get("liable") and (win.get("melds") or "robbing_kong" in win.get("flags", [])):
            if family == "worksite":
                seat, why = worksite_liable(win.get("melds") or []), "worksite"
            else:
                seat, why = propose_liable(win, record.get("kongs", []))
        if seat and seat != win["seat"]:
            win = {**win, "liable": seat}
            made.append((win["seat"], seat, why))
        wins.append(win)
    if "wins" in record:
        out["wins"] = wins
    return out, made


def _readable(record: Mapping[str, Any]) -> bool:
    """Whether ``propose`` can read the wins and kongs it looks at. A record it cannot
    read is left as it is, for ``score`` to refuse with the reason."""
    wins, kongs = record.get("wins", []), record.get("kongs", [])
    if not isinstance(wins, list) or not isinstance(kongs, list):
        return False
    if not all(isinstance(kong, Mapping) for kong in kongs):
        return False
    for win in wins:
        if not isinstance(win, Mapping) or win.get("seat") not in SEATS:
            return False
        flags, melds = win.get("flags") or [], win.get("melds") or []
        if not isinstance(flags, list) or not all(isinstance(flag, str) for flag in flags):
            return False
        if not isinstance(melds, list):
            return False
        try:
            for meld in melds:
                read_meld(meld, "melds", win["seat"])
        except ScoringError:
            return False
    return True
