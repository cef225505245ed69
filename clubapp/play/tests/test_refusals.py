"""Issue 22.6, one translation path: every refusal scoring can raise is worded by the
app from its code (``clubapp.play.refusals``), in English and in the shipped Chinese,
which is the scorer's own Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from clubapp.play.refusals import ENTRY, REFUSALS, said
from scoring import ScoringError, score
from scoring.errors import refusals
from scoring.tests.builders import hand, win

CATALOG = Path(__file__).parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalog() -> dict[tuple[str, str], str]:
    """The zh_Hans catalog as (context, msgid) → msgstr: a few lines for what the
    file holds (one-line and continued strings), rather than a dependency."""
    entries: dict[tuple[str, str], str] = {}
    parts: dict[str, str] = {}
    key = ""
    for line in [*CATALOG.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith(("msgctxt ", "msgid ", "msgstr ")):
            key, _, text = line.partition(" ")
            parts[key] = text[1:-1]
        elif line.startswith('"'):
            parts[key] += line[1:-1]
        elif not line.strip() and "msgstr" in parts:
            entries[parts.get("msgctxt", ""), parts["msgid"]] = parts["msgstr"].replace('\\"', '"')
            parts = {}
    return entries


def scorers() -> dict[str, tuple[str, str, frozenset[str]]]:
    """Each code scoring raises: its Chinese as written, the names of its params."""
    return {r.code: (r.message, r.zh, r.params) for r in refusals()}


def entry_of(code: str) -> tuple[str, str]:
    """A code's catalog key: its context (the code itself, but for entry's two) and its
    msgid (the English: the source language has no catalog)."""
    with translation.override("en"):
        return ("" if code in ENTRY else code), str(REFUSALS[code])


def test_every_code_scoring_raises_has_a_msgid_and_no_other() -> None:
    assert set(REFUSALS) == set(scorers())


@pytest.mark.parametrize("code", sorted(scorers()))
def test_every_msgid_has_the_scorers_chinese(code: str) -> None:
    _message, zh, params = scorers()[code]
    context, msgid = entry_of(code)
    msgstr = catalog().get((context, msgid), "")
    assert msgstr, f"{code}: no msgstr for {msgid!r}"
    # the scorer's Chinese, its values in their places (a ruleset's named before it)
    assert zh.replace("{}", "%s") in PLACEHOLDER.sub("%s", msgstr), (zh, msgstr)
    # the page puts in only what the refusal carries
    names = set(PLACEHOLDER.findall(msgid))
    assert set(PLACEHOLDER.findall(msgstr)) <= names <= params | {"where"}, (code, names)


def test_said_words_a_refusal_from_its_code_in_the_pages_language() -> None:
    with pytest.raises(ScoringError) as info:
        score(hand(win(concealed="123456789m1122p", winning_tile="1p")))
    with translation.override("en"):
        assert said(info.value) == "holds 13 tiles; with 0 sets it must hold 14"
    with translation.override("zh-hans"):
        assert said(info.value) == info.value.zh == "手牌 13 张；0 组副露时应为 14 张"


def test_a_code_it_does_not_know_is_not_worded_silently() -> None:
    with pytest.raises(KeyError):
        said(ScoringError("no", zh="不行", code="no_such_refusal"))
