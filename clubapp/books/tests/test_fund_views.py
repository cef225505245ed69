"""The equipment fund on the pages: the warning before an approval and an expense,
the box that confirms it, the front page's sentence, the room setting."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.books.models import Expense, IncomeCategory, PlanDecision
from clubapp.books.tests.factories import approved, at, fee, first_line, submitted
from clubapp.core.models import Room

pytestmark = pytest.mark.django_db


def _flashed(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


@pytest.fixture
def fund(room, manager):
    fee(room, manager, "30.00", category=IncomeCategory.GUEST_FEE, when=at(1, 9))
    return room


def test_the_plan_page_warns_the_approver_and_the_box_confirms(client, fund, manager, approver):
    plan = submitted(fund, manager)
    client.force_login(approver)
    page = client.get(plan.get_absolute_url())
    text = page.content.decode()
    assert all(s in text for s in ("300.00", "30.00", "-270.00", "勾选“基金为负”后批准"))
    assert page.context["decision_form"]["fund_negative_ok"].widget_type == "checkbox"
    url = reverse("books:plan_decide", args=[plan.pk])
    response = client.post(url, {"outcome": "approved"}, follow=True)
    assert "-270.00" in _flashed(response) and not PlanDecision.objects.exists()
    client.post(url, {"outcome": "approved", "fund_negative_ok": "on"})
    assert PlanDecision.objects.get().outcome == "approved"


def test_the_plan_page_says_an_approval_will_be_refused(client, fund, manager, approver):
    Room.objects.update(fund_may_go_negative=False)
    plan = submitted(fund, manager)
    client.force_login(approver)
    page = client.get(plan.get_absolute_url())
    assert "批准将被拒绝" in page.content.decode()
    assert page.context["decision_form"]["fund_negative_ok"].is_hidden
    url = reverse("books:plan_decide", args=[plan.pk])
    response = client.post(url, {"outcome": "approved", "fund_negative_ok": "on"}, follow=True)
    assert "不允许器材基金为负" in _flashed(response) and not PlanDecision.objects.exists()


def test_the_expense_form_warns_then_books_with_the_box(client, clock, fund, manager, approver):
    plan_line = first_line(approved(fund, manager, approver))
    client.force_login(manager)
    url = reverse("books:expense_create")
    data = {
        "line": plan_line.pk,
        "amount": "100.00",
        "supplier": "文体商店",
        "invoice_number": "No.9",
        "purchased_on": "2026-11-04",
        "paid_by": "finance",
    }
    asked = client.post(url, data)
    assert "-70.00" in asked.content.decode() and not Expense.objects.exists()
    assert asked.context["form"]["fund_negative_ok"].widget_type == "checkbox"
    response = client.post(url, {**data, "fund_negative_ok": "on"})
    assert response["Location"] == Expense.objects.get().get_absolute_url()


def test_the_front_page_explains_the_fund(client, accountant, room):
    client.force_login(accountant)
    text = client.get(reverse("books:home")).content.decode()
    assert "器材基金来自非会员的器材损耗费" in text
    Room.objects.update(fund_may_go_negative=False)
    assert "本活动室不允许器材基金为负" in client.get(reverse("books:home")).content.decode()


SETTINGS = {
    "card_fee": "50.00",
    "renewal_fee": "0.00",
    "guest_hourly_fee": "2.00",
    "notice": "",
    "renewal_window_days": "30",
}


def test_the_room_setting_says_whether_the_fund_may_go_negative(client, manager, room):
    client.force_login(manager)
    url = reverse("members:room_settings")
    assert client.get(url).context["form"]["fund_may_go_negative"].value() == "yes"
    client.post(url, {**SETTINGS, "fund_may_go_negative": "no"})
    assert Room.objects.get().fund_may_go_negative is False
    client.post(url, SETTINGS)  # left empty: kept
    assert Room.objects.get().fund_may_go_negative is False
    client.post(url, {**SETTINGS, "fund_may_go_negative": "yes"})
    assert Room.objects.get().fund_may_go_negative is True
