"""A refusal's field, as text (the command line's) and as a path (a form's)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import ScoringError, rulesets, score, tiles
from scoring.errors import field_name, field_path, refusals, refusals_in

from .builders import hand, pong, win


@pytest.mark.parametrize(
    ("field", "path"),
    [
        ("", ()),
        ("hand", ("hand",)),
        ("wins[0].melds[2].from", ("wins", 0, "melds", 2, "from")),
        ("wins[1].flags[0]", ("wins", 1, "flags", 0)),
        ("kongs[3]", ("kongs", 3)),
        ("garden.left.N", ("garden", "left", "N")),
        ("hands[12]", ("hands", 12)),
        ("ruleset my.copy[x]", ("ruleset my.copy[x]",)),
    ],
)
def test_a_field_reads_into_its_path(field: str, path: tuple[str | int, ...]) -> None:
    assert field_path(field) == path
    assert ScoringError("no", field=field).path == path


_NAMES = st.sampled_from(["wins", "melds", "from", "flags", "garden", "left", "N", "kongs"])


@given(
    st.lists(st.tuples(_NAMES, st.lists(st.integers(0, 20), max_size=2)), min_size=1, max_size=4)
)
def test_a_path_and_its_field_name_are_one(parts: list[tuple[str, list[int]]]) -> None:
    path = tuple(p for name, indexes in parts for p in (name, *indexes))
    assert field_path(field_name(path)) == path


def test_the_scorers_refusals_carry_their_path() -> None:
    record = hand(win(melds=[pong("1m"), pong("2m"), {"type": "pong", "tile": "3m"}]))
    with pytest.raises(ScoringError) as info:
        score(record)
    assert info.value.path == ("wins", 0, "melds", 2, "from")
    assert str(info.value).startswith("wins[0].melds[2].from: ")
    assert info.value.code == "pong_without_feeder" and info.value.params == {}


# issue 22.6: every refusal has a code the app words it by, and its params


def test_every_refusal_the_package_makes_gives_its_code() -> None:
    found = refusals()
    assert len(found) > 100
    assert [r for r in found if not r.code or not r.message or not r.zh] == []
    assert {r.module for r in found} >= {"scoring/record.py", "scoring/rulesets/__init__.py"}


def test_a_code_names_one_refusal_and_a_refusal_one_code() -> None:
    wordings: dict[str, set[tuple[str, str]]] = {}
    codes: dict[tuple[str, str], set[str]] = {}
    for r in refusals():
        wordings.setdefault(r.code, set()).add((r.message, r.zh))
        codes.setdefault((r.message, r.zh), set()).add(r.code)
    assert {code: w for code, w in wordings.items() if len(w) > 1} == {}
    assert {w: c for w, c in codes.items() if len(c) > 1} == {}
    assert all(code.isidentifier() and code == code.lower() for code in wordings)


def test_a_call_without_a_code_is_found() -> None:
    source = (
        "ScoringError(message)\n"
        '_fail(f, "no", f"bad {x}", code="bad", x=x)\n'
        "ScoringError(m, code=e.code)\n"
        "print(x)\n"
        "obj.ScoringError()\n"
    )
    assert refusals_in(source, "m.py") == [
        ("", "", "", frozenset(), "m.py"),
        ("bad", "no", "bad {}", frozenset({"x"}), "m.py"),
    ]


def test_a_refusal_carries_its_values_as_the_table_says_them() -> None:
    record = hand(win(concealed="123456789m1122p", winning_tile="1p"))
    with pytest.raises(ScoringError) as info:
        score(record)
    assert info.value.code == "tile_count"
    assert info.value.params == {"held": "13", "sets": "0", "need": "14"}
    with pytest.raises(ScoringError) as info:
        tiles.parse("1x")
    assert (info.value.code, info.value.params) == ("unknown_tile", {"tile": "1x"})


def test_a_rulesets_refusal_names_the_ruleset() -> None:
    params = {**rulesets.get("nanjing").params, "id": "mine", "penalty": {"amount": -1}}
    with pytest.raises(ScoringError) as info:
        rulesets.from_mapping(params)
    assert info.value.code == "ruleset_not_a_number"
    assert info.value.params == {"where": "mine", "key": "penalty.amount"}
    assert info.value.zh == "规则 mine：penalty.amount 应为不小于 0 的整数"
