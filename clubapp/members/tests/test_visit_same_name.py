"""是同一人？: a non-member's name already inside is asked about, not silently doubled."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubapp.members.models import Visit
from clubapp.members.services import visit_check_in, visit_check_out
from clubapp.members.tests.factories import at

pytestmark = pytest.mark.django_db


def test_the_same_name_inside_asks_and_saves_nothing(room, manager, tables):
    visit_check_in(room=room, guest_name="张三", by=manager, now=at(30, 10))
    with pytest.raises(ValidationError, match="是同一人") as exc:
        visit_check_in(room=room, guest_name=" 张三 ", by=manager, now=at(30, 10, 5))
    assert exc.value.error_list[0].code == "same_name"
    assert Visit.objects.count() == 1


def test_another_person_of_that_name_is_admitted_when_the_desk_says_so(room, manager, tables):
    visit_check_in(room=room, guest_name="张三", by=manager, now=at(30, 10))
    visit_check_in(
        room=room, guest_name="张三", by=manager, now=at(30, 10, 5), same_name_confirmed=True
    )
    assert Visit.objects.filter(guest_name="张三", checked_out_at__isnull=True).count() == 2


def test_a_name_that_left_or_a_visit_past_closing_is_not_asked_about(room, manager, tables):
    earlier = visit_check_in(room=room, guest_name="张三", by=manager, now=at(30, 10))
    visit_check_out(visit=earlier, by=manager, now=at(30, 11))
    visit_check_in(room=room, guest_name="李四", by=manager, now=at(29, 17))  # left open
    visit_check_in(room=room, guest_name="张三", by=manager, now=at(30, 11, 30))
    visit_check_in(room=room, guest_name="李四", by=manager, now=at(30, 11, 30))
    assert Visit.objects.count() == 4
