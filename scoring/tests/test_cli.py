"""The command line, exactly as HAND_RECORD.md says: output, error lines, exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.__main__ import main

from .builders import hand, win

ROOT = Path(__file__).resolve().parents[2]
GOOD = hand(win(discarder="E"))
BAD = hand(win(discarder="S"))


def run(
    argv: list[str],
    stdin: str = "",
    capsys: pytest.CaptureFixture[str] | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    assert capsys is not None and monkeypatch is not None
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_reads_standard_input(capsys, monkeypatch) -> None:
    code, out, err = run(["score", "-"], json.dumps(GOOD), capsys, monkeypatch)
    assert code == 0 and err == ""
    assert json.loads(out)["net"] == {"E": -52, "S": 52, "W": 0, "N": 0}


def test_score_reads_a_file(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    code, out, _ = run(["score", str(path)], "", capsys, monkeypatch)
    assert code == 0 and json.loads(out)["wins"][0]["value"] == 52


def test_a_refused_hand_prints_one_error_line_and_exits_2(capsys, monkeypatch) -> None:
    code, out, err = run(["score", "-"], json.dumps(BAD), capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err == "error: wins[0].discarder: the discarder cannot be the winner\n"


def test_malformed_json_is_refused(capsys, monkeypatch) -> None:
    code, out, err = run(["score", "-"], "{", capsys, monkeypatch)
    assert code == 2 and out == "" and err.startswith("error: invalid JSON")


def test_a_missing_file_is_refused(tmp_path, capsys, monkeypatch) -> None:
    code, _, err = run(["score", str(tmp_path / "none.json")], "", capsys, monkeypatch)
    assert code == 2 and err.startswith("error: cannot read")


def test_score_needs_a_file(capsys, monkeypatch) -> None:
    code, _, err = run(["score"], "", capsys, monkeypatch)
    assert code == 2 and "give a hand file" in err


def test_batch_scores_a_line_each_and_goes_on_after_a_bad_one(
    tmp_path, capsys, monkeypatch
) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(
        "\n".join([json.dumps(GOOD), json.dumps(BAD), "", "not json", json.dumps(GOOD)]) + "\n"
    )
    code, out, err = run(["score", "--batch", str(path)], "", capsys, monkeypatch)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and err == ""
    assert lines[0]["net"]["S"] == 52
    assert lines[1] == {"line": 2, "error": "wins[0].discarder: the discarder cannot be the winner"}
    assert lines[2]["line"] == 4 and lines[2]["error"].startswith("invalid JSON")
    assert lines[3]["net"]["S"] == 52
    assert len(lines) == 4  # the blank line is skipped


def test_batch_of_good_hands_exits_0(capsys, monkeypatch) -> None:
    code, out, _ = run(["score", "--batch", "-"], json.dumps(GOOD) + "\n", capsys, monkeypatch)
    assert code == 0 and len(out.splitlines()) == 1


def test_analyze_prints_shape_waits_features(capsys, monkeypatch) -> None:
    code, out, _ = run(
        ["analyze", "123m456p789s11z55s", "--win", "5s", "--ruleset", "nanjing"],
        "",
        capsys,
        monkeypatch,
    )
    result = json.loads(out)
    assert code == 0 and result["shape"] == "standard" and result["waits"] == ["5s", "1z"]
    assert set(result) == {"shape", "waits", "features", "breakdown"}


def test_analyze_takes_melds(capsys, monkeypatch) -> None:
    code, out, _ = run(
        [
            "analyze",
            "456p11z55s",
            "--win",
            "5s",
            "--meld",
            "1m",
            "--meld",
            '{"type": "kong", "tile": "2m", "from": null}',
        ],
        "",
        capsys,
        monkeypatch,
    )
    assert code == 0 and json.loads(out)["shape"] == "standard"


def test_analyze_of_a_non_winning_hand_exits_2(capsys, monkeypatch) -> None:
    code, out, err = run(["analyze", "123m456p789s11z57s", "--win", "5s"], "", capsys, monkeypatch)
    assert (code, out, err) == (2, "", "error: not a winning hand\n")


def test_explain_prints_the_breakdown_in_chinese(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    code, out, _ = run(["explain", str(path)], "", capsys, monkeypatch)
    assert code == 0
    assert "南家胡牌（东家放炮）：每份 52 花" in out
    assert "独占" in out and "东 → 南　52 花（胡牌）" in out and "下一把：庄家 南" in out


def test_the_module_runs_with_a_bare_python() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"],
        input=json.dumps(GOOD),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["net"]["S"] == 52
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "score", "-"],
        input=json.dumps(BAD),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.startswith("error: ")


def test_compare_prints_every_ruleset_side_by_side(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(dict(GOOD, doubled=True)), encoding="utf-8")
    code, out, _ = run(["compare", str(path)], "", capsys, monkeypatch)
    assert code == 0
    head, *rest = out.splitlines()
    assert "南京麻将" in head and "江苏工地麻将" in head
    assert any(line.startswith("南家胡") and "每份 104" in line and "—" in line for line in rest)
    assert "不能按此规则计分：工地麻将没有比下胡翻倍" in out


def test_compare_exits_2_when_no_ruleset_takes_the_hand(capsys, monkeypatch) -> None:
    code, out, _ = run(["compare", "-"], json.dumps(BAD), capsys, monkeypatch)
    assert code == 2 and out.count("不能按此规则计分") == 3
