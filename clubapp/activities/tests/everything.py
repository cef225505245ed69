"""At least one row of every append-only table of the activities app, written by its
services (``clubapp/core/tests/test_appendonly.py`` calls it)."""

from __future__ import annotations


def activities_one_of_everything() -> None:
    # plans and records
    plans_and_records_one_of_everything()
    # tournaments
    # duty and leave
    # the day's checks, damage and violations
    pass


def plans_and_records_one_of_everything() -> None:
    """A plan submitted and decided (planned activities, a submission, a decision) and a
    record with an attendee and a photo, corrected once."""
    import io

    from clubapp.activities.services import records
    from clubapp.activities.tests.plans_records import (
        a_record,
        approved_plan,
        at,
        visitor,
        what_happened,
    )
    from clubapp.core.roles import Role
    from clubapp.core.tests.factories import RoomFactory, UserFactory
    from clubapp.members.tests.factories import image_bytes

    room = RoomFactory(slug="activities-plans")
    manager = UserFactory(roles=[Role.MANAGER])
    approver = UserFactory(roles=[Role.APPROVER])
    approved_plan(room, manager, approver)
    came = visitor(room, manager, at(5, 13))
    record = a_record(room, manager, attendees=[came])
    records.record_correct(
        record=record,
        data=what_happened(attendees=[came]),
        reason="补照片",
        photos=[io.BytesIO(image_bytes("JPEG", (60, 40)))],
        by=manager,
        now=at(6, 9),
    )
