"""At least one row of every append-only table of the activities app, written by its
services (``clubapp/core/tests/test_appendonly.py`` calls it)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from clubapp.activities.services import checks as check_services
from clubapp.activities.services import duty as duty_services
from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.services import card_issue
from clubapp.members.tests.factories import MemberFactory, at


def activities_one_of_everything() -> None:
    # plans and records
    plans_and_records_one_of_everything()
    # tournaments
    from clubapp.activities.tests.test_tournaments_everything import tournaments_one_of_everything

    tournaments_one_of_everything()
    # duty and leave
    room = RoomFactory()
    on_duty = UserFactory(roles=[Role.MANAGER])
    cover = UserFactory(roles=[Role.MANAGER])
    head = UserFactory(roles=[Role.APPROVER])
    duty_services.duty_sign_on(room=room, by=on_duty, now=at(30, 9))
    duty_services.duty_sign_off(room=room, by=on_duty, now=at(30, 18))
    leave = duty_services.leave_request(
        room=room, starts=dt.date(2026, 11, 9), ends=dt.date(2026, 11, 10), reason="事假",
        cover=cover, by=on_duty, now=at(2, 9),
    )  # fmt: skip
    duty_services.leave_decide(leave=leave, approved=True, by=head, now=at(2, 10))
    duty_services.leave_back(leave=leave, back_on=dt.date(2026, 11, 11), by=on_duty, now=at(11, 9))
    # the day's checks, damage and violations
    item = check_services.check_items_ensure(room=room, since=dt.date(2026, 11, 1))[0]
    check_services.check_tick(item=item, day=dt.date(2026, 11, 30), by=on_duty, now=at(30, 9))
    gambler = MemberFactory(room=room)
    card_issue(member=gambler, by=on_duty, now=at(30, 9))
    check_services.damage_record(
        room=room, day=dt.date(2026, 11, 30), equipment="象棋", member=gambler,
        compensation=Decimal("20.00"), by=on_duty, now=at(30, 11),
    )  # fmt: skip
    check_services.violation_record(
        room=room, day=dt.date(2026, 11, 30), member=gambler, kind="gambling", notes="赌钱",
        by=on_duty, now=at(30, 11),
    )  # fmt: skip
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
