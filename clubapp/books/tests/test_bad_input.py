"""Bad input of the cash-book issue (item 10): each gets a clear Chinese message on the
page, and nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.books import services
from clubapp.books.models import (
    DayClosing,
    Expense,
    HandOverSlip,
    IncomeEntry,
    PlanDecision,
    PlanLine,
    PurchasePlan,
    SlipDecision,
)
from clubapp.books.tests.factories import at, day, fee, first_line, submitted

pytestmark = pytest.mark.django_db

INCOME = {
    "category": "tournament",
    "amount": "120.00",
    "payer": "象棋协会",
    "description": "象棋比赛报名费",
    "received_on": "2026-11-04",
    "received_time": "09:30",
}


def _page(response) -> str:
    return response.content.decode()


def _flashed(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def _expense(line, **extra):
    return {
        "line": line.pk,
        "amount": "100.00",
        "supplier": "文体商店",
        "invoice_number": "No.1",
        "purchased_on": "2026-11-04",
        "paid_by": "finance",
        **extra,
    }


def test_an_expense_without_an_approved_plan(client, manager, clock, room):
    plan = submitted(room, manager)
    client.force_login(manager)
    response = client.post(
        reverse("books:expense_create"), _expense(PlanLine.objects.get(submission__plan=plan))
    )
    assert "未经批准：支出只能按已批准的购置计划登记" in _page(response)
    assert Expense.objects.count() == 0


def test_an_expense_beyond_its_line(client, manager, clock, books):
    client.force_login(manager)
    line = first_line(books["plan"])  # 300.00 approved, 100.00 spent
    response = client.post(reverse("books:expense_create"), _expense(line, amount="200.01"))
    assert "余额 200.00 元。请编制补充计划" in _page(response)
    assert Expense.objects.count() == 1


def test_an_approval_by_the_drafter(client, boss, room):
    plan = submitted(room, boss)
    client.force_login(boss)
    response = client.post(
        reverse("books:plan_decide", args=[plan.pk]), {"outcome": "approved"}, follow=True
    )
    assert "这份计划是您编制的，须由其他负责人审批" in _flashed(response)
    assert PlanDecision.objects.count() == 0


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("0", "金额必须大于零"),
        ("-5", "金额必须大于零"),
        ("12.345", "金额最多两位小数"),
        ("五十", "请用数字填写金额"),
        ("12,50", "请用数字填写金额"),
    ],
)
def test_a_bad_amount_or_text_in_the_amount_box(client, manager, clock, room, amount, message):
    client.force_login(manager)
    response = client.post(reverse("books:income_create"), {**INCOME, "amount": amount})
    assert response.status_code == 200
    assert message in _page(response)
    assert IncomeEntry.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("lines-0-quantity", "两副", "请用数字填写数量"),
        ("lines-0-quantity", "0", "数量必须大于零"),
        ("lines-0-unit_price", "-1", "金额必须大于零"),
        ("lines-0-unit_price", "1.999", "金额最多两位小数"),
    ],
)
def test_bad_numbers_in_a_plan_line(client, manager, room, field, value, message):
    client.force_login(manager)
    data = {
        "title": "器材",
        "lines-TOTAL_FORMS": "1",
        "lines-INITIAL_FORMS": "0",
        "lines-0-category": "mahjong",
        "lines-0-item": "麻将牌",
        "lines-0-quantity": "2",
        "lines-0-unit": "副",
        "lines-0-unit_price": "150.00",
        field: value,
    }
    response = client.post(reverse("books:plan_create"), data)
    assert message in _page(response)
    assert PurchasePlan.objects.count() == 0


def test_text_in_the_expense_amount(client, manager, clock, books):
    client.force_login(manager)
    response = client.post(
        reverse("books:expense_create"), _expense(first_line(books["plan"]), amount="一百")
    )
    assert "请用数字填写金额" in _page(response)
    assert Expense.objects.count() == 1


def test_an_entry_on_a_closed_day(client, manager, accountant, clock, room):
    fee(room, manager, when=at(3))
    services.day_close(room=room, day=day(3), by=accountant, now=at(4))
    client.force_login(manager)
    response = client.post(reverse("books:income_create"), {**INCOME, "received_on": "2026-11-03"})
    assert "2026-11-03 已结账。请勾选“补记”：记入下一个未结账日 2026-11-04" in _page(response)
    assert IncomeEntry.objects.count() == 1


def test_a_receipt_handed_over_twice(client, manager, clock, books):
    client.force_login(manager)
    card = books["card"]  # already on the slip JK2026-0001
    response = client.post(reverse("books:slip_create"), {"receipts": [card.pk], "amount": "50.00"})
    assert "所选收据已不在前台" in _page(response)
    assert HandOverSlip.objects.count() == 1


def test_a_receipt_on_two_slips_at_once(client, manager, clock, room):
    """Two phones showing the same form: the second slip finds the receipt taken."""
    entry = fee(room, manager, when=at(3))
    client.force_login(manager)
    data = {"receipts": [entry.pk], "amount": "50.00"}
    assert client.post(reverse("books:slip_create"), data).status_code == 302
    response = client.post(reverse("books:slip_create"), data)
    assert "所选收据已不在前台" in _page(response)
    assert HandOverSlip.objects.count() == 1


def test_a_slip_confirmed_twice(client, accountant, books):
    client.force_login(accountant)
    url = reverse("books:slip_confirm", args=[books["slip"].pk])
    client.post(url)
    response = client.post(url, follow=True)
    assert "缴款单 JK2026-0001 已入账，不能重复确认" in _flashed(response)
    assert SlipDecision.objects.count() == 1


def test_a_day_closed_out_of_order(client, accountant, clock, books):
    client.force_login(accountant)
    response = client.post(reverse("books:day_close", args=["2026-11-04"]), follow=True)
    assert "请先结 2026-11-02 的账" in _flashed(response)
    assert DayClosing.objects.count() == 0
