"""The day pages: the list of days, a day's summary, closing it; the month's page."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from clubapp.books import services
from clubapp.books.models import DayClosing
from clubapp.books.tests.factories import at, day, fee

pytestmark = pytest.mark.django_db


def _flashed(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_days_list_shows_each_day_with_its_totals(client, accountant, clock, books):
    client.force_login(accountant)
    response = client.get(reverse("books:day_list"))
    rows = response.context["rows"]
    assert [r.day for r in rows] == [day(4), day(3), day(2)]
    assert (rows[1].income, rows[1].handed_over) == (Decimal("500.00"), Decimal("50.00"))
    assert response.context["next_to_close"] == day(2)
    assert "未结账" in response.content.decode()


def test_the_day_page_shows_the_summary_and_its_entries(client, manager, clock, books):
    client.force_login(manager)
    response = client.get(reverse("books:day_detail", args=["2026-11-03"]))
    summary = response.context["summary"]
    assert (summary.cash_opening, summary.income_total, summary.handed_over) == (
        Decimal("50.00"),
        Decimal("500.00"),
        Decimal("50.00"),
    )
    page = response.content.decode()
    assert all(s in page for s in ("R2026-00001", "JK2026-0001", "捐赠", "期末库存现金"))
    assert "结账</button>" not in page  # no closing form: not the accountant


def test_the_accountant_closes_a_day_from_its_page(client, accountant, clock, books):
    client.force_login(accountant)
    url = reverse("books:day_detail", args=["2026-11-02"])
    assert "结账</button>" in client.get(url).content.decode()
    response = client.post(
        reverse("books:day_close", args=["2026-11-02"]), {"note": "已核对"}, follow=True
    )
    assert "2026-11-02 已结账。" in _flashed(response)
    assert DayClosing.objects.get().note == "已核对"
    assert "李会计" in response.content.decode()


def test_a_day_with_work_waiting_says_what_to_do_first(client, accountant, clock, books):
    client.force_login(accountant)
    services.day_close(room=books["card"].room, day=day(2), by=accountant, now=at(4))
    page = client.get(reverse("books:day_detail", args=["2026-11-03"])).content.decode()
    assert "请先确认或退回" in page and "JK2026-0001" in page


def test_a_bad_day_in_the_address_is_not_found(client, accountant):
    client.force_login(accountant)
    assert client.get(reverse("books:day_detail", args=["2026-13-40"])).status_code == 404
    assert client.post(reverse("books:day_close", args=["yesterday"])).status_code == 404


def test_the_month_page(client, approver, clock, books):
    client.force_login(approver)
    response = client.get(reverse("books:month_detail", args=[2026, 11]))
    month = response.context["summary"]
    assert (month.income_total, month.expense_total) == (Decimal("550.00"), Decimal("100.00"))
    page = response.content.decode()
    assert all(
        s in page for s in ("2026年11月收支账", "期初结余", "期末结余", "器材基金", "550.00")
    )
    assert client.get(reverse("books:month_current")).status_code == 302


def test_a_month_out_of_range_is_not_found(client, approver):
    client.force_login(approver)
    assert client.get(reverse("books:month_detail", args=[2026, 13])).status_code == 404


def test_a_late_entry_shows_on_the_day_it_was_booked(client, accountant, clock, room, manager):
    fee(room, manager, when=at(2))
    services.day_close(room=room, day=day(2), by=accountant, now=at(3))
    fee(room, manager, "6.00", when=at(2, 17))
    client.force_login(accountant)
    page = client.get(reverse("books:day_detail", args=["2026-11-03"])).content.decode()
    assert "补记 11-02" in page
