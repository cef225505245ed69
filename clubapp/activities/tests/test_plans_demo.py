"""The demo's plan and records: this month's approved plan, a version 2 drafted,
records of the activities held, one corrected; twice is the same as once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from clubapp.activities.demo import demo_plans_and_records
from clubapp.activities.models import (
    ActivityPlan,
    ActivityRecord,
    RecordAttendee,
    RecordVersion,
    VersionState,
)
from clubapp.activities.selectors import plans as selectors
from clubapp.core.models import Room

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int]:
    return (
        ActivityPlan.objects.count(),
        ActivityRecord.objects.count(),
        RecordVersion.objects.count(),
    )


def _check(room: Room) -> None:
    plan = ActivityPlan.objects.get(room=room)
    assert plan.starts == timezone.localdate().replace(day=1)
    states = [selectors.version_state(v) for v in selectors.plan_versions(plan=plan)]
    assert states == [VersionState.APPROVED, VersionState.DRAFT]
    in_force = selectors.plan_approved_version(plan=plan)
    assert 5 <= in_force.activities.count() <= 8
    held = in_force.activities.filter(date__lte=timezone.localdate()).count()
    planned = ActivityRecord.objects.filter(versions__planned__isnull=False).distinct()
    assert planned.count() == held >= 1
    assert RecordVersion.objects.filter(number=2).count() == 1  # one record corrected


def test_it_runs_twice_on_an_empty_database(room, manager, approver):
    demo_plans_and_records(room, manager, approver)
    once = _counts()
    demo_plans_and_records(room, manager, approver)
    assert _counts() == once
    _check(room)
    assert ActivityRecord.objects.count() == planned_records(room)  # no visits: no daily play


def planned_records(room: Room) -> int:
    return (
        ActivityRecord.objects.filter(room=room, versions__planned__isnull=False).distinct().count()
    )


def test_it_runs_twice_on_the_demo_database(room):
    call_command("demo", verbosity=0)
    room = Room.objects.get()
    users = get_user_model().objects
    manager, approver = users.get(username="manager"), users.get(username="approver")
    demo_plans_and_records(room, manager, approver)
    once = _counts()
    demo_plans_and_records(room, manager, approver)
    assert _counts() == once
    _check(room)
    # the members who came on the last visiting day are on a record
    assert RecordAttendee.objects.exists()
