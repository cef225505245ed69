"""How fast the scoring package reads hands, beside the PyPI ``mahjong`` package.

Run from the repository root::

    python bench/scoring_bench.py            # 20,000 hands, seed 2026
    python bench/scoring_bench.py -n 5000 --seed 7

It deals legal hand records with ``scoring.generate`` and times, on one core
with ``time.perf_counter`` over all hands:
- ``score`` on each whole record (drawn hands included), first, caches cold;
- ``analyze`` on each winner's tiles (concealed + melds + winning tile);
- when ``mahjong`` is installed, its ``Agari.is_agari`` + ``HandDivider.divide_hand``
  on the same winners' hands in its 34-array form, the reference we aim to beat
  by 3× with a full ``score``.

Each ruleset ends in one summary line (wrapped here)::

    nanjing: score: 7892 hands/s  analyze: 12123 hands/s
      mahjong is_agari+divide_hand: 32022 hands/s  ratio: 0.2x (target >= 3x)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoring import ScoringError, analyze, score  # noqa: E402 - after the sys.path fix above
from scoring.generate import random_hands  # noqa: E402
from scoring.rulesets import available  # noqa: E402
from scoring.tiles import split  # noqa: E402

TARGET = 3.0
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}


def _index_34(code: str) -> int:
    """Our tile code in ``mahjong``'s 34 form (``"5p"`` → 13, ``"1z"`` 东 → 27)."""
    return _SUIT_BASE[code[1]] + int(code[0]) - 1


def _codes(text: str) -> list[str]:
    """MPSZ to tile codes (built before the timer starts, like every input)."""
    return split(text)


def _seven_pairs_with_four(win: dict[str, Any]) -> bool:
    """A seven-pair hand counting a four-of-a-kind as two pairs (riichi has no such hand)."""
    counts: dict[str, int] = {}
    for code in _codes(win["concealed"]):
        counts[code] = counts.get(code, 0) + 1
    values = counts.values()
    return not win["melds"] and 4 in values and all(n % 2 == 0 for n in values)


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _mahjong_inputs(wins: Sequence[dict[str, Any]]) -> list[tuple[list[int], list[Any]]] | None:
    """Each winner's hand as (tiles_34 with the melds' tiles, mahjong Meld objects)."""
    try:
        from mahjong.meld import Meld
    except ImportError:
        return None
    out = []
    for win in wins:
        tiles_34 = [0] * 34
        for code in _codes(win["concealed"]):
            tiles_34[_index_34(code)] += 1
        melds = []
        for meld in win["melds"]:
            index = _index_34(meld["tile"])
            size = 4 if meld["type"] == "kong" else 3
            tiles_34[index] += size
            tiles_136 = [index * 4 + copy for copy in range(size)]
            if size == 3:
                melds.append(Meld(meld_type=Meld.PON, tiles=tiles_136))
            else:
                melds.append(
                    Meld(meld_type=Meld.KAN, tiles=tiles_136, opened=meld["from"] is not None)
                )
        out.append((tiles_34, melds))
    return out


def _bench_mahjong(inputs: list[tuple[list[int], list[Any]]]) -> tuple[float, list[int]]:
    """Seconds for is_agari + divide_hand over every hand, and the hands it did not read."""
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider

    agari = Agari()
    divider = HandDivider()
    # the open sets as is_agari wants them, built outside the timing like our own inputs
    prepared = [(tiles_34, melds, [m.tiles_34 for m in melds]) for tiles_34, melds in inputs]
    failed: list[int] = []

    def run() -> None:
        for i, (tiles_34, melds, open_sets) in enumerate(prepared):
            ok = agari.is_agari(tiles_34, open_sets)
            parts = divider.divide_hand(tiles_34, melds)
            if not ok or not parts:
                failed.append(i)

    return _time(run), failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-n", type=int, default=20_000, help="hands to deal (20000)")
    parser.add_argument("--seed", type=int, default=2026, help="generator seed (2026)")
    parser.add_argument(
        "--ruleset",
        action="append",
        help="ruleset id; repeat for several (default: every shipped ruleset)",
    )
    args = parser.parse_args(argv)
    status = 0
    for ruleset in args.ruleset or available():
        print(f"== {ruleset}")
        status |= _bench(args.seed, args.n, ruleset)
    return status


