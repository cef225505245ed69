"""The hand record (HAND_RECORD.md) read into named tuples, with every
check that does not depend on the ruleset. Each refusal names its field."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, NoReturn, Protocol

from . import tiles
from .errors import ScoringError

FORMAT = "mahjong-hand/1"
SEATS = ("E", "S", "W", "N")
#: the seats as the table says them (东家 …)
SEAT_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}
FLAGS = (
    "after_flower",
    "after_kong",
    "kong_discard",
    "robbing_kong",
    "last_tile",
    "tianhu",
    "dihu",
    "kuaizhao",
)
KONG_TYPES = ("exposed", "upgraded", "concealed", "flower")
PENALTY_TYPES = ("follow", "four_discards")
_TOP_KEYS = {
    "format", "ruleset", "dealer", "doubled", "wins", "kongs", "penalties",
    "false_wins", "dead_hands", "garden",
}  # fmt: skip
_WIN_KEYS = {
    "seat", "discarder", "liable", "concealed", "melds", "winning_tile", "flowers",
    "flags", "kong_chain", "hard_flowers", "soft_flowers", "features", "passed",
    "others_ponged",
}  # fmt: skip
#: the keys of a win without the optional extras (kong_chain to others_ponged)
_PLAIN_WIN_KEYS = _WIN_KEYS - {
    "kong_chain", "hard_flowers", "soft_flowers", "features", "passed", "others_ponged",
}  # fmt: skip
_MELD_KEYS = {"type", "tile", "from", "upgraded"}
_KONG_KEYS = {"seat", "type", "from", "robbed"}
_PENALTY_KEYS = {"type", "seat"}
_SEAT_KEYS = {"seat"}
_GARDEN_KEYS = {"size", "left", "end_when_out"}
#: playing tile codes and their kinds: the codes one_tile() accepts as they are
_PLAYING_KINDS = {tiles.code_of(kind): kind for kind in range(tiles.NUM_KINDS)}
_FLOWER_CODES = frozenset(tiles.FLOWER_CODES)
#: an optional list left out or empty
_NOTHING: tuple[None, list[Any]] = (None, [])
#: the counts a kind may have: no more than four copies
_UP_TO_FOUR = frozenset(range(5))


def next_seat(seat: str) -> str:
    """The seat to the right (下家): E → S → W → N → E."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


class Meld(NamedTuple):
    """A declared set: 碰 (pong) or 杠 (kong); ``feeder`` None for a concealed kong."""

    type: str
    tile: str
    kind: int
    feeder: str | None
    upgraded: bool
    is_kong: bool
    #: 暗杠: a kong nobody fed
    concealed: bool
    size: int


class Mouth(Protocol):
    """What the 快照 rule reads of a set: who fed it (an added kong: its pong's feeder)
    and whether it is a concealed kong."""

    @property
    def feeder(self) -> str | None: ...

    @property
    def concealed(self) -> bool: ...


def kuaizhao_against(melds: Sequence[Mouth], seat: str) -> bool:
    """快照 (RULES.md 包牌 / 快照): the sets show a 快照 against ``seat`` — three mouths
    fed by it; two and a concealed kong; or one and two concealed kongs, in any order.
    An added kong counts as fed by its pong's feeder. The one statement of the rule:
    the refusal below, 南京's payments and the liability helper all ask it."""
    by = sum(1 for m in melds if m.feeder == seat)
    return by >= 1 and by + sum(1 for m in melds if m.concealed) >= 3


def one_suit(kinds: Iterable[int]) -> bool:
    """The sets are all of one of 万 饼 条 (no winds): the 清一色 fourth mouth's test."""
    suits = {tiles.suit_of(kind) for kind in kinds}
    return len(suits) == 1 and 3 not in suits


class Win(NamedTuple):
    number: int
    seat: str
    discarder: str | None
    liable: str | None
    #: concealed counts by kind after the win, the winning tile included (None in
    #: quick entry)
    counts: tuple[int, ...] | None
    melds: tuple[Meld, ...]
    winning_tile: str | None
    flowers: tuple[str, ...] | None
    flags: frozenset[str]
    kong_chain: int
    hard_flowers: int | None
    soft_flowers: int | None
    features: tuple[str, ...] | None
    #: H: the flower tiles the winner drew (``flowers`` counted, else ``hard_flowers``)
    hard: int
    #: quick entry: counts and ticks instead of the winner's tiles (no ``counts``)
    quick: bool
    #: 过水: tiles the winner passed on since their own last draw (optional input)
    passed: tuple[str, ...] = ()
    #: 压绝: kinds of which another player has an exposed pong or kong (optional input)
    others_ponged: tuple[int, ...] = ()

    @property
    def field(self) -> str:
        return f"wins[{self.number}]"

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None


def count_kinds(codes: tuple[str, ...]) -> tuple[int, ...]:
    """Counts by kind of playing tile codes."""
    counts = [0] * tiles.NUM_KINDS
    for code in codes:
        counts[tiles.kind_of(code)] += 1
    return tuple(counts)


