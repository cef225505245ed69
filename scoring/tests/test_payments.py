"""Payments: shares, 包牌, 一炮多响, kong money, penalties, doubling, 进园子, next hand."""

from __future__ import annotations

import pytest

from scoring import score

from .builders import hand, kong, pong, win

SMALL = "234m567m111p55p"  # won on 2m beside a 9m set, 4 hard flowers: 2 × (4 + 缺一) + 20 = 30


def small(seat: str = "S", **kw: object) -> dict:
    return win(seat, SMALL, "2m", melds=[pong("9m", "W")], **kw)


def test_a_discard_win_is_paid_by_the_discarder() -> None:
    result = score(hand(small(discarder="N")))
    assert result["wins"][0]["value"] == 30
    assert result["net"] == {"E": 0, "S": 30, "W": 0, "N": -30}


def test_a_self_drawn_win_is_paid_by_each_other_seat() -> None:
    result = score(hand(small()))
    assert result["net"] == {"E": -30, "S": 90, "W": -30, "N": -30}


def test_a_liable_seat_pays_three_shares_of_a_self_drawn_win() -> None:
    result = score(hand(small(liable="E")))
    assert result["payments"] == [{"from": "E", "to": "S", "amount": 90, "reason": "win"}]


def test_a_liable_seat_pays_the_share_of_a_discard_win() -> None:
    result = score(hand(small(discarder="N", liable="E")))
    assert result["net"] == {"E": -30, "S": 30, "W": 0, "N": 0}


def test_several_winners_are_each_paid_by_the_discarder() -> None:
    record = hand(
        win("S", "234m567m999m111p55p", discarder="E"),
        win("W", "234s567s999s111s55p", "5p", flowers="4f", discarder="E"),
    )
    result = score(record)
    values = [w["value"] for w in result["wins"]]
    assert result["net"]["E"] == -sum(values)
    assert result["next"] == {"dealer": "E", "doubled": True}


