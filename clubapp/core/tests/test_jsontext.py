"""JSON typed into a form is measured before it is parsed: no RecursionError, no
unbounded text (issue 21 item 10)."""

from __future__ import annotations

import pytest
from django import forms
from django.utils import translation

from clubapp.core.jsontext import nesting, read_json


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ('"[[["', 0),
        ("[]", 1),
        ('{"a": [1, {"b": []}]}', 4),
        ('["\\"[[", ["]"]]', 2),  # an escaped quote does not end the string
        ('["\\\\", [[]]]', 3),  # an escaped backslash does
        ("[" * 100_000 + "]" * 100_000, 100_000),
    ],
)
def test_it_counts_the_nesting_outside_strings(text, depth):
    assert nesting(text) == depth


def codes(text: str, **limits: int) -> list[str]:
    with pytest.raises(forms.ValidationError) as info:
        read_json(text, **{"max_chars": 100, "max_depth": 3, **limits})
    return [error.code for error in info.value.error_list]


def test_it_reads_json_within_the_bounds():
    assert read_json('{"a": [[1]]}', max_chars=12, max_depth=3) == {"a": [[1]]}


def test_it_refuses_what_is_too_long_too_deep_or_both_before_parsing():
    assert codes("[" * 60 + "]" * 60) == ["too_long", "too_deep"]
    assert codes('"' + "x" * 200 + '"') == ["too_long"]
    assert codes("[[[[]]]]") == ["too_deep"]


def test_it_refuses_what_is_not_json_or_holds_a_number_too_long():
    assert codes("{", max_chars=10) == ["invalid"]
    assert codes("9" * 5000, max_chars=10_000) == ["too_long_number"]


def test_the_messages_are_chinese_in_the_ui():
    with translation.override("zh-hans"), pytest.raises(forms.ValidationError) as info:
        read_json("[" * 5 + "]" * 5, max_chars=100, max_depth=3)
    assert info.value.messages == ["嵌套过深：5 层，最多 3 层。"]
