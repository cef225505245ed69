"""The plan pages: drafting with lines, submitting, the approver's decision, copying,
supplementing, completing; the fund's balance beside the plan's total."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from clubapp.books import selectors
from clubapp.books.models import IncomeCategory, PlanState, PurchasePlan
from clubapp.books.tests.factories import at, fee

pytestmark = pytest.mark.django_db
NEW = reverse("books:plan_create")


def _flashed(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def _data(**lines):
    data = {
        "title": "十二月器材",
        "purpose": "更换",
        "lines-TOTAL_FORMS": "3",
        "lines-INITIAL_FORMS": "0",
        "lines-0-category": "mahjong",
        "lines-0-item": "麻将牌",
        "lines-0-quantity": "2",
        "lines-0-unit": "副",
        "lines-0-unit_price": "150.00",
        "lines-0-reason": "旧牌缺损",
        "lines-1-category": "consumables",
        "lines-1-item": "纯净水",
        "lines-1-quantity": "10",
        "lines-1-unit": "桶",
        "lines-1-unit_price": "18.00",
        "lines-2-category": "chess",  # an empty row: left out
    }
    data.update(lines)
    return data


def _state(plan):
    return selectors.plan_state(plan=plan)


def test_the_manager_drafts_a_plan_with_lines(client, manager, room):
    client.force_login(manager)
    assert len(client.get(NEW).context["formset"].forms) == 2
    response = client.post(NEW, _data())
    plan = PurchasePlan.objects.get()
    assert response["Location"] == plan.get_absolute_url()
    assert [(d.item, d.quantity) for d in plan.draft_lines.order_by("position")] == [
        ("麻将牌", Decimal("2.00")),
        ("纯净水", Decimal("10.00")),
    ]
    page = client.get(plan.get_absolute_url()).content.decode()
    assert all(s in page for s in ("JH2026-0001", "草稿", "480.00", "提交审批", "修改"))
    listed = client.get(reverse("books:plan_list")).content.decode()
    assert "480.00" in listed  # a draft's estimated total, before it has a submission


def test_the_draft_is_edited_then_submitted(client, manager, room):
    client.force_login(manager)
    client.post(NEW, _data())
    plan = PurchasePlan.objects.get()
    edit = reverse("books:plan_edit", args=[plan.pk])
    assert client.get(edit).context["formset"].forms[0]["item"].value() == "麻将牌"
    client.post(
        edit,
        _data(
            **{
                "lines-1-item": "",
                "lines-1-quantity": "",
                "lines-1-unit": "",
                "lines-1-unit_price": "",
                "lines-1-category": "chess",
            }
        ),
    )
    assert plan.draft_lines.count() == 1
    response = client.post(reverse("books:plan_submit", args=[plan.pk]), follow=True)
    assert "已提交：合计 300.00 元，待审批" in _flashed(response)
    assert _state(plan) == PlanState.SUBMITTED
    response = client.get(edit, follow=True)
    assert "已提交，不能再修改" in _flashed(response)


def test_the_approver_decides_on_the_plans_page(client, approver, books):
    client.force_login(approver)
    plan = books["waiting"]
    page = client.get(plan.get_absolute_url()).content.decode()
    assert "保存审批意见" in page
    response = client.post(
        reverse("books:plan_decide", args=[plan.pk]),
        {"outcome": "rejected", "comment": ""},
        follow=True,
    )
    assert "驳回须写明意见" in _flashed(response)
    response = client.post(
        reverse("books:plan_decide", args=[plan.pk]),
        {"outcome": "rejected", "comment": "先询价三家"},
        follow=True,
    )
    assert "已驳回" in _flashed(response)
    assert "先询价三家" in response.content.decode() and "张负责人" in response.content.decode()


def test_a_decision_without_a_choice_is_refused(client, approver, books):
    client.force_login(approver)
    response = client.post(reverse("books:plan_decide", args=[books["waiting"].pk]), follow=True)
    assert "请选择批准或驳回" in _flashed(response)
    assert _state(books["waiting"]) == PlanState.SUBMITTED


def test_the_drafter_sees_no_decision_form(client, boss, room):
    client.force_login(boss)
    client.post(NEW, _data())
    plan = PurchasePlan.objects.get()
    client.post(reverse("books:plan_submit", args=[plan.pk]))
    page = client.get(plan.get_absolute_url()).content.decode()
    assert "保存审批意见" not in page and "等待非编制人的负责人审批" in page


def test_a_rejected_plan_is_copied_into_a_new_draft(client, manager, books):
    client.force_login(manager)
    response = client.post(reverse("books:plan_copy", args=[books["rejected"].pk]))
    copy = PurchasePlan.objects.get(copied_from=books["rejected"])
    assert response["Location"] == copy.get_absolute_url()
    assert _state(copy) == PlanState.DRAFT
    page = client.get(books["rejected"].get_absolute_url()).content.decode()
    assert f'已复制为 <a href="{copy.get_absolute_url()}">{copy.number}</a>' in page


def test_copying_an_approved_plan_is_refused(client, manager, books):
    client.force_login(manager)
    response = client.post(reverse("books:plan_copy", args=[books["plan"].pk]), follow=True)
    assert "只有被驳回的计划可以复制" in _flashed(response)


def test_a_supplementary_plan_opens_as_a_draft_to_fill(client, manager, books):
    client.force_login(manager)
    response = client.post(reverse("books:plan_supplement", args=[books["plan"].pk]))
    supplement = PurchasePlan.objects.get(supplement_for=books["plan"])
    assert response["Location"] == reverse("books:plan_edit", args=[supplement.pk])
    assert "补充计划" in client.get(books["plan"].get_absolute_url()).content.decode()


def test_a_plan_is_marked_done(client, manager, books):
    client.force_login(manager)
    response = client.post(
        reverse("books:plan_complete", args=[books["plan"].pk]), {"note": "已购齐"}, follow=True
    )
    assert "已完成" in _flashed(response)
    assert "已购齐" in response.content.decode()
    assert _state(books["plan"]) == PlanState.DONE


def test_the_plan_page_shows_lines_spent_and_the_fund_beside_the_total(
    client, accountant, books, room, manager
):
    fee(room, manager, "8.00", when=at(2), category=IncomeCategory.GUEST_FEE)
    client.force_login(accountant)
    response = client.get(books["plan"].get_absolute_url())
    assert response.context["total"] == Decimal("300.00")
    assert response.context["fund_part"] == Decimal("300.00")
    assert response.context["fund"].closing == Decimal("-92.00")  # 8.00 in, 100.00 spent
    page = response.content.decode()
    assert all(
        s in page for s in ("计划合计", "器材基金余额", "-92.00", "已支出 100.00", "余额 200.00")
    )
    assert "差额由单位经费支付" in page


def test_the_history_shows_who_did_what_and_when(client, accountant, books):
    client.force_login(accountant)
    page = client.get(books["plan"].get_absolute_url()).content.decode()
    for text in (
        "2026-11-01 10:00 · 编制人 王经理",
        "提交人 王经理",
        "已批准 · 张负责人",
        "ZC2026-0001",
    ):
        assert text in page


@pytest.mark.parametrize(
    ("query", "keys"),
    [
        ({"state": "approved"}, []),
        ({"state": "in_progress"}, ["plan"]),
        ({"state": "submitted"}, ["waiting"]),
        ({"state": "rejected"}, ["rejected"]),
        ({"state": "draft"}, ["draft"]),
        ({"category": "consumables"}, []),
    ],
)
def test_the_list_filters(client, manager, books, query, keys):
    client.force_login(manager)
    rows = client.get(reverse("books:plan_list"), query).context["table"].rows
    assert sorted(r.record.pk for r in rows) == sorted(books[k].pk for k in keys)


def test_the_list_filters_by_category_person_and_date(client, manager, desk, books):
    client.force_login(manager)
    url = reverse("books:plan_list")
    assert len(client.get(url, {"category": "mahjong"}).context["table"].rows) == 4
    assert len(client.get(url, {"drafted_by": desk.pk}).context["table"].rows) == 0
    assert len(client.get(url, {"created_after": "2026-11-02"}).context["table"].rows) == 0
    assert len(client.get(url, {"created_before": "2026-11-01"}).context["table"].rows) == 4
