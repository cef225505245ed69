"""Admin of the activities app: every row can be read, none added, changed or deleted
here. Plans, records, tournaments, the roster, leave and the day's checks change only
through ``clubapp.activities.services`` and their pages."""

from __future__ import annotations

from django.contrib import admin

from clubapp.activities import models
from clubapp.core.adminbase import InRoom, ReadOnlyAdmin


class RoomReadOnlyAdmin(InRoom, ReadOnlyAdmin):
    """Read-only, and the request's room's rows only."""


# Every model, read-only; the lists show what each row is (its __str__).
for model in (
    models.ActivityPlan,
    models.PlanVersion,
    models.DraftActivity,
    models.PlannedActivity,
    models.VersionSubmission,
    models.VersionDecision,
    models.ActivityRecord,
    models.RecordVersion,
    models.RecordAttendee,
    models.RecordPhoto,
    models.Tournament,
    models.Entrant,
    models.Round,
    models.Pairing,
    models.Result,
    models.RoundTable,
    models.RoundSeat,
    models.FinalStanding,
    models.RosterEntry,
    models.DutySign,
    models.Leave,
    models.LeaveDecision,
    models.LeaveReturn,
    models.CheckItem,
    models.CheckTick,
    models.Damage,
    models.Violation,
):
    admin.site.register(model, RoomReadOnlyAdmin)
