"""Issue 15 on a phone (headless Chromium, 390 px; fixtures: clubapp/conftest.py):
another phone's hand announced or refreshed, tile entry with a kong, English mode,
and the pages readable at 360 px."""

from __future__ import annotations

import pytest

from clubapp.play.models import Hand
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_page_follows_a_hand_booked_on_another_phone(page, live_server, log_in, manager):
    session = TableSessionFactory()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/{session.pk}/")
    assert "+28" not in page.inner_text(".seats")
    book(session, discard_win("S", "E"), by=manager)  # the other phone
    page.wait_for_selector(".seats .pts >> text=+28", timeout=20000)  # reloaded by itself


def test_a_phone_entering_a_hand_is_told_and_keeps_its_entry(page, live_server, log_in, manager):
    session = TableSessionFactory()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=W]")
    book(session, discard_win("S", "E"), by=manager)  # the other phone
    page.wait_for_selector("#tip:not([hidden])", timeout=20000)
    assert "第 1 把 南 小李 ← 东 老王 28" in page.inner_text("#tip")
    assert page.is_checked("input[name=winners][value=W]")  # nothing lost


def test_a_confirm_after_another_phone_asks_whether_it_is_the_same_hand(
    page, live_server, log_in, manager
):
    session = TableSessionFactory()
    log_in(page, manager)
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=S]")
    page.check("input[name=discarder][value=E]")
    page.fill("input[name=S-hard]", "4")
    page.click("button[name=preview]")
    book(session, discard_win("S", "E"), by=manager)  # the other phone, meanwhile
    page.click("button[name=confirm]")
    assert "第 1 把 南 小李 ← 东 老王 28" in page.inner_text("#booked")
    page.click("#booked >> text=是同一把：不再记")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    assert Hand.objects.count() == 1