class Kong(NamedTuple):
    seat: str
    type: str
    feeder: str | None
    robbed: bool


class Penalty(NamedTuple):
    type: str
    seat: str


@dataclass(frozen=True)
class Garden:
    """进园子: each seat's balance left in the 园子 before the hand."""

    size: int
    left: dict[str, int]
    end_when_out: int


class Hand(NamedTuple):
    ruleset: str
    dealer: str
    doubled: bool
    wins: tuple[Win, ...]
    kongs: tuple[Kong, ...]
    penalties: tuple[Penalty, ...]
    false_wins: tuple[str, ...]
    dead_hands: tuple[str, ...]
    garden: Garden | None


# --- small readers that name the field they refuse --------------------------------


def _fail(field: str, message: str, zh: str, *, code: str, **params: str) -> ScoringError:
    return ScoringError(message, field=field, zh=zh, code=code, params=params)


def _obj(value: Any, field: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(field, "must be an object", "格式错误：应为对象", code="not_an_object")
    if not value.keys() <= keys:
        unknown = sorted(set(value) - keys)[0]
        raise _fail(
            field,
            f"unknown key {unknown!r}",
            f"未知字段 “{unknown}”",
            code="unknown_key",
            key=unknown,
        )
    return value


def _entry(value: Any, keys: set[str], where: str, index: int) -> dict[str, Any]:
    """An object in the list ``where``; its field's name is only spelled out to refuse it."""
    if isinstance(value, dict) and keys.issuperset(value):
        return value
    return _obj(value, f"{where}[{index}]", keys)


def _at(where: str, index: int, part: str) -> str:
    """The name of a field inside a list's entry: ``kongs[0].seat``."""
    return f"{where}[{index}].{part}"


def _list(value: Any, field: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(field, "must be a list", "格式错误：应为列表", code="not_a_list")
    return value


def _seat(value: Any, field: str) -> NoReturn:
    """Refuse a seat that is none of E, S, W, N (the callers check in place)."""
    raise _fail(
        field,
        f"unknown seat {value!r} (E, S, W or N)",
        f"座位 “{value}” 无效（东南西北：E S W N）",
        code="unknown_seat",
        seat=str(value),
    )


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, "must be true or false", "应为 true 或 false", code="not_a_bool")
    return value


def _int(value: Any, field: str, lo: int, hi: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < lo
        or (hi is not None and value > hi)
    ):
        if hi is None:
            raise _fail(
                field,
                f"must be a whole number from {lo}",
                f"应为 {lo} 的整数",
                code="not_a_number_from",
                lo=str(lo),
            )
        raise _fail(
            field,
            f"must be a whole number from {lo} to {hi}",
            f"应为 {lo}~{hi} 的整数",
            code="not_a_number_between",
            lo=str(lo),
            hi=str(hi),
        )
    return value


def _tiles(value: Any, field: str) -> tuple[str, ...]:
    if not isinstance(value, str):
        raise _fail(field, "must be tiles in MPSZ notation", "应为 MPSZ 记法的牌", code="not_tiles")
    try:
        return tiles.codes(value)
    except ScoringError as exc:
        raise _fail(field, exc.message, exc.zh, code=exc.code, **exc.params) from None


def _playing(codes: tuple[str, ...], field: str) -> tuple[str, ...]:
    if not _FLOWER_CODES.isdisjoint(codes):
        code = next(code for code in codes if code in _FLOWER_CODES)
        raise _fail(
            field,
            f"flower tile {code!r} in the hand (flowers go in 'flowers')",
            f"花牌 {tiles.name(code)} 不能在手牌中（应记入花牌）",
            code="flower_in_hand",
            tile=tiles.name(code),
        )
    return codes


def flower_tiles(value: Any, field: str) -> tuple[str, ...]:
    """Flower tiles in MPSZ (``1f``-``8f``, ``5z``-``7z``), refusing any playing tile."""
    codes = _tiles(value, field)
    if not _FLOWER_CODES.issuperset(codes):
        code = next(code for code in codes if code not in _FLOWER_CODES)
        raise _fail(
            field,
            f"{code!r} is not a flower tile",
            f"{tiles.name(code)} 不是花牌",
            code="not_a_flower",
            tile=tiles.name(code),
        )
    return codes


def one_tile(value: Any, field: str) -> str:
    """Exactly one playing tile in MPSZ."""
    if type(value) is str and value in _PLAYING_KINDS:
        return value
    codes = _playing(_tiles(value, field), field)
    if len(codes) != 1:
        raise _fail(field, "must be exactly one tile", "应为一张牌", code="not_one_tile")
    return codes[0]


def _items(value: Any, where: str, read: Callable[[Any, str, int], Any]) -> tuple[Any, ...]:
    """The entries of an optional list, each read by ``read(entry, where, index)``."""
    out = []
    for i, item in enumerate(_list(value, where)):
        out.append(read(item, where, i))
    return tuple(out)


# --- the record --------------------------------------------------------------------


def read_hand(data: Any) -> Hand:
    """Read and check a hand record; raise ScoringError naming the field at fault."""
    data = _obj(data, "hand", _TOP_KEYS)
    if data.get("format") != FORMAT:
        raise _fail(
            "format", f"must be {FORMAT!r}", f"format 应为 “{FORMAT}”", code="format", format=FORMAT
        )
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset:
        raise _fail("ruleset", "must name a ruleset", "缺少规则（ruleset）", code="no_ruleset")
    dealer = data.get("dealer")
    if dealer not in SEATS:
        _seat(dealer, "dealer")
    doubled = data.get("doubled", False)
    if doubled is not False and doubled is not True:
        _bool(doubled, "doubled")
    if "wins" not in data:
        raise _fail(
            "wins",
            "missing (an empty list for a drawn hand)",
            "缺少 wins（荒庄为空列表）",
            code="no_wins",
        )
    value = data["wins"]
    read = []
    for i, item in enumerate(value if type(value) is list else _list(value, "wins")):
        read.append(_read_win(item, i))
    wins = tuple(read)
    # each optional list is usually absent or empty: no call to read nothing
    value = data.get("kongs")
    kongs = () if value in _NOTHING else _items(value, "kongs", _read_kong)
    value = data.get("penalties")
    penalties = () if value in _NOTHING else _items(value, "penalties", _read_penalty)
    value = data.get("false_wins")
    false_wins = () if value in _NOTHING else _items(value, "false_wins", _read_seat_entry)
    value = data.get("dead_hands")
    dead_hands = () if value in _NOTHING else _items(value, "dead_hands", _read_seat_entry)
    garden = _read_garden(data["garden"]) if data.get("garden") is not None else None
    # _make(): the named tuple from one plain tuple, cheaper than a call with each field
    hand = Hand._make(
        (ruleset, dealer, doubled, wins, kongs, penalties, false_wins, dead_hands, garden)
    )
    if len(wins) > 1:
        _check_winners(hand)
    _check_kongs(hand, _check_copies(hand))
    for win in wins:
        # without flags, a chain above 1 is the only fault _check_flags() can find
        if win.flags or win.kong_chain > 1:
            _check_flags(hand, win)
    return hand


def _read_win(value: Any, index: int) -> Win:
    # most entries hold none of the optional extras: those are read only when given
    extras = not isinstance(value, dict) or not _PLAIN_WIN_KEYS.issuperset(value)
    data = _obj(value, f"wins[{index}]", _WIN_KEYS) if extras else value
    # checked in place: a field's name is only spelled out for a refusal
    seat: Any = data.get("seat")
    if seat not in SEATS:
        _seat(seat, _at("wins", index, "seat"))
    discarder = data.get("discarder")
    if discarder is not None and discarder not in SEATS:
        _seat(discarder, _at("wins", index, "discarder"))
    liable = data.get("liable")
    if liable is not None and liable not in SEATS:
        _seat(liable, _at("wins", index, "liable"))
    if discarder == seat:
        raise _fail(
            _at("wins", index, "discarder"),
            "the discarder cannot be the winner",
            "放炮者不能是胡牌者本人",
            code="discarder_is_winner",
        )
    if liable == seat:
        raise _fail(
            _at("wins", index, "liable"),
            "the liable seat cannot be the winner",
            "包牌者不能是胡牌者本人",
            code="liable_is_winner",
        )
    value = data.get("melds")
    melds = () if value in _NOTHING else _read_melds(value, index, seat)
    flags = data.get("flags")
    if flags is not None and not isinstance(flags, list):
        _list(flags, _at("wins", index, "flags"))
    if flags:
        for i, flag in enumerate(flags):
            if flag not in FLAGS:
                raise _fail(
                    f"wins[{index}].flags[{i}]",
                    f"unknown flag {flag!r}",
                    f"未知标记 “{flag}”",
                    code="unknown_flag",
                    flag=str(flag),
                )
    if extras:
        kong_chain, hard_flowers, soft_flowers, features = _read_extras(data, index)
    else:
        kong_chain, hard_flowers, soft_flowers, features = 1, None, None, None
    flowers = _flowers(data["flowers"], index) if "flowers" in data else None
    if "concealed" in data:
        text = data["concealed"]
        counts = tiles.playing_counts(text) if type(text) is str else None
        if counts is None:
            counts = _concealed(text, _at("wins", index, "concealed"))
        if "winning_tile" not in data:
            raise _fail(
                _at("wins", index, "winning_tile"),
                "missing",
                "缺少胡的那张牌（winning_tile）",
                code="no_winning_tile",
            )
    else:
        counts = None
        if flowers is None and hard_flowers is None:
            raise _fail(
                _at("wins", index, "concealed"),
                "give the concealed tiles, or hard_flowers for a quick entry",
                "请录入手牌，或快速录入硬花数",
                code="no_tiles_nor_counts",
            )
    winning_tile = data.get("winning_tile")
    if winning_tile is not None or "winning_tile" in data:
        if type(winning_tile) is not str or winning_tile not in _PLAYING_KINDS:
            winning_tile = one_tile(winning_tile, _at("wins", index, "winning_tile"))
    if flowers is not None and hard_flowers is not None and hard_flowers != len(flowers):
        raise _fail(
            _at("wins", index, "hard_flowers"),
            f"says {hard_flowers} but 'flowers' holds {len(flowers)}",
            f"硬花数 {hard_flowers} 与花牌 {len(flowers)} 张不符",
            code="hard_flowers_mismatch",
            said=str(hard_flowers),
            held=str(len(flowers)),
        )
    win = Win._make((
        index, seat, discarder, liable, counts, melds, winning_tile, flowers,
        frozenset(flags) if flags else _NO_FLAGS, kong_chain, hard_flowers, soft_flowers,
        features, len(flowers) if flowers is not None else hard_flowers or 0, counts is None,
        _passed(data["passed"], index) if extras and "passed" in data else (),
        _others_ponged(data["others_ponged"], index)
        if extras and data.get("others_ponged") else (),
    ))  # fmt: skip
    # the usual win needs no closer look: not kuaizhao (no flags at all), as many tiles
    # as its sets leave in hand, the winning tile (given with the tiles) among them
    if counts is not None and (
        flags
        or winning_tile is None
        or sum(counts) != 14 - 3 * len(melds)
        or not counts[_PLAYING_KINDS[winning_tile]]
    ):
        _check_tile_count(win)
    return win


_NO_FLAGS: frozenset[str] = frozenset()


def _read_extras(
    data: dict[str, Any], index: int
) -> tuple[int, int | None, int | None, tuple[str, ...] | None]:
    """A win's kong_chain, hard_flowers, soft_flowers and features."""
    kong_chain = data.get("kong_chain", 1)
    if type(kong_chain) is not int or kong_chain != 1:
        kong_chain = _int(kong_chain, _at("wins", index, "kong_chain"), 1, 8)
    hard_flowers = data.get("hard_flowers")
    if hard_flowers is not None:
        hard_flowers = _int(hard_flowers, _at("wins", index, "hard_flowers"), 0, 20)
    soft_flowers = data.get("soft_flowers")
    if soft_flowers is not None:
        soft_flowers = _int(soft_flowers, _at("wins", index, "soft_flowers"), 0, 40)
    features = data.get("features")
    if features is not None:
        features = tuple(_list(features, _at("wins", index, "features")))
        for i, code in enumerate(features):
            if not isinstance(code, str):
                raise _fail(
                    f"wins[{index}].features[{i}]",
                    "must be a feature code",
                    "应为番种代码",
                    code="not_a_feature_code",
                )
    return kong_chain, hard_flowers, soft_flowers, features


def _read_melds(value: Any, index: int, seat: str) -> tuple[Meld, ...]:
    """The winner's sets."""
    if not isinstance(value, list):
        _list(value, _at("wins", index, "melds"))
    melds = []
    for i, item in enumerate(value):
        melds.append(read_meld(item, f"wins[{index}].melds[{i}]", seat))
    if len(melds) > 4:
        raise _fail(
            _at("wins", index, "melds"), "more than four sets", "副露超过四组", code="too_many_sets"
        )
    return tuple(melds)


def _concealed(value: Any, field: str) -> tuple[int, ...]:
    """The concealed tiles as counts by kind, read tile by tile to name any fault (the
    caller counts well-formed playing tiles straight from the text first)."""
    return count_kinds(_playing(_tiles(value, field), field))


def _flowers(value: Any, index: int) -> tuple[str, ...]:
    """A win's flower tiles, as flower_tiles() reads them: the field is only named to
    refuse them."""
    codes = tiles.flower_codes(value) if type(value) is str else None
    if codes is not None:
        return codes
    return flower_tiles(value, f"wins[{index}].flowers")


def _passed(value: Any, index: int) -> tuple[str, ...]:
    field = _at("wins", index, "passed")
    return _playing(_tiles(value, field), field)


def _others_ponged(value: Any, index: int) -> tuple[int, ...]:
    field = _at("wins", index, "others_ponged")
    return tuple(tiles.kind_of(code) for code in _playing(_tiles(value, field), field))


def _check_tile_count(win: Win) -> None:
    assert win.counts is not None and win.winning_tile is not None
    held = sum(win.counts)
    if "kuaizhao" in win.flags:
        if len(win.melds) != 4:
            raise _fail(
                f"{win.field}.melds",
                "a kuaizhao win needs its four sets",
                "快照需有四组副露",
                code="kuaizhao_needs_four_sets",
            )
        if held not in (1, 2):
            raise _fail(
                f"{win.field}.concealed",
                "a kuaizhao win leaves one or two tiles in hand",
                "快照成牌时手中应剩一或两张牌",
                code="kuaizhao_tiles_left",
            )
        if win.winning_tile != win.melds[-1].tile:
            raise _fail(
                f"{win.field}.winning_tile",
                "in a kuaizhao win it is the tile of the last set",
                "快照胡的牌应为最后一组副露的牌",
                code="kuaizhao_winning_tile",
            )
        return
    need = 14 - 3 * len(win.melds)
    if held != need:
        raise _fail(
            f"{win.field}.concealed",
            f"holds {held} tiles; with {len(win.melds)} sets it must hold {need}",
            f"手牌 {held} 张；{len(win.melds)} 组副露时应为 {need} 张",
            code="tile_count",
            held=str(held),
            sets=str(len(win.melds)),
            need=str(need),
        )
    if not win.counts[_PLAYING_KINDS[win.winning_tile]]:
        raise _fail(
            f"{win.field}.winning_tile",
            f"{win.winning_tile!r} is not among the concealed tiles",
            f"胡的牌 {tiles.name(win.winning_tile)} 不在手牌中",
            code="winning_tile_not_held",
            tile=tiles.name(win.winning_tile),
        )


def read_meld(value: Any, field: str, seat: str) -> Meld:
    """One declared set (an entry of a win's ``melds``) of the player at ``seat``."""
    data = _obj(value, field, _MELD_KEYS)
    kind = data.get("type")
    if kind not in ("pong", "kong"):
        raise _fail(
            f"{field}.type",
            "must be 'pong' or 'kong'",
            "副露类型应为碰（pong）或杠（kong）",
            code="meld_type",
        )
    # checked in place: a field's name is only spelled out for a refusal
    code = data.get("tile")
    if type(code) is not str or code not in _PLAYING_KINDS:
        codes = _playing(_tiles(code, f"{field}.tile"), f"{field}.tile")
        if len(codes) != 1:
            raise _fail(
                f"{field}.tile",
                "must be exactly one tile",
                "副露的牌应为一张",
                code="meld_one_tile",
            )
        code = codes[0]
    feeder = data.get("from")
    if feeder is not None and feeder not in SEATS:
        _seat(feeder, f"{field}.from")
    upgraded = data.get("upgraded", False)
    if upgraded is not False and upgraded is not True:
        _bool(upgraded, f"{field}.upgraded")
    if feeder == seat:
        raise _fail(
            f"{field}.from",
            "a set cannot be fed by its own holder",
            "副露不能来自本人",
            code="meld_fed_by_holder",
        )
    if kind == "pong" and feeder is None:
        raise _fail(
            f"{field}.from",
            "a pong needs the seat that fed it",
            "碰牌需注明谁打出的",
            code="pong_without_feeder",
        )
    if upgraded and (kind != "kong" or feeder is None):
        raise _fail(
            f"{field}.upgraded",
            "only a kong made from a fed pong is upgraded",
            "只有先碰后杠的明杠才可标记 upgraded",
            code="upgraded_not_fed_kong",
        )
    kong = kind == "kong"
    return Meld(kind, code, _PLAYING_KINDS[code], feeder, upgraded, kong,
                kong and feeder is None, 4 if kong else 3)  # fmt: skip


def _read_kong(value: Any, where: str, index: int) -> Kong:
    data = _entry(value, _KONG_KEYS, where, index)
    seat: Any = data.get("seat")
    kind = data.get("type")
    feeder = data.get("from")
    robbed = data.get("robbed", False)
    if seat not in SEATS:
        _seat(seat, _at(where, index, "seat"))
    if kind not in KONG_TYPES:
        raise _fail(
            _at(where, index, "type"),
            f"unknown kong type {kind!r}",
            f"未知的杠类型 “{kind}”",
            code="unknown_kong_type",
            kind=str(kind),
        )
    if feeder is not None and feeder not in SEATS:
        _seat(feeder, _at(where, index, "from"))
    if kind in ("exposed", "upgraded") and feeder is None:
        raise _fail(
            _at(where, index, "from"),
            f"an {kind} kong needs the seat that fed it",
            "明杠需注明谁送的杠",
            code="kong_needs_feeder",
            kind=str(kind),
        )
    if kind in ("concealed", "flower") and feeder is not None:
        raise _fail(
            _at(where, index, "from"),
            f"a {kind} kong is fed by nobody",
            "暗杠与花杠没有送杠者",
            code="kong_not_fed",
            kind=str(kind),
        )
    if feeder == seat:
        raise _fail(
            _at(where, index, "from"),
            "a kong cannot be fed by its own holder",
            "杠不能来自本人",
            code="kong_fed_by_holder",
        )
    if robbed is not False:
        robbed = _bool(robbed, _at(where, index, "robbed"))
    if robbed and kind != "upgraded":
        raise _fail(
            _at(where, index, "robbed"),
            "only an upgraded kong can be robbed",
            "只有先碰后杠的杠才能被抢",
            code="robbed_not_upgraded",
        )
    return Kong(seat, kind, feeder, robbed)


def _read_penalty(value: Any, where: str, index: int) -> Penalty:
    data = _entry(value, _PENALTY_KEYS, where, index)
    kind = data.get("type")
    if kind not in PENALTY_TYPES:
        raise _fail(
            _at(where, index, "type"),
            f"unknown penalty {kind!r} (follow or four_discards)",
            f"未知的罚分类型 “{kind}”",
            code="unknown_penalty",
            kind=str(kind),
        )
    seat: Any = data.get("seat")
    if seat not in SEATS:
        _seat(seat, _at(where, index, "seat"))
    return Penalty(kind, str(seat))


def _read_seat_entry(value: Any, where: str, index: int) -> str:
    seat: Any = _entry(value, _SEAT_KEYS, where, index).get("seat")
    if seat not in SEATS:
        _seat(seat, _at(where, index, "seat"))
    return str(seat)


def _read_garden(value: Any) -> Garden:
    data = _obj(value, "garden", _GARDEN_KEYS)
    size = _int(data.get("size"), "garden.size", 1)
    left_data = _obj(data.get("left"), "garden.left", set(SEATS))
    left = {}
    for seat in SEATS:
        if seat not in left_data:
            raise _fail(
                "garden.left",
                f"missing seat {seat!r}",
                f"缺少座位 {seat} 的园子余额",
                code="garden_seat_missing",
                seat=seat,
            )
        left[seat] = _int(left_data[seat], f"garden.left.{seat}", 0)
    end_when_out = data.get("end_when_out", 2)
    if end_when_out not in (1, 2) or isinstance(end_when_out, bool):
        raise _fail(
            "garden.end_when_out", "must be 1 or 2", "出园人数应为 1 或 2", code="end_when_out"
        )
    if sum(1 for seat in SEATS if left[seat] == 0) >= end_when_out:
        raise _fail(
            "garden",
            "this 园子 is already over; start a new one",
            "本园子已结束，请开新园子",
            code="garden_over",
        )
    return Garden(size, left, end_when_out)


# --- checks across the record ------------------------------------------------------


def _check_winners(hand: Hand) -> None:
    """Several winners: the same discard (一炮多响)."""
    seats = [win.seat for win in hand.wins]
    if len(set(seats)) != len(seats):
        raise _fail("wins", "a seat wins twice", "同一座位重复胡牌", code="seat_wins_twice")
    if len(hand.wins) == 4:
        raise _fail(
            "wins",
            "at most three seats can win on one discard",
            "一炮最多三响",
            code="too_many_winners",
        )
    # a liable seat may be another winner of the same discard (一炮多响): it pays that
    # 包牌 and is paid its own win
    robbing = all("robbing_kong" in win.flags for win in hand.wins)
    discarders = {win.discarder for win in hand.wins}
    if len(discarders) != 1 or (None in discarders and not robbing):
        raise _fail(
            "wins",
            "several winners need one shared discarder",
            "一炮多响须为同一放炮者",
            code="winners_discarder",
        )
    if len({win.winning_tile for win in hand.wins}) != 1:
        raise _fail(
            "wins",
            "several winners need one shared winning tile",
            "一炮多响须胡同一张牌",
            code="winners_tile",
        )


def _check_copies(hand: Hand) -> list[int]:
    """No more than four copies of a tile (a shared winning discard counted once), nor
    more of a flower tile than the set has. Answers how many complete flower sets (花杠)
    each winner holds, for _check_kongs()."""
    wins = hand.wins
    counts = [0] * tiles.NUM_KINDS
    flowers: tuple[str, ...] = ()
    flower_sets = []
    fit = True
    for win in wins:
        if win.counts is not None:
            if len(wins) == 1:
                counts = list(win.counts)
            else:
                counts = [a + b for a, b in zip(counts, win.counts, strict=True)]
        for meld in win.melds:
            counts[meld.kind] += meld.size
        if win.flowers:
            sets, fit_alone = tiles.flower_tally(win.flowers)
            flower_sets.append(sets)
            fit = fit and fit_alone
            flowers += win.flowers
        else:
            flower_sets.append(0)
        if win.others_ponged:  # refused before the copies are summed up for the hand
            _check_others_ponged(win)
    if len(wins) > 1:
        shared = [win for win in wins if win.counts is not None and "kuaizhao" not in win.flags]
        if len(shared) > 1 and shared[0].winning_tile is not None:
            counts[tiles.kind_of(shared[0].winning_tile)] -= len(shared) - 1
        # each winner's flowers may fit and all of them together not
        fit = tiles.flower_tally(flowers)[1]
    if not _UP_TO_FOUR.issuperset(counts):
        for kind, n in enumerate(counts):
            if n > 4:
                code = tiles.code_of(kind)
                raise _fail(
                    "wins",
                    f"more than four copies of {code!r} ({n})",
                    f"{tiles.name(code)} 超过四张（{n} 张）",
                    code="too_many_copies",
                    tile=tiles.name(code),
                    count=str(n),
                )
    if not fit:
        _too_many_flowers(flowers)
    return flower_sets


def _too_many_flowers(flowers: tuple[str, ...]) -> None:
    """Refuse the first flower tile, in the record's order, held more times than the
    set has copies."""
    for code in flowers:
        n = flowers.count(code)
        if n > tiles.FLOWER_COPIES[code] == 1:
            raise _fail(
                "wins",
                f"a flower tile held twice: {code!r} ({n})",
                f"花牌 {tiles.name(code)} 张数过多（{n} 张）",
                code="flower_held_twice",
                tile=tiles.name(code),
                count=str(n),
            )
        if n > tiles.FLOWER_COPIES[code]:
            raise _fail(
                "wins",
                f"more than four copies: {code!r} ({n})",
                f"花牌 {tiles.name(code)} 张数过多（{n} 张）",
                code="too_many_flower_copies",
                tile=tiles.name(code),
                count=str(n),
            )


def _check_others_ponged(win: Win) -> None:
    """Each tile of ``others_ponged`` is three copies another player shows: with the
    winner's own copies, no more than four."""
    own = list(win.counts) if win.counts is not None else [0] * tiles.NUM_KINDS
    for meld in win.melds:
        own[meld.kind] += meld.size
    for kind in win.others_ponged:
        own[kind] += 3
    for kind in win.others_ponged:
        if own[kind] > 4:
            code = tiles.code_of(kind)
            raise _fail(
                f"{win.field}.others_ponged",
                f"more than four copies of {code!r} with another player's pong ({own[kind]})",
                f"算上别人碰出的三张，{tiles.name(code)} 超过四张（{own[kind]} 张）",
                code="too_many_with_pong",
                tile=tiles.name(code),
                count=str(own[kind]),
            )


def _check_kongs(hand: Hand, flower_sets: list[int]) -> None:
    """A winner's kong sets and flower sets match that seat's kong entries one for one
    (``flower_sets``: the complete flower sets each winner holds)."""
    kongs = hand.kongs
    for i, kong in enumerate(kongs):
        if kong.robbed:
            _check_robbed(hand, i)
    for win in hand.wins:
        if win.counts is None and not win.melds:  # quick entry with nothing declared
            continue
        seat = win.seat
        entries: list[tuple[str, str]] = []
        recorded = 0  # flower kongs
        for kong in kongs:
            if kong.seat == seat:
                if kong.type == "flower":
                    recorded += 1
                else:
                    entries.append((kong.type, kong.feeder or ""))
        sets: list[tuple[str, str]] = []
        for m in win.melds:
            if m.is_kong:
                kind = "concealed" if m.feeder is None else "upgraded" if m.upgraded else "exposed"
                sets.append((kind, m.feeder or ""))
        if entries or sets:
            entries.sort()
            sets.sort()
            if entries != sets:
                raise _fail(
                    f"{win.field}.melds",
                    f"the winner's kong sets ({_describe(sets)}) do not match "
                    f"the kongs recorded for {seat} ({_describe(entries)})",
                    f"胡牌者的杠（{len(sets)} 个）与记录的杠（{len(entries)} 个）不一致",
                    code="kongs_mismatch",
                    sets=str(len(sets)),
                    recorded=str(len(entries)),
                    seat=SEAT_NAMES[seat],
                )
        held = flower_sets[win.number]
        if win.flowers is not None and recorded != held:
            raise _fail(
                f"{win.field}.flowers",
                f"holds {held} complete flower set(s) "
                f"but {recorded} flower kong(s) are recorded for {seat}",
                f"花牌中有 {held} 门完整的花，却记录了 {recorded} 个花杠",
                code="flower_kongs_mismatch",
                held=str(held),
                recorded=str(recorded),
                seat=SEAT_NAMES[seat],
            )


def _check_robbed(hand: Hand, index: int) -> None:
    """A kong marked robbed was robbed by a robbing_kong win of another seat."""
    robbers = {win.seat for win in hand.wins if "robbing_kong" in win.flags}
    if not robbers:
        raise _fail(
            f"kongs[{index}].robbed",
            "no robbing_kong win robbed it",
            "没有抢杠胡，杠不能标记为被抢",
            code="robbed_without_robber",
        )
    if hand.kongs[index].seat in robbers:
        raise _fail(
            f"kongs[{index}].robbed",
            "a winner cannot rob its own kong",
            "不能抢自己的杠",
            code="robbed_own_kong",
        )


def _describe(items: list[tuple[str, str]]) -> str:
    return (
        ", ".join(f"{kind}{' from ' + feeder if feeder else ''}" for kind, feeder in items)
        or "none"
    )


def _check_flags(hand: Hand, win: Win) -> None:
    field = f"{win.field}.flags"
    flags = win.flags
    if "tianhu" in flags:
        if win.seat != hand.dealer:
            raise _fail(field, "tianhu is the dealer's win", "天胡只能是庄家", code="tianhu_dealer")
        if not win.self_drawn:
            raise _fail(
                field, "tianhu cannot be on a discard", "天胡不能是点炮", code="tianhu_discard"
            )
        if win.melds:
            raise _fail(field, "tianhu with a set declared", "天胡不能有副露", code="tianhu_set")
    if "dihu" in flags and win.melds:
        raise _fail(field, "dihu with a set declared", "地胡不能有碰杠", code="dihu_set")
    if "after_flower" in flags:
        if not win.self_drawn:
            raise _fail(
                field,
                "after_flower on a discard",
                "杠开花（补花）不能是点炮",
                code="after_flower_discard",
            )
        if win.hard == 0:
            raise _fail(
                field,
                "after_flower with no flowers",
                "没有花牌，不能是补花后成牌",
                code="after_flower_no_flowers",
            )
    if "after_kong" in flags:
        if not win.self_drawn:
            raise _fail(
                field, "after_kong on a discard", "杠开花不能是点炮", code="after_kong_discard"
            )
        own = sum(1 for m in win.melds if m.is_kong) + sum(
            1 for k in hand.kongs if k.seat == win.seat and k.type == "flower"
        )
        # with after_flower too, the chain counts the flower declarations (工地)
        declared = own + win.hard if "after_flower" in flags and own else own
        if declared < win.kong_chain:
            raise _fail(
                field,
                f"after_kong needs {win.kong_chain} kong(s) of the winner's; there are {own}",
                f"杠开花需要胡牌者有 {win.kong_chain} 个杠，实际 {own} 个",
                code="after_kong_chain",
                chain=str(win.kong_chain),
                kongs=str(own),
            )
    if "kong_discard" in flags:
        if win.discarder is None:
            raise _fail(
                field,
                "kong_discard needs a discarder",
                "杠后炮需要放炮者",
                code="kong_discard_no_discarder",
            )
        theirs = sum(1 for k in hand.kongs if k.seat == win.discarder)
        if theirs < win.kong_chain:
            raise _fail(
                field,
                f"kong_discard needs {win.kong_chain} kong(s) by the discarder; there are {theirs}",
                f"杠后炮需要放炮者有 {win.kong_chain} 个杠，实际 {theirs} 个",
                code="kong_discard_chain",
                chain=str(win.kong_chain),
                kongs=str(theirs),
            )
    if win.kong_chain > 1 and not flags & {"after_kong", "kong_discard", "after_flower"}:
        raise _fail(
            f"{win.field}.kong_chain",
            "above 1 without after_kong or kong_discard",
            "连杠数大于 1 需要杠开花或杠后炮",
            code="kong_chain_without_flag",
        )
    if "after_flower" in flags and not flags & {"after_kong", "kong_discard"}:
        kongs = sum(1 for m in win.melds if m.is_kong)
        if win.kong_chain > win.hard + kongs:
            raise _fail(
                f"{win.field}.kong_chain",
                f"a chain of {win.kong_chain} after a flower needs as many flowers or kongs",
                f"连杠数 {win.kong_chain} 超过花牌与杠的数目",
                code="flower_chain_too_long",
                chain=str(win.kong_chain),
            )
    if "robbing_kong" in flags and win.discarder is not None:
        kongers = {k.seat for k in hand.kongs if k.robbed}
        if kongers and win.discarder not in kongers:
            raise _fail(
                f"{win.field}.discarder",
                "a robbing win's discarder, when given, is the seat whose kong was robbed",
                "抢杠胡的放炮者应为被抢杠者",
                code="robbing_discarder",
            )
    if "robbing_kong" in flags and win.counts is not None:
        assert win.winning_tile is not None
        held = win.counts[tiles.kind_of(win.winning_tile)] + sum(
            m.size for m in win.melds if m.tile == win.winning_tile
        )
        if held > 1:
            raise _fail(
                field,
                f"a robbing winner holds only the robbed {win.winning_tile!r}",
                "抢杠者手中不应再有被抢的牌",
                code="robbing_tile_held",
                tile=tiles.name(win.winning_tile),
            )
    if "kuaizhao" in flags:
        if win.liable is None:
            raise _fail(
                f"{win.field}.liable",
                "a kuaizhao win needs the liable seat",
                "快照需注明包牌者",
                code="kuaizhao_needs_liable",
            )
        if not win.self_drawn:
            raise _fail(
                field,
                "a kuaizhao win is not on a discard",
                "快照不能是点炮",
                code="kuaizhao_discard",
            )
        if win.quick and len(win.melds) != 4:
            raise _fail(
                f"{win.field}.melds",
                "a kuaizhao win needs its four sets",
                "快照需有四组副露",
                code="kuaizhao_needs_four_sets",
            )
        # HAND_RECORD.md, Refused records: without a 快照 against the liable seat in the
        # first three sets, nor the 清一色 fourth mouth, there is no instant win, or the
        # wrong seat would pay
        if not kuaizhao_against(win.melds[:3], win.liable) and not one_suit(
            m.kind for m in win.melds
        ):
            raise _fail(
                f"{win.field}.liable",
                f"the three sets before the last show no 快照 against {win.liable} "
                "and the four sets are not of one suit: no kuaizhao win",
                f"前三组副露对{SEAT_NAMES[win.liable]}家不成快照，四组也不是清一色：不能快照胡",
                code="no_kuaizhao",
                seat=SEAT_NAMES[win.liable],
            )
