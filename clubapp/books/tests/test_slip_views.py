"""The hand-over pages: a slip from the receipts at the desk, its page, the accountant's
answer, the list and its filters."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.books.models import HandOverSlip, Reversal, SlipDecision
from clubapp.books.tests.factories import at, fee

pytestmark = pytest.mark.django_db
NEW = reverse("books:slip_create")


def _flashed(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_form_offers_the_receipts_at_the_desk_all_ticked(client, manager, clock, books, room):
    guest = fee(room, manager, "6.00", when=at(4, 9))
    client.force_login(manager)
    form = client.get(NEW).context["form"]
    offered = list(form.fields["receipts"].queryset)
    assert offered == [books["donation"], guest]  # the card fee is on a slip already
    assert form["receipts"].value() == [e.pk for e in offered]


def test_the_manager_hands_over_and_prints_the_slip(client, manager, clock, books):
    client.force_login(manager)
    donation = books["donation"]
    response = client.post(NEW, {"receipts": [donation.pk], "amount": "500.00", "note": "现金"})
    slip = HandOverSlip.objects.get(number="JK2026-0002")
    assert response["Location"] == slip.get_absolute_url()
    page = client.get(slip.get_absolute_url()).content.decode()
    assert all(s in page for s in (donation.reference, "500.00", "王经理", "待会计确认", "现金"))


def test_the_accountant_confirms_from_the_slips_page(client, accountant, books):
    client.force_login(accountant)
    slip = books["slip"]
    assert "确认入账" in client.get(slip.get_absolute_url()).content.decode()
    response = client.post(reverse("books:slip_confirm", args=[slip.pk]), follow=True)
    assert "已入账" in _flashed(response)
    assert SlipDecision.objects.get().outcome == "confirmed"
    assert "李会计" in response.content.decode()


def test_the_accountant_sends_a_slip_back_with_a_reason(client, accountant, books):
    client.force_login(accountant)
    url = reverse("books:slip_return", args=[books["slip"].pk])
    response = client.post(url, {"reason": ""}, follow=True)
    assert "退回缴款单须写明原因" in _flashed(response)
    response = client.post(url, {"reason": "少10元"}, follow=True)
    assert "已退回" in _flashed(response)
    assert SlipDecision.objects.get().reason == "少10元"


def test_the_accountant_reverses_a_confirmed_slip(client, accountant, books):
    client.force_login(accountant)
    slip = books["slip"]
    client.post(reverse("books:slip_confirm", args=[slip.pk]))
    url = reverse("books:slip_reverse", args=[slip.pk])
    # the slip page's button asks first: what is reversed, its amount, what follows
    asked = client.post(url, {"reason": "误确认"})
    page = asked.content.decode()
    assert asked.status_code == 200 and Reversal.objects.count() == 0
    assert all(s in page for s in (slip.number, "50.00", "回到前台", 'value="误确认"'))
    response = client.post(url, {"reason": "误确认", "confirm": "yes"}, follow=True)
    assert "已冲正" in _flashed(response)
    assert Reversal.objects.get().slip == slip


def test_a_slip_reversal_confirmed_without_a_reason_asks_again(client, accountant, books):
    client.force_login(accountant)
    slip = books["slip"]
    client.post(reverse("books:slip_confirm", args=[slip.pk]))
    url = reverse("books:slip_reverse", args=[slip.pk])
    response = client.post(url, {"reason": " ", "confirm": "yes"})
    assert response.status_code == 200 and response.context["form"].errors["reason"]
    assert Reversal.objects.count() == 0
    assert client.get(url).status_code == 200  # a link to the same page asks too


def test_the_manager_sees_no_check_buttons(client, manager, books):
    client.force_login(manager)
    assert "确认入账" not in client.get(books["slip"].get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ({"state": "pending"}, 1),
        ({"state": "confirmed"}, 0),
        ({"book_date_after": "2026-11-04"}, 0),
        ({"book_date_after": "2026-11-03", "book_date_before": "2026-11-03"}, 1),
    ],
)
def test_the_list_filters(client, accountant, books, query, count):
    client.force_login(accountant)
    assert len(client.get(reverse("books:slip_list"), query).context["table"].rows) == count


def test_the_list_filters_by_person(client, accountant, desk, books):
    client.force_login(accountant)
    rows = client.get(reverse("books:slip_list"), {"handed_over_by": desk.pk}).context["table"].rows
    assert len(rows) == 0


def test_the_slip_form_sent_twice_writes_one_slip(client, manager, clock, books):
    client.force_login(manager)
    key = client.get(NEW).context["form"]["request_key"].value()
    data = {"receipts": [books["donation"].pk], "amount": "500.00", "request_key": str(key)}
    first = client.post(NEW, data)
    again = client.post(NEW, data)
    slip = HandOverSlip.objects.get(request_key=key)
    assert first["Location"] == again["Location"] == slip.get_absolute_url()
    assert HandOverSlip.objects.count() == 2  # the books fixture's slip and this one


def test_a_slip_still_waiting_is_not_offered_for_reversal(client, accountant, books):
    client.force_login(accountant)
    slip = books["slip"]
    response = client.get(reverse("books:slip_reverse", args=[slip.pk]), follow=True)
    assert "尚未入账：请直接退回" in _flashed(response)
    assert Reversal.objects.count() == 0
