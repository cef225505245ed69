"""Random legal hand records, for property tests and the benchmark.

``random_hand`` deals one hand record (HAND_RECORD.md, tiles mode) from a real
144-tile wall: 4 copies of each playing tile (``1m``-``9m``, ``1p``-``9p``,
``1s``-``9s``, the winds ``1z``-``4z``) and the 20 flower tiles (春夏秋冬梅兰竹菊
``1f``-``8f`` once each, 白发中 ``5z`` ``6z`` ``7z`` four each). Every tile it puts
in a record is taken out of that wall, so no kind ever exceeds its copies.

The records are legal, i.e. ``scoring.score`` must accept every one of them:
- a winning hand is four sets and a pair (0-4 of the sets declared as pongs or
  kongs) or seven pairs (a four-of-a-kind counting as two pairs);
- every kong meld of the winner has its own ``kongs`` entry, and every
  complete set of flowers (一门花) the winner holds has its flower kong;
- 南京: a hand that is not 门清 and has no big hand needs 4 hard flowers (硬花),
  so a winner with any declared set always gets at least 4 (kongs included,
  since ``nanjing-classic``'s 门清 admits no kong at all);
- 工地 (``jiangsu-worksite``): a win needs T >= 5, so every winner gets at least
  5 flower tiles (1 花 each) and a hand is never ``doubled``.

Only the standard library is used, and only the ``random.Random`` passed in, so
a seed always gives the same records.

The wall never runs dry while a hand is dealt: the winners come first and take
at most 18 playing tiles each, and even a one-suit hand (36 tiles) keeps a kind
of three (or an untouched kind of four, or a pair) for each next set, since
spoiling all nine kinds would take more tiles than the sets dealt before it; a
second winner on the same discard draws on all 31 kinds. The kongs of the other
seats come last and are only added while the wall has them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .record import SEATS
from .tiles import FLOWER_SETS, flower_sets
from .tiles import format as format_tiles

__all__ = ["mpsz", "random_hand", "random_hands"]

SUITS = "mps"
WINDS = ("1z", "2z", "3z", "4z")
#: the 31 playing tile kinds, in MPSZ order
PLAYING = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10)) + WINDS
#: the 20 flower tiles of the wall: 春夏秋冬梅兰竹菊 once, 白发中 four times each
FLOWER_WALL = tuple(f"{n}f" for n in range(1, 9)) + ("5z",) * 4 + ("6z",) * 4 + ("7z",) * 4
#: every run (顺子) of each suit, as its three tiles
RUNS = {
    suit: tuple((f"{n}{suit}", f"{n + 1}{suit}", f"{n + 2}{suit}") for n in range(1, 8))
    for suit in SUITS
}
_ALL_RUNS = RUNS["m"] + RUNS["p"] + RUNS["s"]

Hand = dict[str, Any]
#: a set a hand must hold, out of the wall already: (tiles, whether it is the pair)
Forced = tuple[list[str], bool]


class _Wall:
    """The tiles not yet dealt: a count per playing kind and the flower tiles left."""

    def __init__(self) -> None:
        self.count = dict.fromkeys(PLAYING, 4)
        self.flowers = list(FLOWER_WALL)

    def take(self, code: str, n: int = 1) -> list[str]:
        """Take ``n`` copies of a playing tile (the caller checked they are there)."""
        self.count[code] -= n
        return [code] * n

    def take_flowers(self, codes: list[str]) -> None:
        """Take flower tiles out of the wall (the caller checked they are there)."""
        for code in codes:
            self.flowers.remove(code)

    def kinds(self, allowed: tuple[str, ...], at_least: int) -> list[str]:
        """The allowed kinds with at least ``at_least`` copies left."""
        return [code for code in allowed if self.count[code] >= at_least]

    def runs(self, candidates: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, str]]:
        """The candidate runs (顺子) whose three tiles are all still in the wall."""
        count = self.count
        return [run for run in candidates if count[run[0]] and count[run[1]] and count[run[2]]]

    def complete_flower_sets(self) -> list[tuple[str, ...]]:
        """The flower sets whose tiles are all still in the wall."""
        return [group for group in FLOWER_SETS if _holds(self.flowers, group)]


def _holds(tiles: list[str], group: tuple[str, ...]) -> bool:
    """Whether ``tiles`` contain every tile of ``group`` (with multiplicity)."""
    return all(tiles.count(code) >= group.count(code) for code in set(group))


def mpsz(codes: list[str], *, keep_order: bool = False) -> str:
    """Write tile codes in MPSZ notation.

    Sorted (``["5p", "1m", "2m"]`` → ``"12m5p"``) unless ``keep_order``, which
    writes them as given, grouping only neighbours of one suit (``"5p12m"``).
    """
    if not keep_order:
        return format_tiles(codes)
    out: list[str] = []
    for i, code in enumerate(codes):
        out.append(code[0])
        if i + 1 == len(codes) or codes[i + 1][1] != code[1]:
            out.append(code[1])
    return "".join(out)


@dataclass(frozen=True)
class _Kinds:
    """The tile kinds a hand may use, and the runs made of them."""

    kinds: tuple[str, ...]
    runs: tuple[tuple[str, str, str], ...]


_ANY = _Kinds(PLAYING, _ALL_RUNS)
_ONE_SUIT = {suit: _Kinds(tuple(f"{n}{suit}" for n in range(1, 10)), RUNS[suit]) for suit in SUITS}
_ONE_SUIT_WINDS = {suit: _Kinds(_ONE_SUIT[suit].kinds + WINDS, RUNS[suit]) for suit in SUITS}


def _allowed_kinds(rng: random.Random) -> _Kinds:
    """The kinds a hand may use: all, or (about 15 %) one suit, with or without winds."""
    roll = rng.random()
    if roll >= 0.15:
        return _ANY
    suit = rng.choice(SUITS)
    return _ONE_SUIT[suit] if roll < 0.07 else _ONE_SUIT_WINDS[suit]


def _pick_triplet_kind(
    rng: random.Random, wall: _Wall, allowed: tuple[str, ...], at_least: int
) -> str:
    """A kind for a pong, kong or triplet, favouring winds (风碰 / 风杠) now and then."""
    kinds = wall.kinds(allowed, at_least)
    winds = [code for code in kinds if code[1] == "z"]
    if winds and rng.random() < 0.25:
        return rng.choice(winds)
    return rng.choice(kinds)


def _meld(rng: random.Random, wall: _Wall, allowed: _Kinds, seat: str) -> Hand:
    """One declared set: a pong (60 %) or an exposed, concealed or upgraded kong."""
    others = [s for s in SEATS if s != seat]
    if rng.random() < 0.6:
        code = _pick_triplet_kind(rng, wall, allowed.kinds, 3)
        wall.take(code, 3)
        return {"type": "pong", "tile": code, "from": rng.choice(others), "upgraded": False}
    code = _pick_triplet_kind(rng, wall, allowed.kinds, 4)
    wall.take(code, 4)
    kind = rng.choice(("exposed", "concealed", "upgraded"))
    feeder = None if kind == "concealed" else rng.choice(others)
    return {"type": "kong", "tile": code, "from": feeder, "upgraded": kind == "upgraded"}


def _concealed_set(rng: random.Random, wall: _Wall, allowed: _Kinds) -> list[str]:
    """One concealed set: a run (about 60 %) or a triplet."""
    if rng.random() < 0.6:
        runs = wall.runs(allowed.runs)
        if runs:
            run = rng.choice(runs)
            for code in run:
                wall.take(code)
            return list(run)
    return wall.take(_pick_triplet_kind(rng, wall, allowed.kinds, 3), 3)


def _standard(
    rng: random.Random, wall: _Wall, allowed: _Kinds, seat: str, forced: Forced | None = None
) -> tuple[list[str], list[Hand]]:
    """Four sets and a pair: (concealed tiles, melds).

    ``forced`` is a concealed set or the pair the hand must hold (already out
    of the wall): a second winner's hand around the shared winning tile.
    """
    concealed, is_pair = forced if forced is not None else ([], False)
    n_sets = 4 if is_pair or not concealed else 3
    n_melds = rng.choices(range(n_sets + 1), weights=(40, 22, 16, 11, 11)[: n_sets + 1])[0]
    melds = [_meld(rng, wall, allowed, seat) for _ in range(n_melds)]
    concealed = list(concealed)
    for _ in range(n_sets - n_melds):
        concealed += _concealed_set(rng, wall, allowed)
    if not is_pair:
        concealed += wall.take(rng.choice(wall.kinds(allowed.kinds, 2)), 2)
    return concealed, melds


def _sets_holding(wall: _Wall, tile: str) -> list[Forced]:
    """The pairs, triplets and runs holding ``tile`` that the wall can still give."""
    count = wall.count
    options: list[Forced] = [([tile] * n, n == 2) for n in (2, 3) if count[tile] >= n]
    options += [
        (list(run), False) for run in _ALL_RUNS if tile in run and all(count[c] for c in run)
    ]
    return options


def _seven_pairs(rng: random.Random, wall: _Wall, allowed: _Kinds) -> list[str]:
    """Seven pairs, now and then with one to three four-of-a-kinds counted as two pairs."""
    quads = rng.choices(range(4), weights=(60, 25, 10, 5))[0]
    concealed: list[str] = []
    used: list[str] = []
    for size, times in ((4, quads), (2, 7 - 2 * quads)):
        for _ in range(times):
            code = rng.choice([c for c in wall.kinds(allowed.kinds, size) if c not in used])
            used.append(code)
            concealed += wall.take(code, size)
    return concealed


def _flowers(rng: random.Random, wall: _Wall, least: int) -> list[str]:
    """A random handful (0-10) of flower tiles, at least ``least``; some hold a set."""
    if rng.random() < 0.35 and least == 0:
        return []
    flowers: list[str] = []
    if rng.random() < 0.12 and (sets := wall.complete_flower_sets()):
        flowers += rng.choice(sets)
        wall.take_flowers(flowers)
    n = rng.randint(max(least, len(flowers), 1), 10) - len(flowers)
    extra = rng.sample(wall.flowers, n)
    wall.take_flowers(extra)
    return flowers + extra


def _kong_entry(seat: str, kind: str, feeder: str | None) -> Hand:
    return {"seat": seat, "type": kind, "from": feeder, "robbed": False}


def _meld_kong_entry(seat: str, meld: Hand) -> Hand:
    """The ``kongs`` entry that a winner's kong meld needs."""
    if meld["from"] is None:
        kind = "concealed"
    else:
        kind = "upgraded" if meld["upgraded"] else "exposed"
    return _kong_entry(seat, kind, meld["from"])


