"""Check-in outside the opening hours: the reason, and 特殊情况 admitted by a manager."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from clubapp.members.models import ExceptionKind, Visit
from clubapp.members.selectors import check_in_refusal
from clubapp.members.services import (
    card_issue,
    opening_exception_create,
    visit_check_in,
    visit_check_out,
)
from clubapp.members.tests.factories import MemberFactory, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def card(room, manager):
    return card_issue(member=MemberFactory(room=room, name="赵会员"), by=manager, now=at(30, 9))


@pytest.mark.parametrize(
    ("moment", "reason"),
    [
        (at(25, 10), "星期三是每周调休日"),
        (at(30, 8, 30), "09:00开放"),
        (at(30, 12, 30), "13:00开放"),
        (at(30, 18, 30), "今天18:00已闭馆"),
    ],
    ids=["wednesday", "before-opening", "lunch", "after-closing"],
)
def test_a_refused_check_in_says_why(room, manager, card, moment, reason):
    assert reason in check_in_refusal(room=room, at=moment)
    with pytest.raises(ValidationError, match=reason):
        visit_check_in(room=room, card=card, by=manager, now=moment)
    assert not Visit.objects.exists()


def test_a_special_closure_gives_its_note(room, manager, card):
    opening_exception_create(
        room=room, date=dt.date(2026, 11, 30), kind=ExceptionKind.CLOSED, note="设备检修"
    )
    with pytest.raises(ValidationError, match="今天闭馆（设备检修）"):
        visit_check_in(room=room, card=card, by=manager, now=at(30, 10))


def test_nothing_is_refused_while_open(room):
    assert check_in_refusal(room=room, at=at(30, 10)) == ""


def test_a_manager_admits_a_member_on_wednesday_with_a_reason(room, manager, card):
    visit = visit_check_in(
        room=room, card=card, by=manager, now=at(25, 10), admitted_reason="  区里的比赛  "
    )
    visit.refresh_from_db()
    assert visit.admitted_reason == "区里的比赛" and visit.admitted_by == manager


def test_a_manager_admits_a_non_member_in_the_evening(room, manager, tables):
    visit = visit_check_in(
        room=room, guest_name="夜客", by=manager, now=at(30, 19), admitted_reason="象棋夜场"
    )
    assert visit.admitted_by == manager
    # closes at 23:00 (篇三 三): the fee counts up to the time he left
    out = visit_check_out(visit=visit, by=manager, now=at(30, 20, 30))
    assert out.hours_billed == 2


def test_no_reason_is_taken_while_the_room_is_open(room, manager, card):
    with pytest.raises(ValidationError, match="无需"):
        visit_check_in(room=room, card=card, by=manager, now=at(30, 10), admitted_reason="x")
    assert not Visit.objects.exists()


def test_not_even_a_special_case_after_23(room, manager, card):
    with pytest.raises(ValidationError, match="23:00"):
        visit_check_in(room=room, card=card, by=manager, now=at(30, 23, 10), admitted_reason="x")


def test_only_a_manager_admits(room, accountant, card):
    with pytest.raises(PermissionDenied):
        visit_check_in(room=room, card=card, by=accountant, now=at(25, 10), admitted_reason="x")
    assert not Visit.objects.exists()


def test_a_reason_too_long_is_refused(room, manager, card):
    with pytest.raises(ValidationError, match="200"):
        visit_check_in(room=room, card=card, by=manager, now=at(25, 10), admitted_reason="长" * 201)


def test_the_database_refuses_a_reason_without_who_admitted(room, manager, card):
    visit = visit_check_in(room=room, card=card, by=manager, now=at(30, 10))
    with pytest.raises(IntegrityError), transaction.atomic():
        Visit.objects.filter(pk=visit.pk).update(admitted_reason="无人准许")
