"""explain: a result told in Chinese for people."""

from __future__ import annotations

from scoring import score
from scoring.explain import explain

from .builders import hand, pong, win


def test_it_tells_a_drawn_hand_with_kong_money() -> None:
    record = hand(kongs=[{"seat": "N", "type": "concealed", "from": None}])
    text = explain(record, score(record), "南京麻将")
    assert "荒庄" in text and "北 +9" in text and "杠钱" in text


def test_it_names_the_liable_seat_and_self_draw() -> None:
    record = hand(win("S", "234m567m111p55p", "2m", melds=[pong("9m", "W")], liable="W"))
    text = explain(record, score(record), "南京麻将")
    assert "南家胡牌（自摸，西家包牌）" in text


def test_it_shows_the_garden() -> None:
    record = hand(
        win("S", "234m567m111p55p", "2m", melds=[pong("9m", "W")], discarder="N"),
        garden={"size": 100, "left": {"E": 0, "S": 100, "W": 100, "N": 20}},
    )
    text = explain(record, score(record), "南京麻将")
    assert "园子余额：东 0　南 120　西 100　北 0" in text and "本园子结束" in text