def _bench(seed: int, n: int, ruleset_id: str) -> int:

    start = time.perf_counter()
    hands = random_hands(seed, n, ruleset_id)
    dealt = time.perf_counter() - start
    wins = [(hand["ruleset"], win) for hand in hands for win in hand["wins"]]
    print(
        f"dealt {len(hands)} hands ({len(wins)} winners,"
        f" {sum(not hand['wins'] for hand in hands)} drawn)"
        f" with seed {seed} in {dealt:.2f} s"
    )

    calls = [
        (win["concealed"], win["winning_tile"], ruleset, win["melds"], win["flowers"])
        for ruleset, win in wins
    ]

    # A refusal is a bug (of the generator or the engine): counted, shown, never hidden.
    refused: dict[str, list[str]] = {"analyze": [], "score": []}

    def run_analyze() -> None:
        for tiles, win, ruleset, melds, flowers in calls:
            try:
                analyze(tiles, win=win, ruleset=ruleset, melds=melds, flowers=flowers)
            except ScoringError as err:
                refused["analyze"].append(f"{err} <- {tiles} win {win} melds {melds}")

    def run_score() -> None:
        for hand in hands:
            try:
                score(hand)
            except ScoringError as err:
                refused["score"].append(f"{err} <- {json.dumps(hand, ensure_ascii=False)}")

    # score first, in a fresh process: the engine's caches (parsed strings, per-suit
    # tables) start cold, as for hands met once; the warm second pass is shown apart
    score_s = _time(run_score)
    analyze_s = _time(run_analyze)
    warm_s = _time(run_score)
    del refused["score"][len(hands) :]
    analyze_rate = _rate(len(calls), analyze_s)
    score_rate = _rate(len(hands), score_s)
    print(f"score:   {len(hands)} records in {score_s:.3f} s (cold caches)")
    print(f"analyze: {len(calls)} winners' hands in {analyze_s:.3f} s")
    print(
        f"score again on the same records: {warm_s:.3f} s,"
        f" {_rate(len(hands), warm_s):.0f} hands/s (warm caches, not in the summary)"
    )
    for name, errors in refused.items():
        if errors:
            print(f"WARNING: {name} refused {len(errors)} legal hands, the first: {errors[0]}")
    summary = f"score: {score_rate:.0f} hands/s  analyze: {analyze_rate:.0f} hands/s"

    inputs = _mahjong_inputs([win for _, win in wins])
    if inputs is None:
        print("mahjong (PyPI) is not installed: comparison skipped (pip install mahjong)")
        print(f"{ruleset_id}: {summary}  mahjong: skipped")
        return 1 if any(refused.values()) else 0
    from importlib.metadata import version

    mahjong_s, failed = _bench_mahjong(inputs)
    mahjong_rate = _rate(len(inputs), mahjong_s)
    ratio = score_rate / mahjong_rate
    quads = [i for i in failed if _seven_pairs_with_four(wins[i][1])]
    print(
        f"mahjong {version('mahjong')}: is_agari+divide_hand on {len(inputs)} winners' hands"
        f" in {mahjong_s:.3f} s; not read as winning: {len(quads)} seven pairs with a"
        f" four-of-a-kind (riichi does not count them), {len(failed) - len(quads)} others"
    )
    print(
        f"{ruleset_id}: {summary}  mahjong is_agari+divide_hand: {mahjong_rate:.0f} hands/s"
        f"  ratio: {ratio:.1f}x (target >= {TARGET:g}x)"
    )
    return 1 if any(refused.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
