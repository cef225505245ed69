"""The desk page (members' visit list) shows the cash on hand and the oldest receipt not
handed over, late past the room's hand-over limit."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.books.tests.factories import at, fee

pytestmark = pytest.mark.django_db
URL = reverse("members:visit_list")


def test_the_desk_shows_the_cash_on_hand_and_the_oldest_receipt(client, manager, clock, room):
    first = fee(room, manager, "50.00", when=at(1, 10))
    fee(room, manager, "6.00", when=at(3, 10))
    client.force_login(manager)
    response = client.get(URL)
    desk = response.context["desk_cash"]
    assert (str(desk.cash_on_hand), desk.oldest, desk.late) == ("56.00", first, False)
    page = response.content.decode()
    assert '库存现金: <span class="amount">56.00 元' in page
    assert first.reference in page and "3 天前" in page and "逾期" not in page


def test_a_receipt_past_the_limit_is_flagged_late(client, manager, clock, room):
    fee(room, manager, "50.00", when=at(1, 10))
    clock.set(at(9, 10))
    client.force_login(manager)
    page = client.get(URL).content.decode()
    assert "逾期" in page and "1 张收据超过缴款期限 7 天" in page


def test_the_limit_is_the_rooms_setting(client, manager, clock, room):
    fee(room, manager, "50.00", when=at(2, 10))
    room.handover_limit_days = 1
    room.save()
    client.force_login(manager)
    assert "超过缴款期限 1 天" in client.get(URL).content.decode()


def test_an_empty_drawer(client, accountant, clock, room):
    client.force_login(accountant)
    page = client.get(URL).content.decode()
    assert "收到的现金已全部缴款" in page
    assert "books/slips/new/" not in page  # the accountant does not hand over