def test_kong_money() -> None:
    record = hand(
        win("S", "234m567m55p", melds=[kong("9m", "W"), kong("1p")], discarder="N"),
        kongs=[
            {"seat": "S", "type": "exposed", "from": "W"},
            {"seat": "S", "type": "concealed", "from": None},
            {"seat": "E", "type": "upgraded", "from": "N"},
            {"seat": "N", "type": "flower", "from": None},
        ],
    )
    result = score(record)
    kongs = [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"][1:]]
    assert kongs == [
        ("W", "S", 6, "kong"),
        ("E", "S", 3, "kong"), ("W", "S", 3, "kong"), ("N", "S", 3, "kong"),
        ("N", "E", 6, "kong"),
        ("E", "N", 6, "flower_kong"), ("S", "N", 6, "flower_kong"), ("W", "N", 6, "flower_kong"),
    ]  # fmt: skip


def test_a_doubled_hand_doubles_the_win_and_kong_money_but_not_penalties() -> None:
    plain = hand(
        small(discarder="N"),
        kongs=[{"seat": "E", "type": "concealed", "from": None}],
        penalties=[{"type": "follow", "seat": "W"}],
    )
    doubled = dict(plain, doubled=True)
    a, b = score(plain), score(doubled)
    assert b["wins"][0]["value"] == 2 * a["wins"][0]["value"] == 60
    assert b["wins"][0]["breakdown"][-1] == {"code": "doubled", "label": "比下胡 ×2", "points": 30}
    kong_money = [p["amount"] for p in b["payments"] if p["reason"] == "kong"]
    assert kong_money == [6, 6, 6]
    assert [p["amount"] for p in b["payments"] if p["reason"] == "penalty"] == [6, 6, 6]


@pytest.mark.parametrize(("ruleset", "amount"), [("nanjing", 6), ("nanjing-classic", 10)])
@pytest.mark.parametrize("kind", ["follow", "four_discards"])
def test_penalties_pay_each_other_seat(ruleset: str, amount: int, kind: str) -> None:
    result = score(hand(ruleset=ruleset, penalties=[{"type": kind, "seat": "W"}]))
    assert result["net"] == {"E": amount, "S": amount, "W": -3 * amount, "N": amount}


def test_a_drawn_hand_pays_only_kongs_and_penalties() -> None:
    result = score(hand(kongs=[{"seat": "N", "type": "concealed", "from": None}]))
    assert result["wins"] == []
    assert result["net"] == {"E": -3, "S": -3, "W": -3, "N": 9}


def test_a_robbed_kong_earns_nothing() -> None:
    record = hand(
        win("S", "2m3m4m567m999m111p55p", "2m", liable="E", flags=["robbing_kong"]),
        kongs=[{"seat": "E", "type": "upgraded", "from": "N", "robbed": True}],
    )
    assert [p["reason"] for p in score(record)["payments"]] == ["win"]


# --- next hand ------------------------------------------------------------------------

NEXT = [
    ("nanjing", "plain small hand passes", hand(small(discarder="N")), ("S", False)),
    ("nanjing", "dealer wins", hand(small("E", discarder="N")), ("E", True)),
    (
        "nanjing",
        "flower kong",
        hand(small(discarder="N"), kongs=[{"seat": "W", "type": "flower", "from": None}]),
        ("E", True),
    ),
    (
        "nanjing",
        "penalty",
        hand(small(discarder="N"), penalties=[{"type": "follow", "seat": "W"}]),
        ("E", True),
    ),
    ("nanjing", "drawn", hand(), ("E", True)),
    (
        "nanjing",
        "big hand",
        hand(
            win(
                discarder="N",
                concealed="11m555m",
                winning_tile="5m",
                melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "N")],
            )
        ),
        ("E", True),
    ),
    ("nanjing", "liable", hand(small(discarder="N", liable="W")), ("E", True)),
    ("nanjing", "menqing alone passes", hand(win(discarder="N")), ("S", False)),
    (
        "nanjing",
        "dagang kaihua",
        hand(
            win("S", "234m567m111p55p", melds=[kong("9m")], flags=["after_kong"]),
            kongs=[{"seat": "S", "type": "concealed", "from": None}],
        ),
        ("E", True),
    ),
    ("nanjing-classic", "plain small hand passes", hand(small(discarder="N")), ("S", False)),
    ("nanjing-classic", "a dealer small win passes", hand(small("E", discarder="N")), ("S", False)),
    (
        "nanjing-classic",
        "big hand keeps the dealer and doubles",
        hand(
            win(
                discarder="N",
                concealed="11m555m",
                winning_tile="5m",
                melds=[pong("2m", "W"), pong("3m", "W"), pong("4m", "N")],
            )
        ),
        ("E", True),
    ),
    ("nanjing-classic", "drawn passes and doubles", hand(), ("S", True)),
    (
        "nanjing-classic",
        "xiaogang kaihua doubles",
        hand(win("S", flags=["after_flower"])),
        ("S", True),
    ),
    (
        "nanjing-classic",
        "flower kong doubles",
        hand(small(discarder="N"), kongs=[{"seat": "W", "type": "flower", "from": None}]),
        ("S", True),
    ),
    ("nanjing-classic", "liable doubles", hand(small(discarder="N", liable="W")), ("S", True)),
    (
        "nanjing-classic",
        "several winners double",
        hand(
            win("S", discarder="E"),
            win("W", "234s567s999s111s55p", "5p", flowers="4f", discarder="E"),
        ),
        ("S", True),
    ),
    (
        "nanjing-classic",
        "penalty doubles",
        hand(small(discarder="N"), penalties=[{"type": "follow", "seat": "W"}]),
        ("S", True),
    ),
]


@pytest.mark.parametrize(
    ("ruleset", "record", "expected"),
    [(r, h, e) for r, _, h, e in NEXT],
    ids=[f"{r}: {n}" for r, n, _, _ in NEXT],
)
def test_next_dealer_and_doubling(ruleset: str, record: dict, expected: tuple[str, bool]) -> None:
    result = score(dict(record, ruleset=ruleset))
    assert (result["next"]["dealer"], result["next"]["doubled"]) == expected


