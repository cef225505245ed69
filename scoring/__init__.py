"""Mahjong scoring for Chinese card rooms: 南京麻将 and 江苏工地麻将.

Pure Python, standard library only. A hand record (a dict, HAND_RECORD.md) goes
in, a result dict comes out::

    from scoring import score
    result = score(hand)          # raises ScoringError (a ValueError) when refused
"""

from __future__ import annotations

from .engine import analyze, score
from .errors import ScoringError
from .rulesets import Ruleset

__all__ = ["Ruleset", "ScoringError", "analyze", "score"]
