"""The overview: the month's calendar of planned and held activities, for every role.
Members see titles, dates, games and how many came, their own part, no budget and no
other member's name."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.activities.services import plans as services
from clubapp.activities.tests.plans_records import (
    a_record,
    activity,
    approved_plan,
    at,
    draft_plan,
    visit_again,
    visitor,
)
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(10, 15))


@pytest.fixture
def december(room, manager, approver, member):
    plan = approved_plan(
        room, manager, approver, activity(5), activity(19, title="围棋辅导", games=("weiqi",))
    )
    me = MemberFactory(room=room, name="赵会员", user=member)
    visit_again(me, manager, at(5, 13))
    other = visitor(room, manager, at(5, 14), "钱大伯")
    a_record(room, manager, attendees=[me, other], others=3)
    return plan


def test_a_member_sees_what_is_planned_and_held_and_their_part(client, december, member):
    client.force_login(member)
    body = client.get(reverse("activities:home")).content.decode()
    assert "12-05" in body and "12-19" in body and "围棋辅导" in body and "围棋" in body
    assert "5 人" in body and "您参加了" in body
    assert "钱大伯" not in body and "120.00" not in body  # no names, no budgets
    assert reverse("activities:plan_list") not in body  # no links to the staff's pages


def test_the_staff_get_links_to_plans_and_records(client, december, approver):
    client.force_login(approver)
    body = client.get(reverse("activities:home")).content.decode()
    assert reverse("activities:plan_detail", args=[december.pk]) in body
    assert "/activities/records/" in body and "您参加了" not in body


def test_a_draft_or_waiting_version_is_not_on_the_calendar(client, room, manager, member):
    plan = draft_plan(room, manager, activity(7, title="未批准的活动"))
    client.force_login(member)
    assert "未批准的活动" not in client.get(reverse("activities:home")).content.decode()
    services.version_submit(version=plan.versions.get(), by=manager)
    assert "未批准的活动" not in client.get(reverse("activities:home")).content.decode()


def test_other_months_are_a_link_away(client, december, member):
    client.force_login(member)
    body = client.get(reverse("activities:home") + "?month=2027-01").content.decode()
    assert "2027-01" in body and "本月没有计划或举行的活动" in body
    assert "?month=2026-12" in body
    assert client.get(reverse("activities:home") + "?month=junk").status_code == 200
