"""One hand under other rulesets, side by side (the dispute settler at the table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .engine import score
from .errors import ScoringError
from .rulesets import Ruleset


def as_played_under(record: Mapping[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """The hand as a table of ``ruleset`` would score it: named for that ruleset, and
    without the table state a family cannot take. The 园子 cap is the table's, not the
    hand's, so it is left out everywhere (the values then compare the hands
    themselves); a 工地 table never doubles. 诈糊 / 相公 stay: 南京 refuses them, and
    says why."""
    out = {k: v for k, v in record.items() if k != "garden"}
    out["ruleset"] = ruleset.id
    if ruleset.family == "worksite":
        out.pop("doubled", None)
    return out


def compare(record: Mapping[str, Any], rulesets: Sequence[Ruleset]) -> list[dict[str, Any]]:
    """The hand scored under each of ``rulesets``, in order: for each its id, name and
    version, and its ``result`` or why it refuses the hand (``error``, ``error_zh``: the
    command line's; ``error_code``, ``error_params``: for a caller that words it)."""
    rows = []
    for ruleset in rulesets:
        row: dict[str, Any] = {"ruleset": ruleset.id, "name": ruleset.name}
        row["version"] = ruleset.version
        try:
            row["result"] = score(as_played_under(record, ruleset), ruleset=ruleset)
        except ScoringError as exc:
            row["error"], row["error_zh"] = str(exc), exc.zh
            row["error_code"], row["error_params"] = exc.code, exc.params
        rows.append(row)
    return rows
