"""A refusal's field, as text (the command line's) and as a path (a form's)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import ScoringError, score
from scoring.errors import field_name, field_path

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
    assert info.value.code == "" and info.value.params == {}
