"""Writes of the play app: keyword-only, typed, atomic (``<entity>_<action>``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring.rulesets
from clubapp.core.models import Room
from clubapp.play.models import SEATS, Mode, RulesetVersion, Seat, SettleEvery, TableSession


@dataclass(frozen=True)
class SeatIn:
    """A player to place at a wind: a member's account, or a guest by name."""

    wind: str
    name: str = ""
    user: AbstractBaseUser | None = None


@transaction.atomic
def ruleset_version_save(*, params: Mapping[str, Any]) -> RulesetVersion:
    """Store a ruleset's parameters as a version; the same numbers give the same row.

    scoring checks the parameters (``from_mapping`` raises ScoringError with the
    key at fault). A changed number hashes to a new version, so hands booked
    under the old one keep it.
    """
    ruleset = scoring.rulesets.from_mapping(params)
    row, _created = RulesetVersion.objects.get_or_create(
        ruleset_id=ruleset.id,
        version=ruleset.version,
        defaults={"name": ruleset.name, "family": ruleset.family, "params": dict(ruleset.params)},
    )
    return row


def ruleset_versions_sync() -> list[RulesetVersion]:
    """Make sure the version of every ruleset shipped with scoring/ is stored."""
    return [
        ruleset_version_save(params=scoring.rulesets.get(ident).params)
        for ident in scoring.rulesets.available()
    ]


@transaction.atomic
def session_create(
    *,
    room: Room,
    table_number: int,
    ruleset: RulesetVersion,
    seats: Sequence[SeatIn],
    user: AbstractBaseUser | None,
    mode: str = Mode.OPEN,
    garden_size: int | None = None,
    end_when_out: int = 2,
    settle_every: str | None = None,
    jiang_count: int = 2,
    started_at: datetime | None = None,
) -> TableSession:
    """Open a table session with its four seats (winds as drawn).

    The settlement default follows the ruleset: 工地 tables settle on the worksite
    timing, 南京 tables per 圈. 进园子 is a 南京 mode only.
    """
    winds = sorted(seat.wind for seat in seats)
    if winds != sorted(SEATS):
        raise ValidationError(_("Each wind E, S, W, N needs exactly one player."))
    if mode == Mode.GARDEN:
        if ruleset.family != "nanjing":
            raise ValidationError(_("进园子 is a 南京麻将 mode."))
        if not garden_size or garden_size <= 0:
            raise ValidationError(_("A 进园子 table needs the size of its garden."))
    else:
        garden_size = None
    if settle_every is None:
        settle_every = SettleEvery.WORKSITE if ruleset.family == "worksite" else SettleEvery.QUAN
    session = TableSession.objects.create(
        room=room,
        table_number=table_number,
        ruleset=ruleset,
        mode=mode,
        garden_size=garden_size,
        end_when_out=end_when_out,
        settle_every=settle_every,
        jiang_count=jiang_count,
        started_at=started_at or timezone.now(),
        created_by=user if user is not None and user.is_authenticated else None,
    )
    for seat in seats:
        name = seat.name.strip()
        if not name and seat.user is not None:
            name = seat.user.get_short_name() or seat.user.get_username()  # type: ignore[attr-defined]
        if not name:
            raise ValidationError(_("Every seat needs a player."))
        Seat.objects.create(session=session, wind=seat.wind, name=name, user=seat.user)
    return session


@transaction.atomic
def session_end(*, session: TableSession, ended_at: datetime | None = None) -> TableSession:
    """Close the session (idempotent: an ended session keeps its end)."""
    locked = TableSession.objects.select_for_update().get(pk=session.pk)
    if locked.ended_at is None:
        locked.ended_at = ended_at or timezone.now()
        locked.save(update_fields=["ended_at"])
    return locked
