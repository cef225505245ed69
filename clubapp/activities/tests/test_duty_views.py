"""The duty pages: today's panel and its buttons, the week's roster, the month, leave."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.activities.models import DutySign, Leave, LeaveDecision, LeaveReturn, RosterEntry
from clubapp.activities.services.duty import leave_decide, leave_request, roster_set
from clubapp.activities.tests.duty_cast import *  # noqa: F403 - the fixtures
from clubapp.activities.tests.duty_cast import at, day

pytestmark = pytest.mark.django_db


def test_the_today_page_offers_sign_on_then_sign_off(client, room, manager, clock):
    clock.set(at(30, 9, 10))
    client.force_login(manager)
    page = client.get(reverse("activities:duty")).content.decode()
    assert "签到上班" in page and "签退下班" not in page
    response = client.post(reverse("activities:duty_sign_on"), follow=True)
    page = response.content.decode()
    assert "09:10 已签到上班" in page and "迟到" in page and "签退下班" in page


def test_a_sign_on_twice_is_refused_with_a_message(client, room, manager, clock):
    client.force_login(manager)
    client.post(reverse("activities:duty_sign_on"))
    response = client.post(reverse("activities:duty_sign_on"), follow=True)
    assert "你今天已经签到上班了" in response.content.decode()
    assert DutySign.objects.count() == 1


def test_a_sign_off_first_is_refused(client, room, manager, clock):
    client.force_login(manager)
    response = client.post(reverse("activities:duty_sign_off"), follow=True)
    assert "请先签到上班" in response.content.decode()
    assert not DutySign.objects.exists()


def test_the_panel_sends_back_to_the_home_page(client, room, manager, clock):
    client.force_login(manager)
    response = client.post(reverse("activities:duty_sign_on"), {"next": "home"})
    assert response.url == reverse("home")


def test_a_manager_sets_the_weeks_roster(client, room, manager, desk, clock):
    client.force_login(manager)
    url = reverse("activities:duty_roster") + "?week=2026-11-30"
    page = client.get(url).content.decode()
    assert "day_2026-11-30" in page and "day_2026-12-02" not in page  # Wednesday: closed
    response = client.post(
        url, {"day_2026-11-30": [manager.pk, desk.pk], "day_2026-12-01": [desk.pk]}
    )
    assert response.status_code == 302
    assert RosterEntry.objects.filter(date=day(30)).count() == 2
    assert "小孙" in client.get(url).content.decode()


def test_the_month_page_shows_the_figures(client, room, manager, clock):
    client.force_login(manager)
    page = client.get(reverse("activities:duty_month") + "?month=2026-11").content.decode()
    assert "开放天数" in page and ">26<" in page and "无人值班" in page


def test_leave_ending_before_it_starts_is_refused_nothing_saved(client, room, manager, desk):
    client.force_login(manager)
    response = client.post(
        reverse("activities:leave_create"),
        {"starts": "2026-12-10", "ends": "2026-12-09", "reason": "事假", "cover": desk.pk},
    )
    assert "请假的结束日期不能早于开始日期" in response.content.decode()
    assert not Leave.objects.exists()


def test_overlapping_leave_is_refused(client, room, manager, desk):
    leave_request(room=room, starts=day(9), ends=day(10), reason="事假", cover=None, by=manager)
    client.force_login(manager)
    response = client.post(
        reverse("activities:leave_create"),
        {"starts": "2026-11-10", "ends": "2026-11-12", "reason": "病假"},
    )
    assert "重叠" in response.content.decode()
    assert Leave.objects.count() == 1


def test_leave_is_asked_decided_and_closed(client, room, manager, desk, approver):
    client.force_login(manager)
    response = client.post(
        reverse("activities:leave_create"),
        {"starts": "2026-11-09", "ends": "2026-11-10", "reason": "事假", "cover": desk.pk},
    )
    leave = Leave.objects.get()
    assert response.url == reverse("activities:leave_detail", args=[leave.pk])
    client.force_login(approver)
    detail = reverse("activities:leave_detail", args=[leave.pk])
    assert "审批" in client.get(detail).content.decode()
    client.post(reverse("activities:leave_decide", args=[leave.pk]), {"approved": "yes"})
    assert LeaveDecision.objects.get().approved is True
    again = client.post(
        reverse("activities:leave_decide", args=[leave.pk]), {"approved": "no"}, follow=True
    )
    assert "已经审批过了" in again.content.decode()
    client.force_login(manager)
    client.post(reverse("activities:leave_back", args=[leave.pk]), {"back_on": "2026-11-10"})
    assert LeaveReturn.objects.get().back_on == day(10)
    assert "已销假" in client.get(reverse("activities:leave_list")).content.decode()


def test_an_approver_cannot_decide_their_own_leave(client, room, boss, manager):
    leave = leave_request(room=room, starts=day(9), ends=day(9), reason="事假", cover=None, by=boss)
    client.force_login(boss)
    assert (
        "审批</button>"
        not in client.get(reverse("activities:leave_detail", args=[leave.pk])).content.decode()
    )
    response = client.post(
        reverse("activities:leave_decide", args=[leave.pk]), {"approved": "yes"}, follow=True
    )
    assert "不能审批自己的请假" in response.content.decode()
    assert not LeaveDecision.objects.exists()


def test_the_roster_shows_the_cover_of_approved_leave(client, room, manager, desk, approver):
    roster_set(room=room, days={day(30): [manager]}, by=manager)
    leave = leave_request(
        room=room, starts=day(30), ends=day(30), reason="病假", cover=desk, by=manager
    )
    leave_decide(leave=leave, approved=True, by=approver)
    client.force_login(approver)
    page = client.get(reverse("activities:duty_roster") + "?week=2026-11-30").content.decode()
    assert "小孙" in page and "替 王经理" in page and "王经理：请假" in page