def _other_kongs(rng: random.Random, wall: _Wall, seats: list[str]) -> list[Hand]:
    """Kongs and flower kongs of seats that did not win (their tiles leave the wall)."""
    out: list[Hand] = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        seat = rng.choice(seats)
        others = [s for s in SEATS if s != seat]
        kind = rng.choice(("exposed", "concealed", "upgraded", "flower"))
        if kind == "flower":
            sets = wall.complete_flower_sets()
            if sets:
                wall.take_flowers(list(rng.choice(sets)))
                out.append(_kong_entry(seat, "flower", None))
            continue
        kinds = wall.kinds(PLAYING, 4)
        if kinds:
            wall.take(rng.choice(kinds), 4)
            out.append(_kong_entry(seat, kind, None if kind == "concealed" else rng.choice(others)))
    return out


def _win(
    rng: random.Random,
    wall: _Wall,
    seat: str,
    worksite: bool,
    shared: tuple[str, str, Forced] | None = None,
) -> tuple[Hand, list[Hand]]:
    """One winner's entry in ``wins`` and the ``kongs`` entries it needs.

    ``shared`` (discarder, winning tile, a set holding it) deals a further
    winner on the same discard (一炮多响): a standard hand of any kinds.
    """
    others = [s for s in SEATS if s != seat]
    melds: list[Hand] = []
    discarder: str | None
    if shared is not None:
        discarder, winning_tile, forced = shared
        concealed, melds = _standard(rng, wall, _ANY, seat, forced)
    else:
        allowed = _allowed_kinds(rng)
        if rng.random() < 0.12:
            concealed = _seven_pairs(rng, wall, allowed)
        else:
            concealed, melds = _standard(rng, wall, allowed, seat)
        winning_tile = rng.choice(concealed)
        discarder = rng.choice(others) if rng.random() < 0.6 else None
    least = 5 if worksite else (4 if melds else 0)
    flowers = _flowers(rng, wall, least)
    liable: str | None = None
    flags: list[str] = []
    kong_melds = [m for m in melds if m["type"] == "kong"]
    if discarder is None and flowers and rng.random() < 0.15:
        flags.append("after_flower")
    if discarder is None and kong_melds and rng.random() < 0.3:
        flags.append("after_kong")
        # the replacement tile came after the last kong declared
        last = rng.choice(kong_melds)
        melds.remove(last)
        melds.append(last)
        exposed = last["from"] is not None and not last["upgraded"]
        if exposed and not worksite and rng.random() < 0.5:
            liable = last["from"]  # 大杠开花 on an exposed kong: the feeder pays (包牌)
    kongs = [_meld_kong_entry(seat, m) for m in melds if m["type"] == "kong"]
    kongs += [_kong_entry(seat, "flower", None) for _ in range(flower_sets(flowers))]
    roll = rng.random()
    if roll < 0.25:
        rng.shuffle(concealed)
        text = mpsz(concealed, keep_order=True)
    elif roll < 0.35:
        rng.shuffle(concealed)
        text = "".join(concealed)
    else:
        text = mpsz(concealed)
    entry: Hand = {
        "seat": seat,
        "discarder": discarder,
        "liable": liable,
        "concealed": text,
        "melds": melds,
        "winning_tile": winning_tile,
        "flowers": mpsz(flowers, keep_order=rng.random() < 0.2),
        "flags": flags,
    }
    return entry, kongs


