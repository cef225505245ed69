"""The day's checks, damage with its compensation, violations and the gambling rule."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubapp.activities.models import CheckItem, CheckTick, Damage, Violation
from clubapp.activities.selectors.checks import checks_on, month_checks
from clubapp.activities.services.checks import (
    check_item_add,
    check_item_move,
    check_item_rename,
    check_item_retire,
    check_items_ensure,
    check_tick,
    damage_record,
    violation_record,
)
from clubapp.activities.tests.duty_cast import *  # noqa: F403 - the fixtures
from clubapp.activities.tests.duty_cast import at, day
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.members.models import CardStatus
from clubapp.members.services import card_issue
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def refused(code: str, call, *args, **kwargs) -> None:
    with pytest.raises(ValidationError) as exc:
        call(*args, **kwargs)
    assert exc.value.code == code


def test_a_room_without_items_gets_the_default_list_once(room):
    items = check_items_ensure(room=room, since=day(1))
    assert [i.text for i in items][:3] == ["灯光", "门窗", "消防通道畅通"]
    assert check_items_ensure(room=room) == []
    assert CheckItem.objects.count() == 6


def test_items_are_added_renamed_moved_and_retired(room, manager, clock):
    first = check_item_add(room=room, phase="opening", text="灯光", by=manager)
    second = check_item_add(room=room, phase="opening", text="门窗", by=manager)
    check_item_rename(item=second, text="门窗完好", by=manager)
    check_item_move(item=second, up=True, by=manager)
    assert [i.text for i in CheckItem.objects.filter(phase="opening")] == ["门窗完好", "灯光"]
    check_item_move(item=second, up=True, by=manager)  # already first: stays
    check_item_retire(item=first, by=manager)
    first.refresh_from_db()
    assert (first.active, first.retired_on) == (False, day(30))
    refused("retired", check_item_retire, item=first, by=manager)
    refused("required", check_item_add, room=room, phase="closing", text=" ", by=manager)
    refused("phase", check_item_add, room=room, phase="noon", text="x", by=manager)


def test_only_managers_edit_and_tick(room, approver, clock):
    (item, *_) = check_items_ensure(room=room, since=day(1))
    with pytest.raises(PermissionDenied):
        check_item_add(room=room, phase="opening", text="x", by=approver)
    with pytest.raises(PermissionDenied):
        check_tick(item=item, day=day(30), by=approver)


def test_a_tick_says_who_and_when_once(room, manager, clock):
    (item, *_) = check_items_ensure(room=room, since=day(1))
    tick = check_tick(item=item, day=day(30), by=manager)
    assert (tick.by, tick.at, tick.date) == (manager, at(30, 10), day(30))
    refused("ticked", check_tick, item=item, day=day(30), by=manager)
    refused("closed_day", check_tick, item=item, day=day(25), by=manager)
    refused("future", check_tick, item=item, day=day(30).replace(month=12, day=1), by=manager)
    assert CheckTick.objects.count() == 1
    assert checks_on(room=room, day=day(30))["opening"][0].tick == tick


def test_month_checks_gives_the_open_days_missed_items(room, manager):
    items = check_items_ensure(room=room, since=day(1))
    for n in range(1, 31):
        if n in (4, 11, 18, 25):
            continue
        for item in items:
            if not (n == 9 and item.text == "灯光"):
                check_tick(item=item, day=day(n), by=manager, now=at(30, 19))
    late = check_item_add(room=room, phase="closing", text="空调", by=manager, now=at(29, 8))
    check_item_retire(item=items[1], by=manager, now=at(20, 8))
    month = month_checks(room=room, year=2026, month=11, now=at(30, 12))
    # the 30th is not over (26 open days, 25 counted); 空调 is due on the 29th only;
    # 门窗 was ticked anyway
    assert month.days_open == 25
    assert [(d, [i.text for i in gone]) for d, gone in month.missed] == [
        (day(9), ["灯光"]),
        (day(29), ["空调"]),
    ]
    assert (month.missed_count, month.days_complete) == (2, 23)
    assert late.since == day(29)


def test_damage_with_compensation_is_booked_with_a_receipt(room, manager, clock):
    person = MemberFactory(room=room, name="钱大伯")
    damage = damage_record(
        room=room,
        day=day(30),
        equipment="象棋一副",
        member=person,
        notes="摔坏",
        compensation=Decimal("35.00"),
        by=manager,
    )
    entry = damage.income
    assert (entry.category, entry.amount, entry.payer) == (
        IncomeCategory.COMPENSATION,
        Decimal("35.00"),
        "钱大伯",
    )
    assert entry.reference.startswith("R2026-")
    assert "象棋一副" in entry.description


def test_damage_sent_twice_books_once(room, manager, clock):
    key = uuid.uuid4()
    kwargs = {"room": room, "day": day(30), "equipment": "麻将桌", "compensation": Decimal(80)}
    first = damage_record(**kwargs, payer="路人", by=manager, request_key=key)
    again = damage_record(**kwargs, payer="路人", by=manager, request_key=key)
    assert first.pk == again.pk
    assert (Damage.objects.count(), IncomeEntry.objects.count()) == (1, 1)


def test_damage_without_compensation_books_nothing(room, manager, clock):
    damage = damage_record(room=room, day=day(30), equipment="椅子", by=manager)
    assert (damage.income, IncomeEntry.objects.count()) == (None, 0)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"equipment": " "}, "required"),
        ({"compensation": Decimal("-1")}, "negative"),
        ({"compensation": Decimal("10")}, "required"),  # nobody named who paid
        ({"day": day(30).replace(month=12, day=1)}, "future"),
    ],
)
def test_bad_damage_saves_nothing(room, manager, clock, kwargs, code):
    data = {"room": room, "day": day(30), "equipment": "椅子", "by": manager, **kwargs}
    refused(code, damage_record, **data)
    assert (Damage.objects.count(), IncomeEntry.objects.count()) == (0, 0)


def test_gambling_revokes_the_members_card_in_the_same_step(room, manager, clock):
    person = MemberFactory(room=room)
    card = card_issue(member=person, by=manager)
    violation = violation_record(
        room=room, day=day(30), member=person, kind="gambling", notes="打麻将赌钱", by=manager
    )
    card.refresh_from_db()
    assert (violation.card, card.status) == (card, CardStatus.REVOKED)
    assert "赌博" in card.status_reason and "打麻将赌钱" in card.status_reason


def test_gambling_without_a_valid_card_is_recorded_with_no_card(room, manager, clock):
    person = MemberFactory(room=room)
    violation = violation_record(
        room=room, day=day(30), member=person, kind="gambling", notes="赌钱", by=manager
    )
    assert violation.card is None


def test_smoking_keeps_the_card(room, manager, clock):
    person = MemberFactory(room=room)
    card = card_issue(member=person, by=manager)
    violation = violation_record(
        room=room, day=day(30), member=person, kind="smoking", notes="室内吸烟", by=manager
    )
    card.refresh_from_db()
    assert (violation.card, card.status) == (None, CardStatus.ACTIVE)


def test_bad_violations_save_nothing(room, manager, approver, clock):
    person = MemberFactory(room=room)
    refused("required", violation_record, room=room, day=day(30), member=person,
            kind="smoking", notes=" ", by=manager)  # fmt: skip
    refused("kind", violation_record, room=room, day=day(30), member=person,
            kind="noise", notes="x", by=manager)  # fmt: skip
    with pytest.raises(PermissionDenied):
        violation_record(
            room=room, day=day(30), member=person, kind="smoking", notes="x", by=approver
        )
    assert not Violation.objects.exists()


def test_a_month_without_check_items_is_not_reported_as_checked(room):
    """A room that never set its list checked nothing: no day counts as "every check
    ticked" (the day's test in the browser found "25 of 25" for such a room)."""
    month = month_checks(room=room, year=2026, month=11, now=at(30, 12))
    assert month.days_open > 0
    assert (month.days_complete, month.days_without_items, month.missed_count) == (
        0,
        month.days_open,
        0,
    )
