"""Reads of the play app. Balances and the table's state are computed, never stored."""

from __future__ import annotations

from django.db.models import F, QuerySet
from django.shortcuts import get_object_or_404

from clubapp.play.models import RulesetVersion, TableSession


def session_list() -> QuerySet[TableSession]:
    """Open tables first, then the newest."""
    return (
        TableSession.objects.select_related("ruleset")
        .prefetch_related("seats")
        .order_by(F("ended_at").desc(nulls_first=True), "-started_at", "-id")
    )


def session_get(pk: int) -> TableSession:
    return get_object_or_404(
        TableSession.objects.select_related("ruleset").prefetch_related("seats"), pk=pk
    )


def ruleset_version_list() -> QuerySet[RulesetVersion]:
    return RulesetVersion.objects.order_by("ruleset_id", "-id")


def ruleset_version_get(pk: int) -> RulesetVersion:
    return get_object_or_404(RulesetVersion, pk=pk)
