"""How fast the scoring package reads hands, beside the PyPI ``mahjong`` package.

Run from the repository root::

    python bench/scoring_bench.py            # 20,000 hands, seed 2026
    python bench/scoring_bench.py -n 5000 --seed 7

Each ruleset is raced in a process of its own, so that its caches start cold.

It deals legal hand records with ``scoring.generate`` and times, on one core, in the
same run, in CPU seconds of the process (``time.process_time``) over all hands, with
the inputs of both sides built first and frozen out of the garbage collector's sight
(``gc.freeze``: a full collection walking them lands on either side by chance):
- ``score`` on each whole record, first, caches cold; the rate that is raced counts
  the winners' hands scored per second over the records that have a winner (a drawn
  hand scores no hand), so both sides of the race value the same hands;
- ``analyze`` on each winner's tiles (concealed + melds + winning tile);
- when ``mahjong`` is installed, the peer a user would pick to score a hand: its full
  ``HandCalculator.estimate_hand_value`` (yaku, fu and cost) on the same winners'
  hands, with riichi declared on every closed hand so that each is fully valued (an
  open hand cannot declare riichi: the peer would refuse it at once, so open hands
  are valued without it), self-drawn where ours is — the target is ``score`` at
  least 1.5× this; and, for information, its ``Agari.is_agari`` +
  ``HandDivider.divide_hand`` alone (the floor: division without valuing).

Each ruleset ends in one summary line (wrapped here)::

    nanjing: score: 16022 hands/s  analyze: 23220 hands/s
      mahjong estimate_hand_value: 19316 hands/s  ratio: 0.83x (target >= 1.5x)
      valued only: 18844 hands/s  ratio: 0.85x
      floor is_agari+divide_hand: 44645 hands/s  ratio: 0.36x

``valued only`` times the peer again on the hands it valued (no error): its
refusals must not make its rate look higher.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
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

TARGET = 1.5
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
    """CPU seconds of this process for ``fn()``: time the shared machine gives to other
    processes is not counted."""
    start = time.process_time()
    fn()
    return time.process_time() - start


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


def _peer_inputs(wins: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]] | None:
    """Each winner's hand for ``estimate_hand_value``: its 136-form tiles (melds'
    included), the winning tile, the Meld objects and a HandConfig (riichi declared
    when the hand is closed, tsumo when self-drawn)."""
    try:
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.meld import Meld
    except ImportError:
        return None
    out = []
    for win in wins:
        used = [0] * 34

        def take(index: int, used: list[int] = used) -> int:
            tile = index * 4 + used[index]
            used[index] += 1
            return tile

        melds, tiles_136 = [], []
        for meld in win["melds"]:
            index = _index_34(meld["tile"])
            size = 4 if meld["type"] == "kong" else 3
            own = [take(index) for _ in range(size)]
            tiles_136 += own
            if size == 3:
                melds.append(Meld(meld_type=Meld.PON, tiles=own))
            else:
                melds.append(Meld(meld_type=Meld.KAN, tiles=own, opened=meld["from"] is not None))
        win_index = _index_34(win["winning_tile"])
        win_tile = take(win_index)
        tiles_136.append(win_tile)
        rest = list(_codes(win["concealed"]))
        rest.remove(win["winning_tile"])
        tiles_136 += [take(_index_34(code)) for code in rest]
        closed = not any(m.opened for m in melds)
        config = HandConfig(is_tsumo=not win.get("discarder"), is_riichi=closed)
        out.append((tiles_136, win_tile, melds, config))
    return out


def _bench_peer(inputs: list[tuple[Any, ...]]) -> tuple[float, dict[str, int], list[int]]:
    """Seconds for the peer's full evaluation of every hand, its answers counted by
    error (None: valued), and the indices of the hands it valued."""
    from mahjong.hand_calculating.hand import HandCalculator

    estimate = HandCalculator.estimate_hand_value
    answers: dict[str, int] = {}
    valued: list[int] = []

    def run() -> None:
        for i, (tiles_136, win_tile, melds, config) in enumerate(inputs):
            error = estimate(tiles_136, win_tile, melds=melds, config=config).error
            answers[str(error)] = answers.get(str(error), 0) + 1
            if error is None:
                valued.append(i)

    return _time(run), answers, valued


def _bench_peer_valued(inputs: list[tuple[Any, ...]]) -> float:
    """Seconds for the peer's full evaluation of the hands it values only: a hand it
    refuses early (not read as winning) must not make its rate look higher."""
    from mahjong.hand_calculating.hand import HandCalculator

    estimate = HandCalculator.estimate_hand_value

    def run() -> None:
        for tiles_136, win_tile, melds, config in inputs:
            estimate(tiles_136, win_tile, melds=melds, config=config)

    return _time(run)


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
    rulesets = args.ruleset or available()
    if len(rulesets) == 1:
        print(f"== {rulesets[0]}", flush=True)
        return _bench(args.seed, args.n, rulesets[0])
    # each ruleset in a process of its own: the rulesets share the per-suit tables, and
    # a ruleset raced after another would meet them warm
    status = 0
    for ruleset in rulesets:
        command = [sys.executable, __file__, "-n", str(args.n), "--seed", str(args.seed)]
        status |= subprocess.run([*command, "--ruleset", ruleset], check=False).returncode
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

    won = [hand for hand in hands if hand["wins"]]
    drawn = [hand for hand in hands if not hand["wins"]]

    def run_score(records: list[dict[str, Any]]) -> Callable[[], None]:
        def run() -> None:
            for hand in records:
                try:
                    score(hand)
                except ScoringError as err:
                    refused["score"].append(f"{err} <- {json.dumps(hand, ensure_ascii=False)}")

        return run

    # Both sides' inputs are built before any timing and frozen out of the garbage
    # collector's sight: a full collection would otherwise walk them all (~100 ms for
    # 5,000 hands, seen here), charged to whichever side's allocation happens to trip it.
    peer_inputs = _peer_inputs([win for _, win in wins])
    inputs = _mahjong_inputs([win for _, win in wins])
    gc.collect()
    gc.freeze()
    # score first, in a fresh process: the engine's caches (parsed strings, per-suit
    # tables) start cold, as for hands met once; the warm second pass is shown apart
    score_s = _time(run_score(won))
    drawn_s = _time(run_score(drawn))
    analyze_s = _time(run_analyze)
    warm_s = _time(run_score(won))
    del refused["score"][len(hands) :]
    analyze_rate = _rate(len(calls), analyze_s)
    score_rate = _rate(len(calls), score_s)
    print(
        f"score:   {len(won)} records with {len(calls)} winners in {score_s:.3f} s"
        f" (cold caches): {score_rate:.0f} winners' hands/s;"
        f" {len(drawn)} drawn hands in {drawn_s:.3f} s"
    )
    print(f"analyze: {len(calls)} winners' hands in {analyze_s:.3f} s")
    print(
        f"score again on the same records: {warm_s:.3f} s,"
        f" {_rate(len(calls), warm_s):.0f} hands/s (warm caches, not in the summary)"
    )
    for name, errors in refused.items():
        if errors:
            print(f"WARNING: {name} refused {len(errors)} legal hands, the first: {errors[0]}")
    summary = f"score: {score_rate:.0f} hands/s  analyze: {analyze_rate:.0f} hands/s"

    if inputs is None:
        print("mahjong (PyPI) is not installed: comparison skipped (pip install mahjong)")
        print(f"{ruleset_id}: {summary}  mahjong: skipped")
        return 1 if any(refused.values()) else 0
    from importlib.metadata import version

    assert peer_inputs is not None
    peer_s, answers, valued = _bench_peer(peer_inputs)
    peer_rate = _rate(len(peer_inputs), peer_s)
    valued_s = _bench_peer_valued([peer_inputs[i] for i in valued])
    valued_rate = _rate(len(valued), valued_s)
    told = ", ".join(f"{n} {'valued' if e == 'None' else e}" for e, n in sorted(answers.items()))
    print(
        f"mahjong {version('mahjong')}: estimate_hand_value on {len(peer_inputs)} winners'"
        f" hands in {peer_s:.3f} s ({told}); the {len(valued)} valued alone in"
        f" {valued_s:.3f} s: {valued_rate:.0f} hands/s"
    )
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
        f"{ruleset_id}: {summary}  mahjong estimate_hand_value: {peer_rate:.0f} hands/s"
        f"  ratio: {score_rate / peer_rate:.2f}x (target >= {TARGET:g}x)"
        f"  valued only: {valued_rate:.0f} hands/s  ratio: {score_rate / valued_rate:.2f}x"
        f"  floor is_agari+divide_hand: {mahjong_rate:.0f} hands/s  ratio: {ratio:.2f}x"
    )
    return 1 if any(refused.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
