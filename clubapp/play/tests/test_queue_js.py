"""The offline queue's decisions (play/queue.js) run under node: order, basis, whose
entries are sent, what an answer means, what is kept. Skipped without node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

QUEUE_JS = Path(__file__).resolve().parents[1] / "static" / "play" / "queue.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node not installed")


def run(expression: str) -> object:
    """``expression`` evaluated with queue.js's functions as ``Q``; its JSON."""
    source = json.dumps(str(QUEUE_JS))
    script = f"const Q = require({source}); console.log(JSON.stringify({expression}));"
    assert NODE is not None
    out = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_oldest_first_whatever_the_stored_order():
    entries = [
        {"key": "c", "queuedAt": 30, "seq": 0},
        {"key": "a", "queuedAt": 10, "seq": 1},
        {"key": "b", "queuedAt": 10, "seq": 2},
    ]
    assert run(f"Q.ordered({json.dumps(entries)}).map(e => e.key)") == ["a", "b", "c"]


def test_a_new_entry_follows_the_ones_waiting():
    assert run("Q.basis({after: 5, settled: 3}, [{}, {}])") == {
        "after": 7,
        "settled": 3,
        "number": 8,
    }
    assert run("Q.basis({after: 0, settled: 0}, [])")["number"] == 1


def test_only_this_tables_entries_of_this_login_are_sent():
    entries = [
        {"key": "mine2", "table": "1", "user": "7", "queuedAt": 2, "seq": 0},
        {"key": "other", "table": "1", "user": "8", "queuedAt": 1, "seq": 0},
        {"key": "mine1", "table": "1", "user": "7", "queuedAt": 1, "seq": 1},
        {"key": "elsewhere", "table": "2", "user": "7", "queuedAt": 0, "seq": 0},
    ]
    plan = run(f"Q.plan({json.dumps(entries)}, '1', '7')")
    assert [e["key"] for e in plan["send"]] == ["mine1", "mine2"]
    assert [e["key"] for e in plan["foreign"]] == ["other"]


ANSWERS = [
    (200, {"outcome": "booked", "number": 3}, "booked"),
    (200, {"outcome": "already", "number": 3}, "already"),
    (200, {"outcome": "changed", "errors": []}, "hold"),
    (200, {"outcome": "invalid", "errors": ["x"]}, "hold"),
    (200, {"outcome": "closed", "errors": []}, "hold"),
    (0, None, "wait"),  # no network, a timeout
    (502, None, "wait"),
    (503, {"outcome": "booked"}, "wait"),
    (403, None, "wait"),  # a CSRF page, the login page: not an answer
    (200, {"outcome": "surprise"}, "wait"),
]


def test_what_an_answer_means():
    cases = json.dumps([[status, body] for status, body, _ in ANSWERS])
    decided = run(f"{cases}.map(([status, body]) => Q.decide(status, body))")
    assert decided == [decision for _, _, decision in ANSWERS]


def test_only_what_the_recorder_typed_is_kept():
    pairs = [
        ["csrfmiddlewaretoken", "t"],
        ["winners", "S"],
        ["key", "k"],
        ["previewed", "d"],
        ["after", "1"],
        ["confirm", "1"],
        ["S-hard", "4"],
    ]
    assert run(f"Q.typed({json.dumps(pairs)})") == [["winners", "S"], ["S-hard", "4"]]
