"""The desk's close-out of a visit still open after closing, end to end (check-out view)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from clubapp.members.models import Receipt, Visit
from clubapp.members.tests.factories import at

pytestmark = pytest.mark.django_db


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_desk_closes_a_guest_left_open_with_the_time_he_left(client, manager, tables, clock):
    client.force_login(manager)
    clock.set(at(30, 16, 30))
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()

    # the next morning: not in today's present people, on the after-closing list
    clock.set(at(1, 9, 5, month=12))
    client.force_login(manager)  # a new day, a new session
    page = client.get(reverse("members:visit_list"))
    assert page.context["visits"] == []
    (row,) = page.context["past_closing"]
    body = page.content.decode()
    assert "闭馆后仍在场" in body and "1 小时 30 分" in body and "4.00元" in body
    assert "1291" not in body
    close = reverse("members:visit_check_out", args=[visit.pk])
    assert close in body

    # the close page proposes the closing time and the fee up to it
    page = client.get(close).content.decode()
    assert 'value="18:00"' in page and "已收现金4.00元" in page

    # the desk says he left at 18:40: recalculate, nothing is booked yet
    page = client.post(close, {"left_at": "18:40", "fee": "4.00", "recalculate": "1"})
    assert "已收现金6.00元" in page.content.decode() and 'value="18:40"' in page.content.decode()
    assert Visit.objects.get().is_open and not Receipt.objects.exists()

    response = client.post(close, {"left_at": "18:40", "fee": "6.00"}, follow=True)
    assert "6.00" in _messages(response) and "R2026-00001" in _messages(response)
    visit.refresh_from_db()
    assert visit.checked_out_at == at(30, 18, 40) and visit.fee == Decimal("6.00")
    assert visit.checked_out_recorded_at == at(1, 9, 5, month=12)
    assert response.context["past_closing"] == []


def test_confirming_without_a_time_closes_at_the_closing_time(client, manager, tables, clock):
    client.force_login(manager)
    clock.set(at(30, 17, 30))
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 20))
    client.post(reverse("members:visit_check_out", args=[visit.pk]), {"fee": "2.00"})
    visit.refresh_from_db()
    assert visit.checked_out_at == at(30, 18) and visit.fee == Decimal("2.00")


def test_a_changed_time_confirmed_without_recalculating_asks_again(client, manager, tables, clock):
    client.force_login(manager)
    clock.set(at(30, 16, 30))
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 20))
    close = reverse("members:visit_check_out", args=[visit.pk])
    response = client.post(close, {"left_at": "18:40", "fee": "4.00"})
    assert "费用已变为6.00元" in _messages(response)
    assert "已收现金6.00元" in response.content.decode()  # the fee for the time typed
    assert Visit.objects.get().is_open and not Receipt.objects.exists()


@pytest.mark.parametrize(
    ("left_at", "message"), [("15:00", "入场"), ("21:00", "现在"), ("25:99", "时:分")]
)
def test_a_time_that_cannot_be_is_refused(client, manager, tables, clock, left_at, message):
    client.force_login(manager)
    clock.set(at(30, 16, 30))
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 20))
    response = client.post(
        reverse("members:visit_check_out", args=[visit.pk]),
        {"left_at": left_at, "fee": "4.00"},
        follow=True,
    )
    assert message in _messages(response)
    assert Visit.objects.get().is_open and not Receipt.objects.exists()


def test_a_guest_who_left_in_the_minute_he_came_is_closed_at_his_check_in(
    client, manager, tables, clock
):
    """Times are typed to the minute: 17:45 for a check-in at 17:45:40 is that check-in,
    not "out before in"; the first hour is billed."""
    client.force_login(manager)
    came = at(30, 17, 45) + dt.timedelta(seconds=40)
    clock.set(came)
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    visit = Visit.objects.get()
    clock.set(at(30, 20))
    close = reverse("members:visit_check_out", args=[visit.pk])
    page = client.post(close, {"left_at": "17:45", "fee": "2.00", "recalculate": "1"})
    assert "已收现金2.00元" in page.content.decode()
    assert "离场时间" not in _messages(page)
    response = client.post(close, {"left_at": "17:45", "fee": "2.00"}, follow=True)
    assert "R2026-00001" in _messages(response)
    visit.refresh_from_db()
    assert visit.checked_out_at == came and visit.fee == Decimal("2.00")
    assert visit.hours_billed == 1


def test_a_time_before_the_check_in_minute_is_still_refused(client, manager, tables, clock):
    client.force_login(manager)
    clock.set(at(30, 17, 45) + dt.timedelta(seconds=40))
    client.post(reverse("members:visit_guest_check_in"), {"guest_name": "过路客"})
    clock.set(at(30, 20))
    response = client.post(
        reverse("members:visit_check_out", args=[Visit.objects.get().pk]),
        {"left_at": "17:44", "fee": "2.00"},
        follow=True,
    )
    assert "离场时间不能早于入场时间" in _messages(response)
    assert Visit.objects.get().is_open and not Receipt.objects.exists()
