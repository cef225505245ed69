"""JSON typed into a form, read within bounds.

Python's ``json`` parser recurses once per nested array or object: a document nested
some thousands deep raises ``RecursionError`` (a 500), and a long one costs memory and
time for nothing. Every form field that takes JSON reads it with ``read_json``, which
measures the text first (its length, and how deep its brackets nest, counted outside
strings without recursing) and refuses it with a form error before parsing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

#: a JSON string (escapes included), skipped when brackets are counted
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (0 for a bare value).

    Brackets inside strings do not count; on a text that is not JSON the answer is
    only an estimate, and the parser refuses the text anyway."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def read_json(text: str, *, max_chars: int, max_depth: int) -> Any:
    """The value of ``text``, or ValidationError saying what is wrong with it: too long,
    nested too deep (both, when both), not JSON, or a number too long to read."""
    errors = []
    if len(text) > max_chars:
        errors.append(
            forms.ValidationError(
                _("Too long: %(size)s characters, at most %(limit)s."),
                code="too_long",
                params={"size": len(text), "limit": max_chars},
            )
        )
    depth = nesting(text)
    if depth > max_depth:
        errors.append(
            forms.ValidationError(
                _("Nested too deep: %(depth)s levels, at most %(limit)s."),
                code="too_deep",
                params={"depth": depth, "limit": max_depth},
            )
        )
    if errors:
        raise forms.ValidationError(errors)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise forms.ValidationError(
            _("Not valid JSON: %(error)s"), code="invalid", params={"error": exc}
        ) from None
    except ValueError:  # a number of more than 4,300 digits (Python's own limit)
        raise forms.ValidationError(_("A number is too long."), code="too_long_number") from None
