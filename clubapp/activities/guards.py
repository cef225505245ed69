"""What the database itself refuses in the activities app: the submitted plans, the
records' versions, the tournaments' results and final standings, the duty signs, the
leave decisions and returns, the day's checks, damage and violations are append-only
(its part of the trigger registry, ``clubapp.core.triggers``)."""

from __future__ import annotations

from clubapp.core.appendonly import append_only

TRIGGERS = tuple(
    trigger
    for table in (
        "activities_dutysign",
        "activities_leavedecision",
        "activities_leavereturn",
        "activities_recordversion",
        "activities_recordattendee",
        "activities_recordphoto",
        "activities_result",
        "activities_finalstanding",
        "activities_plannedactivity",
        "activities_versionsubmission",
        "activities_versiondecision",
        "activities_checktick",
        "activities_damage",
        "activities_violation",
    )
    for trigger in append_only(table)
)