def random_hand(rng: random.Random, ruleset: str = "nanjing") -> Hand:
    """A random legal hand record (tiles mode) for ``ruleset``.

    About 5 % are drawn hands (``wins: []``) and about 2 % have two winners on
    one discard (一炮多响). A ruleset id starting with
    ``jiangsu`` is dealt as 工地 (at least 5 flowers, never doubled); any other as
    南京 (at least 4 flowers whenever the winner declared a set).
    """
    worksite = ruleset.startswith("jiangsu")
    wall = _Wall()
    wins: list[Hand] = []
    kongs: list[Hand] = []
    if rng.random() >= 0.05:
        entry, kongs = _win(rng, wall, rng.choice(SEATS), worksite)
        wins.append(entry)
        discarder, tile = entry["discarder"], entry["winning_tile"]
        if discarder is not None and rng.random() < 0.04:
            # the discard is one tile shared by both winners: it goes back for the second
            wall.count[tile] += 1
            options = _sets_holding(wall, tile)
            if options:
                forced = rng.choice(options)
                for code in forced[0]:
                    wall.take(code)
                seat = rng.choice([s for s in SEATS if s not in (entry["seat"], discarder)])
                second, more = _win(rng, wall, seat, worksite, (discarder, tile, forced))
                wins.append(second)
                kongs += more
    if rng.random() < 0.3:
        losers = [s for s in SEATS if s not in [win["seat"] for win in wins]]
        kongs += _other_kongs(rng, wall, losers)
    penalties = [
        {"type": rng.choice(("follow", "four_discards")), "seat": rng.choice(SEATS)}
        for _ in range(rng.choices((0, 1, 2), weights=(85, 12, 3))[0])
    ]
    return {
        "format": "mahjong-hand/1",
        "ruleset": ruleset,
        "dealer": rng.choice(SEATS),
        "doubled": not worksite and rng.random() < 0.3,
        "wins": wins,
        "kongs": kongs,
        "penalties": penalties,
        "false_wins": [],
        "dead_hands": [],
    }


def random_hands(seed: int, n: int, ruleset: str = "nanjing") -> list[Hand]:
    """``n`` random legal hand records, the same ones for the same ``seed``."""
    rng = random.Random(seed)
    return [random_hand(rng, ruleset) for _ in range(n)]
