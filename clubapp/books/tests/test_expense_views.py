"""The expense pages: booking against a plan line, the accountant's check, the list."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from clubapp.books.models import Expense, ExpenseConfirmation, PaidBy, Reversal
from clubapp.books.tests.factories import first_line

pytestmark = pytest.mark.django_db
NEW = reverse("books:expense_create")


def _flashed(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_form_offers_only_lines_that_take_an_expense(client, manager, books):
    client.force_login(manager)
    line = first_line(books["plan"])
    form = client.get(NEW, {"line": line.pk}).context["form"]
    offered = [value for value, _label in form.fields["line"].widget.choices if value]
    assert [int(str(v)) for v in offered] == [line.pk]
    assert str(form["line"].value()) == str(line.pk)


def test_the_manager_books_a_reimbursed_expense(client, manager, clock, books):
    client.force_login(manager)
    line = first_line(books["plan"])
    data = {
        "line": line.pk,
        "amount": "150.00",
        "supplier": "文体商店",
        "invoice_number": "No.7788",
        "purchased_on": "2026-11-04",
        "paid_by": "reimbursement",
        "reimbursed_to": "",
        "fund_negative_ok": "on",  # the fund is empty: test_fund_views.py
    }
    assert "请填写报销人姓名" in client.post(NEW, data).content.decode()
    response = client.post(NEW, {**data, "reimbursed_to": "王经理"})
    expense = Expense.objects.get(invoice_number="No.7788")
    assert response["Location"] == expense.get_absolute_url()
    assert (expense.amount, expense.paid_by, expense.reimbursed_to) == (
        Decimal("150.00"),
        PaidBy.REIMBURSEMENT,
        "王经理",
    )
    page = client.get(expense.get_absolute_url()).content.decode()
    assert all(
        s in page for s in ("个人垫付后报销", "王经理", "No.7788", "待会计确认", "余额 50.00")
    )


def test_the_accountant_confirms_from_the_expenses_page(client, accountant, books):
    client.force_login(accountant)
    expense = books["expense"]
    assert "已核对发票：确认" in client.get(expense.get_absolute_url()).content.decode()
    response = client.post(reverse("books:expense_confirm", args=[expense.pk]), follow=True)
    assert "已确认" in _flashed(response)
    assert ExpenseConfirmation.objects.get().confirmed_by == accountant
    response = client.post(reverse("books:expense_confirm", args=[expense.pk]), follow=True)
    assert "已确认，不能重复确认" in _flashed(response)


def test_the_manager_reverses_an_unconfirmed_expense(client, manager, books):
    client.force_login(manager)
    expense = books["expense"]
    url = reverse("books:expense_reverse", args=[expense.pk])
    asked = client.post(url, {"reason": "录错"})
    page = asked.content.decode()
    assert asked.status_code == 200 and Reversal.objects.count() == 0
    assert all(s in page for s in (expense.number, f"{expense.amount}", expense.line.item))
    response = client.post(url, {"reason": "录错", "confirm": "yes"}, follow=True)
    assert "已冲正" in _flashed(response)
    assert Reversal.objects.get().expense == expense
    again = client.post(url, {"reason": "录错", "confirm": "yes"}, follow=True)
    assert "已冲正" in _flashed(again) and Reversal.objects.count() == 1


def test_the_manager_cannot_reverse_a_confirmed_expense(client, manager, accountant, books):
    client.force_login(accountant)
    client.post(reverse("books:expense_confirm", args=[books["expense"].pk]))
    client.force_login(manager)
    page = client.get(books["expense"].get_absolute_url()).content.decode()
    assert "冲正，原因" not in page
    url = reverse("books:expense_reverse", args=[books["expense"].pk])
    assert client.post(url, {"reason": "录错"}).status_code == 403
    assert Reversal.objects.count() == 0


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ({"state": "booked"}, 1),
        ({"state": "confirmed"}, 0),
        ({"category": "mahjong"}, 1),
        ({"category": "cards"}, 0),
        ({"book_date_after": "2026-11-05"}, 0),
    ],
)
def test_the_list_filters(client, accountant, books, query, count):
    client.force_login(accountant)
    assert len(client.get(reverse("books:expense_list"), query).context["table"].rows) == count


def test_the_list_filters_by_person(client, accountant, manager, desk, books):
    client.force_login(accountant)
    url = reverse("books:expense_list")
    assert len(client.get(url, {"recorded_by": manager.pk}).context["table"].rows) == 1
    assert len(client.get(url, {"recorded_by": desk.pk}).context["table"].rows) == 0