# --- 进园子 -----------------------------------------------------------------------------


def garden(left: dict[str, int], size: int = 100, **kw: object) -> dict:
    return {"size": size, "left": left, **kw}


def test_a_garden_payment_within_the_balance_is_unchanged() -> None:
    result = score(
        hand(small(discarder="N"), garden=garden({"E": 100, "S": 100, "W": 100, "N": 100}))
    )
    assert result["net"]["N"] == -30
    assert result["left"] == {"E": 100, "S": 130, "W": 100, "N": 70}
    assert result["garden_over"] is False


def test_a_payment_is_capped_at_what_the_payer_has_left() -> None:
    result = score(
        hand(small(discarder="N"), garden=garden({"E": 100, "S": 100, "W": 100, "N": 20}))
    )
    assert result["net"] == {"E": 0, "S": 20, "W": 0, "N": -20}
    assert result["left"]["N"] == 0
    assert result["garden_over"] is False  # one seat out; the 园子 ends at two by default


def test_the_garden_ends_when_end_when_out_seats_are_out() -> None:
    result = score(
        hand(
            small(discarder="N"),
            garden=garden({"E": 100, "S": 100, "W": 100, "N": 20}, end_when_out=1),
        )
    )
    assert result["garden_over"] is True


def test_the_split_is_proportional_with_the_remainder_from_the_payers_right() -> None:
    # N owes S 32 and W 32 (two winners on N's discard, 2 × (4 + 缺一 + 独占) + 20 each)
    # but has 25 left: 12 and 12 by proportion, the remainder 1 to the first payee from
    # N's right that is owed: E (owed nothing), then S
    record = hand(
        win("S", SMALL, melds=[pong("9m", "W")], discarder="N"),
        win(
            "W", "234s567s111s55p", "5p", melds=[pong("9s", "E")], flowers="4f6f7f8f", discarder="N"
        ),
        garden=garden({"E": 100, "S": 100, "W": 100, "N": 25}),
    )
    result = score(record)
    assert [w["value"] for w in result["wins"]] == [32, 32]
    assert result["net"] == {"E": 0, "S": 13, "W": 12, "N": -25}


def test_the_split_weights_each_payee_by_the_total_owed() -> None:
    # N owes S 30 (win) + 3 (S's concealed kong) and W 3 (W's concealed kong) with 12 left:
    # S: 12 × 33 / 36 = 11, W: 12 × 3 / 36 = 1
    record = hand(
        win("S", "234m567m55p", "2m", melds=[kong("1p"), pong("9m", "W")], discarder="N"),
        kongs=[
            {"seat": "S", "type": "concealed", "from": None},
            {"seat": "W", "type": "concealed", "from": None},
        ],
        garden=garden({"E": 100, "S": 100, "W": 100, "N": 12}),
    )
    result = score(record)
    assert result["net"]["N"] == -12
    paid_by_n = {}
    for p in result["payments"]:
        if p["from"] == "N":
            paid_by_n[p["to"]] = paid_by_n.get(p["to"], 0) + p["amount"]
    assert paid_by_n == {"S": 11, "W": 1}


def test_money_received_in_the_hand_does_not_raise_the_cap() -> None:
    # N has 5 left; N's own concealed kong brings in 9, yet N pays at most 5 for the win
    record = hand(
        small(discarder="N"),
        kongs=[{"seat": "N", "type": "concealed", "from": None}],
        garden=garden({"E": 100, "S": 100, "W": 100, "N": 5}),
    )
    result = score(record)
    paid = sum(p["amount"] for p in result["payments"] if p["from"] == "N")
    assert paid == 5
    assert result["left"]["N"] == 5 - 5 + 9


def test_balances_above_the_size_are_not_capped() -> None:
    result = score(
        hand(small(discarder="N"), garden=garden({"E": 100, "S": 390, "W": 100, "N": 100}))
    )
    assert result["left"]["S"] == 420
