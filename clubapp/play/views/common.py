"""What the play pages share."""

from __future__ import annotations

from django.utils.translation import get_language

from scoring import ScoringError


def said(error: ScoringError) -> str:
    """Scoring's reason in the page's language (its own Chinese, or its English)."""
    return error.zh if (get_language() or "").startswith("zh") else str(error)
