"""The plans' pages: the list, drafting, a plan's versions, submitting, deciding."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.activities.models import ActivityPlan, PlanVersion, VersionDecision, VersionState
from clubapp.activities.selectors import plans as selectors
from clubapp.activities.services import plans as services
from clubapp.activities.tests.plans_records import approved_plan, at, draft_plan, submitted_plan
from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(10, 15))


def _management(total: int = 3, prefix: str = "lines") -> dict[str, str]:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def _line(n: int, **values: str) -> dict[str, str]:
    line = {
        "date": "2026-12-05",
        "kind": "tournament",
        "title": "象棋月赛",
        "expected": "16",
        "budget": "120.00",
    }
    line.update(values)
    games = line.pop("games", "xiangqi")
    data = {f"lines-{n}-{k}": v for k, v in line.items()}
    if games:
        data[f"lines-{n}-games"] = games
    return data


def test_the_list_shows_each_plan_and_its_last_version(client, room, manager, approver):
    approved_plan(room, manager, approver)
    client.force_login(approver)
    body = client.get(reverse("activities:plan_list")).content.decode()
    assert "2026-12-01 – 2026-12-31" in body and "已批准" in body
    assert "制定活动计划" not in body  # only managers draft


def test_a_manager_drafts_a_plan(client, room, manager):
    client.force_login(manager)
    assert client.get(reverse("activities:plan_create")).status_code == 200
    data = {"period": "month", "starts": "2026-12", **_management(), **_line(0)}
    data.update(_line(1, date="2026-12-19", title="围棋辅导", kind="training", games="weiqi"))
    response = client.post(reverse("activities:plan_create"), data)
    plan = ActivityPlan.objects.get()
    assert response.url == reverse("activities:plan_detail", args=[plan.pk])
    drafts = plan.versions.get().drafts.order_by("position")
    assert [(d.title, d.games) for d in drafts] == [
        ("象棋月赛", ["xiangqi"]),
        ("围棋辅导", ["weiqi"]),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"date": "2027-01-03"}, "日期必须在计划期内"),
        ({"games": ""}, "请至少选择六种棋牌中的一种"),
        ({"budget": "-5"}, "预算不能为负数"),
    ],
    ids=["outside", "no_game", "negative"],
)
def test_a_bad_line_shows_why_and_saves_nothing(client, room, manager, line, message):
    client.force_login(manager)
    data = {"period": "month", "starts": "2026-12", **_management(), **_line(0, **line)}
    response = client.post(reverse("activities:plan_create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not ActivityPlan.objects.exists()


def test_a_second_plan_for_the_month_is_refused(client, room, manager):
    draft_plan(room, manager)
    client.force_login(manager)
    data = {"period": "month", "starts": "2026-12", **_management(), **_line(0)}
    response = client.post(reverse("activities:plan_create"), data)
    assert "已有计划" in response.content.decode()
    assert ActivityPlan.objects.count() == 1


def test_the_draft_is_edited_then_submitted(client, room, manager):
    plan = draft_plan(room, manager)
    version = plan.versions.get()
    client.force_login(manager)
    edit = reverse("activities:version_edit", args=[version.pk])
    assert "象棋月赛" in client.get(edit).content.decode()
    data = {**_management(), **_line(0, title="象棋快棋赛")}
    assert client.post(edit, data).status_code == 302
    assert version.drafts.get().title == "象棋快棋赛"
    client.post(reverse("activities:version_submit", args=[version.pk]))
    assert selectors.version_state(PlanVersion.objects.get()) == VersionState.SUBMITTED
    # submitted: the edit page sends back with the reason
    response = client.get(edit, follow=True)
    assert "已提交，不能再修改" in response.content.decode()


def test_the_detail_shows_the_lines_budget_and_versions(client, room, manager, approver):
    plan = approved_plan(room, manager, approver)
    services.version_new(plan=plan, reason="加一场辅导", by=manager)
    client.force_login(manager)
    url = reverse("activities:plan_detail", args=[plan.pk])
    body = client.get(url).content.decode()
    assert "加一场辅导" in body and "现行为版本 1" in body and "240.00" in body
    body = client.get(url + "?version=1").content.decode()
    assert "已批准" in body and "拟一个新版本" not in body  # a draft is open


def test_an_approver_decides_and_not_twice(client, room, manager, approver):
    plan = submitted_plan(room, manager)
    version = plan.versions.get()
    client.force_login(approver)
    detail = reverse("activities:plan_detail", args=[plan.pk])
    assert "保存审批" in client.get(detail).content.decode()
    url = reverse("activities:version_decide", args=[version.pk])
    client.post(url, {"outcome": "approve", "note": ""})
    assert VersionDecision.objects.get().approved
    response = client.post(url, {"outcome": "reject", "note": "x"}, follow=True)
    assert "已审批过" in response.content.decode()
    assert VersionDecision.objects.count() == 1


def test_ones_own_plan_is_not_decided(client, room):
    boss = UserFactory(username="boss", roles=[Role.MANAGER, Role.APPROVER])
    plan = submitted_plan(room, boss)
    client.force_login(boss)
    body = client.get(reverse("activities:plan_detail", args=[plan.pk])).content.decode()
    assert "保存审批" not in body
    url = reverse("activities:version_decide", args=[plan.versions.get().pk])
    response = client.post(url, {"outcome": "approve"}, follow=True)
    assert "须由其他负责人审批" in response.content.decode()
    assert not VersionDecision.objects.exists()


def test_a_new_version_needs_a_reason_and_opens_its_draft(client, room, manager, approver):
    plan = approved_plan(room, manager, approver)
    client.force_login(manager)
    url = reverse("activities:version_new", args=[plan.pk])
    assert client.get(url).status_code == 200
    assert "请说明计划为何修改" in client.post(url, {"reason": ""}).content.decode()
    response = client.post(url, {"reason": "改期"})
    v2 = PlanVersion.objects.get(number=2)
    assert response.url == reverse("activities:version_edit", args=[v2.pk])
    response = client.post(url, {"reason": "再改"}, follow=True)
    assert "已有一个版本" in response.content.decode()


def test_members_and_outsiders_see_no_plans(client, room, manager, member, outsider):
    plan = draft_plan(room, manager)
    for user in (member, outsider):
        client.force_login(user)
        assert client.get(reverse("activities:plan_list")).status_code == 403
        assert client.get(reverse("activities:plan_detail", args=[plan.pk])).status_code == 403
