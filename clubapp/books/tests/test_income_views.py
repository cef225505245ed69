"""The income pages: the list and its filters, other income with its receipt, reversing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from clubapp.books import services
from clubapp.books.models import IncomeCategory, IncomeEntry, Reversal
from clubapp.books.tests.factories import at, day, fee, other_income

pytestmark = pytest.mark.django_db
LIST = reverse("books:income_list")
NEW = reverse("books:income_create")


def _refs(response):
    return [row.record.reference for row in response.context["table"].rows]


def test_the_list_shows_every_entry_with_its_state(client, accountant, books):
    client.force_login(accountant)
    response = client.get(LIST)
    body = response.content.decode()
    assert _refs(response) == [books["donation"].reference, books["card"].reference]
    assert "已填缴款单，待确认" in body and "未缴款" in body


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"category": "donation"}, ["donation"]),
        ({"state": "at_desk"}, ["donation"]),
        ({"state": "on_slip"}, ["card"]),
        ({"book_date_after": "2026-11-03", "book_date_before": "2026-11-03"}, ["donation"]),
        ({"book_date_before": "2026-11-02"}, ["card"]),
    ],
)
def test_the_list_filters(client, manager, books, query, expected):
    client.force_login(manager)
    assert _refs(client.get(LIST, query)) == [books[k].reference for k in expected]


def test_the_list_filters_by_person_and_late_entries(client, manager, desk, accountant, room):
    client.force_login(manager)
    mine = fee(room, manager, when=at(1))
    services.day_close(room=room, day=day(1), by=accountant, now=at(2))
    theirs = other_income(room, desk, received_at=at(1, 15), now=at(2), late=True)
    assert _refs(client.get(LIST, {"recorded_by": desk.pk})) == [theirs.reference]
    assert _refs(client.get(LIST, {"late": "yes"})) == [theirs.reference]
    assert _refs(client.get(LIST, {"late": "no"})) == [mine.reference]
    body = client.get(LIST).content.decode()
    assert "补记 11-01" in body


def test_the_manager_records_other_income_and_gets_its_receipt(client, manager, clock, room):
    client.force_login(manager)
    form = client.get(NEW).context["form"]
    key = form["request_key"].value()
    data = {
        "category": "donation",
        "amount": "500.00",
        "payer": "玄武区老年协会",
        "description": "捐赠",
        "received_on": "2026-11-04",
        "received_time": "09:30",
        "request_key": str(key),
    }
    response = client.post(NEW, data)
    entry = IncomeEntry.objects.get()
    assert response["Location"] == entry.get_absolute_url()
    assert (entry.category, entry.amount, entry.received_at) == (
        IncomeCategory.DONATION,
        Decimal("500.00"),
        at(4, 9, 30),
    )
    client.post(NEW, data)  # the same form again: booked once
    assert IncomeEntry.objects.count() == 1
    page = client.get(entry.get_absolute_url()).content.decode()
    assert all(s in page for s in ("R2026-00001", "捐赠", "玄武区老年协会", "500.00", "王经理"))


def test_the_late_entry_box_books_on_the_next_open_day(client, manager, accountant, clock, room):
    fee(room, manager, when=at(3))
    services.day_close(room=room, day=day(3), by=accountant, now=at(4))
    client.force_login(manager)
    client.post(
        NEW,
        {
            "category": "other",
            "amount": "30.00",
            "payer": "回收站",
            "description": "旧桌布",
            "received_on": "2026-11-03",
            "received_time": "16:00",
            "late": "on",
        },
    )
    entry = IncomeEntry.objects.get(category="other")
    assert (entry.book_date, entry.late_for) == (day(4), day(3))
    page = client.get(entry.get_absolute_url()).content.decode()
    assert "补记" in page and "属于 2026-11-03" in page


def test_the_accountant_reverses_an_entry_from_its_page(client, accountant, books):
    client.force_login(accountant)
    entry = books["donation"]
    assert "冲正这笔收入" in client.get(entry.get_absolute_url()).content.decode()
    response = client.post(
        reverse("books:income_reverse", args=[entry.pk]), {"reason": "重复登记"}, follow=True
    )
    assert "已冲正（CZ2026-0001）" in " ".join(str(m) for m in response.context["messages"])
    assert Reversal.objects.get().income == entry
    assert "重复登记" in response.content.decode()


def test_a_reversal_without_a_reason_is_refused(client, accountant, books):
    client.force_login(accountant)
    url = reverse("books:income_reverse", args=[books["donation"].pk])
    response = client.post(url, {"reason": ""}, follow=True)
    assert "冲正须写明原因" in " ".join(str(m) for m in response.context["messages"])
    assert Reversal.objects.count() == 0


def test_the_manager_sees_no_reverse_button(client, manager, books):
    client.force_login(manager)
    assert "冲正这笔收入" not in client.get(books["donation"].get_absolute_url()).content.decode()
