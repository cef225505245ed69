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


def _count(mode: str, path: str) -> int:
    """Instructions of one child run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--child", mode, path],
            check=True, capture_output=True,
        )  # fmt: skip
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no total")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5000, help="hands dealt per ruleset")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")
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
            base = _count("none", f.name)
            ours = (_count("score", f.name) - base) / wins
            peer = (_count("peer", f.name) - base) / wins
        finally:
            Path(f.name).unlink()
        print(
            f"{ruleset}: {wins} winners' hands, instructions per hand: score {ours / 1000:.0f}k"
            f"  mahjong estimate_hand_value {peer / 1000:.0f}k"
            f"  ratio: {peer / ours:.2f}x (target >= 1.5x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
