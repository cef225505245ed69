"""The cash book's front page: the cash, what waits for whom, the actions a role has."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
URL = reverse("books:home")


def test_the_manager_sees_the_cash_and_the_actions(client, manager, clock, books):
    client.force_login(manager)
    page = client.get(URL).content.decode()
    assert all(
        s in page for s in ("库存现金", "500.00", "登记其他收入", "编制购置计划", "器材基金")
    )


def test_the_accountant_sees_what_waits_for_her(client, accountant, clock, books):
    client.force_login(accountant)
    response = client.get(URL)
    page = response.content.decode()
    assert "待会计确认" in page and "JK2026-0001" in page and "ZC2026-0001" in page
    assert response.context["next_to_close"].isoformat() == "2026-11-02"
    assert "登记其他收入" not in page


def test_the_approver_sees_the_plans_to_decide(client, approver, clock, books):
    client.force_login(approver)
    response = client.get(URL)
    assert list(response.context["plans_to_decide"]) == [books["waiting"]]
    assert "待审批" in response.content.decode()
