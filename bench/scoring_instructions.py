"""The scoring race counted in instructions (valgrind's callgrind), not seconds.

Run from the repository root (needs valgrind and PyPI ``mahjong``)::

    python bench/scoring_instructions.py               # 5,000 hands a ruleset, seed 2026
    python bench/scoring_instructions.py -n 20000 --ruleset nanjing

On a shared machine the timed race (``scoring_bench.py``) moves by ±20 % from run
to run; an instruction count does not (the same program on the same input counts the
same whatever else runs). For each ruleset it deals the hands once, then runs this
script three times under ``valgrind --tool=callgrind``: building the inputs of both
sides only, then that and ``score`` on every record, then that and the peer's full
``estimate_hand_value`` on every winner's hand (the inputs of ``scoring_bench.py``).
The differences are each side's work, divided by the winners' hands: caches start
cold as in the timed race. Instructions are not seconds, but both sides are pure
Python run by the same interpreter, so their ratio follows the timed one (checked on
a quiet machine: see bench/README.md). Takes a few minutes a ruleset.

With ``--misses`` the runs go under ``valgrind --tool=cachegrind`` with its cache and
branch simulation instead, and each side's branch mispredictions and first-level cache
misses per hand are printed beside its instructions: what a timed ratio depends on
besides the instruction count (bench/README.md). Slower: use ``-n 2000``.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _child(mode: str, path: str) -> None:
    """Build both sides' inputs from the dealt hands, then run ``mode`` once."""
    from scoring import score

    sys.path.insert(0, str(ROOT / "bench"))
    import scoring_bench

    hands = json.loads(Path(path).read_text(encoding="utf-8"))
    peer = scoring_bench._peer_inputs([win for hand in hands for win in hand["wins"]])
    assert peer is not None, "pip install mahjong"
    # as in scoring_bench.py: a full collection walking the inputs is neither side's work
    gc.collect()
    gc.freeze()
    if mode == "score":
        for hand in hands:
            score(hand)
    elif mode == "peer":
        from mahjong.hand_calculating.hand import HandCalculator

        estimate = HandCalculator.estimate_hand_value
        for tiles_136, win_tile, melds, config in peer:
            estimate(tiles_136, win_tile, melds=melds, config=config)


#: what is printed, as sums of valgrind's events (callgrind counts only the first)
_EVENTS = {
    "instructions": ("Ir",),
    "branch mispredictions": ("Bcm", "Bim"),
    "I1 misses": ("I1mr",),
    "D1 misses": ("D1mr", "D1mw"),
}


def _count(mode: str, path: str, misses: bool = False) -> dict[str, int]:
    """The events of one child run under callgrind (instructions) or, with ``misses``,
    cachegrind with its cache and branch simulation (the sums of ``_EVENTS``)."""
    tool = "cachegrind" if misses else "callgrind"
    simulate = ["--cache-sim=yes", "--branch-sim=yes"] if misses else []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "valgrind.out"
        subprocess.run(
            ["valgrind", f"--tool={tool}", *simulate, f"--{tool}-out-file={out}",
             sys.executable, __file__, "--child", mode, path],
            check=True, capture_output=True,
        )  # fmt: skip
        names: list[str] = []
        for line in out.read_text().splitlines():
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith(("summary:", "totals:")):
                total = dict(zip(names, map(int, line.split()[1:]), strict=True))
                return {
                    what: sum(total[e] for e in events)
                    for what, events in _EVENTS.items()
                    if all(e in total for e in events)
                }
    raise RuntimeError("valgrind wrote no total")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5000, help="hands dealt per ruleset")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")
    parser.add_argument(
        "--misses", action="store_true", help="also count branch mispredictions and cache misses"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return 0

    from scoring.generate import random_hands
    from scoring.rulesets import available

    for ruleset in args.ruleset or available():
        hands = [hand for hand in random_hands(args.seed, args.n, ruleset) if hand["wins"]]
        wins = sum(len(hand["wins"]) for hand in hands)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(hands, f)
        try:
            base, score, est = (_count(m, f.name, args.misses) for m in ("none", "score", "peer"))
        finally:
            Path(f.name).unlink()
        # each side's events per winner's hand, beyond building the inputs
        per_hand = {
            what: [(side[what] - n) / wins for side in (score, est)] for what, n in base.items()
        }
        ours, peer = per_hand.pop("instructions")
        print(
            f"{ruleset}: {wins} winners' hands, instructions per hand: score {ours / 1000:.0f}k"
            f"  mahjong estimate_hand_value {peer / 1000:.0f}k"
            f"  ratio: {peer / ours:.2f}x (target >= 1.5x)"
        )
        for what, (mine, theirs) in per_hand.items():
            print(
                f"  {what} per hand: score {mine / 1000:.2f}k"
                f"  mahjong {theirs / 1000:.2f}k  ratio: {theirs / mine:.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
