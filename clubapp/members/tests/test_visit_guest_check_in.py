"""The non-member check-in view: 是同一人？ and a special admission ask on a page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.members.models import Visit
from clubapp.members.tests.factories import at

pytestmark = pytest.mark.django_db

URL = "members:visit_guest_check_in"


def test_the_same_name_inside_asks_is_it_the_same_person(client, manager, tables, clock):
    client.force_login(manager)
    client.post(reverse(URL), {"guest_name": "张三"})
    first = Visit.objects.get()
    page = client.post(reverse(URL), {"guest_name": "张三", "guest_phone": "139"})
    body = page.content.decode()
    assert "是同一人？" in body and first.get_absolute_url() in body
    assert 'name="same_name_confirmed"' in body and 'value="139"' in body  # kept
    assert Visit.objects.count() == 1
    # the desk ticks "not the same person" and sends again
    client.post(
        reverse(URL), {"guest_name": "张三", "guest_phone": "139", "same_name_confirmed": "on"}
    )
    assert Visit.objects.filter(guest_name="张三").count() == 2


def test_outside_the_hours_it_says_why_and_admits_with_a_reason(client, manager, tables, clock):
    clock.set(at(25, 10))  # Wednesday
    client.force_login(manager)
    body = client.post(reverse(URL), {"guest_name": "夜客"}).content.decode()
    assert "星期三是每周调休日" in body and 'name="admitted_reason"' in body
    assert not Visit.objects.exists()
    client.post(reverse(URL), {"guest_name": "夜客", "admitted_reason": "区象棋赛"})
    visit = Visit.objects.get()
    assert visit.admitted_reason == "区象棋赛" and visit.admitted_by == manager
    listing = client.get(reverse("members:visit_list")).content.decode()
    assert "特殊情况" in listing and "区象棋赛" in listing
