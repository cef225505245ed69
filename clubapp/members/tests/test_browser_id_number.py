"""The member page on a phone: the ID number masked, 显示完整号码 shows it once, recorded."""

from __future__ import annotations

import os

import pytest

from clubapp.members.models import IdNumberReveal
from clubapp.members.tests.factories import MemberFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_manager_shows_the_full_number_and_the_viewing_is_listed(
    page, live_server, log_in, room, manager
):
    person = MemberFactory(room=room, name="钱大伯", id_number="320102195006011232")
    log_in(page, manager)
    page.goto(f"{live_server.url}{person.get_absolute_url()}")
    number = page.locator(".facts .id-number")
    assert number.inner_text() == "3201**********1232"
    assert "暂无" in page.locator("section:has(h2:text('完整身份证号查看记录'))").inner_text()
    if shots := os.environ.get("SCREENSHOTS"):
        page.screenshot(path=f"{shots}/member_id_number_masked.png")

    page.click("button:has-text('显示完整号码')")
    page.wait_for_url("**/id-number/")
    assert number.inner_text() == "320102195006011232"
    viewings = page.locator("section:has(h2:text('完整身份证号查看记录')) li")
    assert viewings.count() == 1 and "王经理" in viewings.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if shots := os.environ.get("SCREENSHOTS"):
        page.screenshot(path=f"{shots}/member_id_number_shown.png", full_page=True)

    page.click("text=隐藏")
    page.wait_for_url(f"{live_server.url}{person.get_absolute_url()}")
    assert number.inner_text() == "3201**********1232"
    assert IdNumberReveal.objects.filter(member=person, by=manager).count() == 1
