"""scoring/ is pure: standard library only, never Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_it_imports_only_the_standard_library() -> None:
    modules = [p for p in ROOT.rglob("*.py") if "tests" not in p.relative_to(ROOT).parts]
    assert len(modules) >= 8
    for path in modules:
        foreign = {n for n in _imports(path) if n not in sys.stdlib_module_names and n != "scoring"}
        assert not foreign, f"{path.name} imports {foreign}"


def test_it_detects_a_foreign_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import django\nfrom hypothesis import given\nfrom . import tiles\n")
    assert _imports(bad) == {"django", "hypothesis"}


def test_it_runs_from_the_repo_root_with_a_bare_python() -> None:
    proc = subprocess.run(
        [sys.executable, "-I", "-c",
         "import sys; sys.path.insert(0, '.'); import scoring, scoring.__main__; "
         "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'hypothesis')))"],
        cwd=ROOT.parent, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert proc.stdout.strip() == "[]"


def test_every_refusal_has_its_chinese_reason() -> None:
    """The entry page shows .zh beside the field: every ScoringError the engine raises
    carries one (the command line's own usage errors aside)."""
    missing = []
    for path in ROOT.rglob("*.py"):
        if "tests" in path.relative_to(ROOT).parts or path.name == "__main__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            named = {k.arg for k in node.keywords}
            if node.func.id == "ScoringError" and "zh" not in named:
                missing.append(f"{path.name}:{node.lineno}")
            if node.func.id == "_fail" and len(node.args) + len(named) < 3:
                missing.append(f"{path.name}:{node.lineno}")
    assert missing == []
