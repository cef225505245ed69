"""Ruleset versions: the exact numbers a hand is scored with, stored once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import scoring.rulesets
from clubapp.core.models import Room
from clubapp.play.models import RulesetVersion


def ruleset_version_save(*, params: Mapping[str, Any], room: Room | None) -> RulesetVersion:
    """Store a ruleset's parameters as a version; the same numbers give the same row.

    ``room``: the room whose manager saves it (the version is that room's own); None: a
    standard version (shipped with scoring/, every room's, read only). A room that
    saves exactly the numbers of a standard version gets the standard row.

    scoring checks the parameters (``from_mapping`` raises ScoringError with the key at
    fault); an id that is no slug, or an id or a name too long for its column, raises
    ValidationError. A changed number hashes to a new version, so hands booked under
    the old one keep it.
    """
    ruleset = scoring.rulesets.from_mapping(params)
    defaults = {"name": ruleset.name, "family": ruleset.family, "params": dict(ruleset.params)}
    # what the columns hold (a slug id of 60, a name of 100) is the model's to say: a
    # ValidationError naming the field, not a database error; the row itself is unique
    # by (id, version), and the same numbers give the same row
    RulesetVersion(ruleset_id=ruleset.id, version=ruleset.version, **defaults).full_clean(
        exclude=["params"], validate_unique=False, validate_constraints=False
    )
    standard = RulesetVersion.objects.filter(
        room__isnull=True, ruleset_id=ruleset.id, version=ruleset.version
    ).first()
    if standard is not None:
        return standard
    row, _created = RulesetVersion.objects.get_or_create(
        room=room, ruleset_id=ruleset.id, version=ruleset.version, defaults=defaults
    )
    return row


def ruleset_versions_sync() -> list[RulesetVersion]:
    """Make sure the version of every ruleset shipped with scoring/ is stored, as a
    standard version (no room)."""
    return [
        ruleset_version_save(params=scoring.rulesets.get(ident).params, room=None)
        for ident in scoring.rulesets.available()
    ]
