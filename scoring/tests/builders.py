"""Small builders for hand records in tests."""

from __future__ import annotations

from typing import Any

from scoring import score


def win(
    seat: str = "S", concealed: str = "234m567m999m111p55p", winning_tile: str = "5p", **kw: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "concealed": concealed, "winning_tile": winning_tile}
    out.setdefault("flowers", "1f2f3f5z")
    out.update(kw)
    return out


def hand(
    *wins: dict[str, Any], ruleset: str = "nanjing", dealer: str = "E", **kw: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": "mahjong-hand/1",
        "ruleset": ruleset,
        "dealer": dealer,
        "wins": list(wins),
    }
    out.update(kw)
    return out


def pong(tile: str, feeder: str = "E") -> dict[str, Any]:
    return {"type": "pong", "tile": tile, "from": feeder}


def kong(tile: str, feeder: str | None = None, upgraded: bool = False) -> dict[str, Any]:
    return {"type": "kong", "tile": tile, "from": feeder, "upgraded": upgraded}


def one(record: dict[str, Any]) -> dict[str, Any]:
    """Score and return the single win's result."""
    return score(record)["wins"][0]
