"""Command line: ``python -m scoring score|analyze|explain`` (HAND_RECORD.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from . import rulesets
from .engine import analyze, compare, score
from .errors import ScoringError
from .explain import compare_text, explain


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        raise ScoringError(
            f"not UTF-8 text (byte {exc.start})", code="not_utf8", params={"at": str(exc.start)}
        ) from None


def _dump(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScoringError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            code="invalid_json",
            params={"error": exc.msg, "line": str(exc.lineno), "column": str(exc.colno)},
        ) from None


def cmd_score(args: argparse.Namespace) -> int:
    if args.batch:
        status = 0
        for number, line in enumerate(_read(args.batch).splitlines(), start=1):
            if not line.strip():
                continue
            try:
                _dump(score(_load(line)), sys.stdout)
            except ScoringError as exc:
                _dump({"line": number, "error": str(exc)}, sys.stdout)
                status = 2
        return status
    if args.file is None:
        raise ScoringError("give a hand file, or - for standard input", code="no_hand_file")
    _dump(score(_load(_read(args.file))), sys.stdout)
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    melds = [
        _load(m) if m.startswith("{") else {"type": "pong", "tile": m, "from": "E"}
        for m in args.meld
    ]
    try:
        result = analyze(
            args.tiles, win=args.win, ruleset=args.ruleset, melds=melds, flowers=args.flowers
        )
    except ScoringError as exc:
        raise ScoringError(exc.message, code=exc.code, params=exc.params) from None
    _dump(result, sys.stdout)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    hand = _load(_read(args.file))
    result = score(hand)
    print(explain(hand, result, rulesets.get(result["ruleset"]).name))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    hand = _load(_read(args.file))
    rows = compare(hand)
    print(compare_text(hand, rows))
    return 0 if any("result" in row for row in rows) else 2


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    parser = argparse.ArgumentParser(
        prog="python -m scoring", description="Mahjong hand scoring (HAND_RECORD.md)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score a hand record (JSON) and print the result")
    p.add_argument("file", nargs="?", help="hand.json, or - for standard input")
    p.add_argument(
        "--batch", metavar="FILE.jsonl", help="one hand a line in, one result a line out"
    )
    p.set_defaults(run=cmd_score)
    p = sub.add_parser("analyze", help="shape, waits and features of a hand's tiles")
    p.add_argument("tiles", help="MPSZ tiles, e.g. 123m456p789s11z55s")
    p.add_argument("--win", help="the winning tile (added if the tiles are one short)")
    p.add_argument("--ruleset", default="nanjing", choices=rulesets.available())
    p.add_argument("--flowers", default="", help="flower tiles held, e.g. 1f5z")
    p.add_argument(
        "--meld",
        action="append",
        default=[],
        help="a declared set: a tile (a pong) or a meld as JSON",
    )
    p.set_defaults(run=cmd_analyze)
    p = sub.add_parser("explain", help="the breakdown of a hand in Chinese, for people")
    p.add_argument("file", help="hand.json, or - for standard input")
    p.set_defaults(run=cmd_explain)
    p = sub.add_parser("compare", help="one hand under every ruleset, side by side")
    p.add_argument("file", help="hand.json, or - for standard input")
    p.set_defaults(run=cmd_compare)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except ScoringError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover - exercised through subprocess
    sys.exit(main())
