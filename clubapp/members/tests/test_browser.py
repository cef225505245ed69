"""The desk on a phone: headless Debian Chromium, as in core's browser test."""

from __future__ import annotations

import io

import pytest

from clubapp.core.tests.factories import PASSWORD
from clubapp.members.services import card_issue, member_create
from clubapp.members.tests.factories import image_bytes, make_id_number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_desk_checks_a_member_in_on_a_phone(page, live_server, room, manager, clock, tables):
    person = member_create(
        room=room,
        name="赵会员",
        phone="13800000001",
        id_number=make_id_number(51),
        photo=io.BytesIO(image_bytes()),
        by=manager,
    )
    card = card_issue(member=person, by=manager)

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "manager")
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{live_server.url}/")

    page.click("text=前台")
    page.wait_for_url(f"{live_server.url}/members/visits/")
    assert page.locator("h1").inner_text() == "今日来访"
    assert "3 张空闲牌桌" in page.content()
    assert _fits_the_phone(page)

    page.fill("#id_card", card.number)
    page.click("text=查询会员证")
    page.wait_for_url(f"{live_server.url}/members/visits/check-in/?card={card.number}")
    photo = page.locator(".member-card img.photo")
    # decode() waits until the photo has arrived (from a permission-checked view).
    assert photo.evaluate("img => img.decode().then(() => img.naturalWidth)") == 413
    assert "请勿吸烟" in page.locator(".notice").inner_text()
    page.click("button:has-text('入场登记')")
    page.wait_for_url(f"{live_server.url}/members/visits/")
    assert "赵会员 已入场。" in page.locator(".messages").inner_text()
    assert _fits_the_phone(page)

    page.click("nav.subnav >> text=会员")
    page.wait_for_url(f"{live_server.url}/members/")
    assert "赵会员" in page.locator("table.grid").inner_text()
    assert person.id_number not in page.content()
    assert _fits_the_phone(page)
