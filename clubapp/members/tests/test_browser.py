"""The desk on a phone: headless Debian Chromium, as in core's browser test."""

from __future__ import annotations

import io

import pytest

from clubapp.core.tests.factories import PASSWORD
from clubapp.members.services import card_issue, member_create
from clubapp.members.tests.factories import image_bytes, make_id_number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits_the_phone(page) -> bool:
    """Neither the page nor a scrolling box in it (the member table's) scrolls sideways."""
    return page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth && "
        "[...document.querySelectorAll('.scroll')].every(e => e.scrollWidth <= e.clientWidth)"
    )


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

    page.click("label.menu-button")  # the menu folds behind ☰ on a phone
    page.click("nav.nav >> text=前台")
    page.wait_for_url(f"{live_server.url}/members/visits/")
    assert page.locator("h1").inner_text() == "今日来访"
    assert "3 张空闲牌桌" in page.content()
    assert _fits_the_phone(page)

    # What a scanner reading the card's QR code types: the number, then Enter.
    page.fill("#id_q", card.number)
    page.press("#id_q", "Enter")
    page.wait_for_url(f"{live_server.url}/members/visits/check-in/")
    photo = page.locator(".member-card img.photo")
    # decode() waits until the photo has arrived (from a permission-checked view).
    assert photo.evaluate("img => img.decode().then(() => img.naturalWidth)") == 413
    assert "请勿吸烟" in page.locator(".notice").inner_text()
    page.click("button:has-text('赵会员入场')")
    page.wait_for_url(f"{live_server.url}/members/visits/")
    assert "赵会员 已入场。" in page.locator(".messages").inner_text()
    assert _fits_the_phone(page)

    page.click("nav.subnav >> text=会员")
    page.wait_for_url(f"{live_server.url}/members/")
    assert "赵会员" in page.locator("table.grid").inner_text()
    assert person.id_number not in page.content()
    assert _fits_the_phone(page)


def test_the_desk_checks_a_non_member_out_with_the_fee_on_a_phone(
    page, live_server, log_in, room, manager, clock, tables
):
    from clubapp.members.models import Visit
    from clubapp.members.services import visit_check_in
    from clubapp.members.tests.factories import at

    visit_check_in(room=room, guest_name="过路客", by=manager)
    clock.set(at(30, 11, 30))  # 90 minutes: two started hours, 4.00 yuan
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, manager)
    page.goto(f"{live_server.url}/members/visits/")
    row = page.locator("li.visit.open")
    assert "已在场 1 小时 30 分" in row.inner_text() and "目前4.00元" in row.inner_text()
    assert _fits_the_phone(page)
    page.screenshot(path=_shot("desk-360"), full_page=True)
    row.locator("text=离场").click()
    page.wait_for_url(f"{live_server.url}/members/visits/{Visit.objects.get().pk}/check-out/")
    assert "4.00" in page.locator("dd.fee").inner_text()
    assert _fits_the_phone(page)
    page.screenshot(path=_shot("checkout-360"), full_page=True)
    assert Visit.objects.get().is_open  # nothing happened by looking
    page.click("button:has-text('已收现金4.00元')")
    page.wait_for_url(f"{live_server.url}/members/visits/")
    assert "4.00" in page.locator(".messages").inner_text()
    assert "R2026-00001" in page.locator(".messages").inner_text()
    visit = Visit.objects.get()
    assert not visit.is_open and str(visit.fee) == "4.00"


def _shot(name: str) -> str:
    """Screenshots for a person to look at (docs/members.md); not compared by the test."""
    import os
    import tempfile

    folder = os.environ.get("SCREENSHOT_DIR") or tempfile.gettempdir()
    return os.path.join(folder, f"members-{name}.png")


def test_the_members_pages_fit_a_phone(page, live_server, log_in, room, manager, clock, tables):

    import datetime as dt

    from clubapp.members.services import member_account_create
    from clubapp.members.tests.factories import CardFactory

    person = member_create(
        room=room,
        name="欧阳晓明",
        phone="13800000001",
        id_number=make_id_number(61),
        photo=io.BytesIO(image_bytes()),
        by=manager,
    )
    card = card_issue(member=person, by=manager)
    member_account_create(member=person, username="ouyang.xiaoming", by=manager)
    expired = CardFactory(
        member=member_create(
            room=room, name="孙阿姨", phone="13700000000", id_number=make_id_number(62), by=manager
        ),
        number="2025-0003",
        issued_on=dt.date(2025, 1, 1),
        valid_until=dt.date(2025, 12, 31),
    )
    log_in(page, manager)
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 780})
        for name, path in (
            ("list", "/members/"),
            ("detail", f"/members/{person.pk}/"),
            ("tables", "/members/tables/"),
            ("renew", f"/members/cards/{card.pk}/renew/"),
            ("reissue", f"/members/cards/{card.pk}/reissue/"),
            ("account", f"/members/{expired.member.pk}/account/"),
            ("password", "/accounts/password/"),
            ("404", "/members/no-such-page/"),
        ):
            page.goto(f"{live_server.url}{path}")
            page.screenshot(path=_shot(f"{name}-{width}"), full_page=True)
            assert _fits_the_phone(page), name
        page.goto(f"{live_server.url}/members/visits/check-in/")
        page.fill("#id_q", "2025 0003")
        page.press("#id_q", "Enter")
        page.wait_for_selector("text=按非会员入场")
        page.screenshot(path=_shot(f"checkin-expired-{width}"), full_page=True)
        assert _fits_the_phone(page)


def test_a_manager_sets_up_the_rooms_tables_on_a_phone(page, live_server, log_in, room, manager):
    """Issue 15 items 1 and 13: a table added, renamed and taken out of use in the app."""
    log_in(page, manager)

    page.goto(f"{live_server.url}/members/tables/")
    page.fill("#id_number", "7")
    page.click("button:has-text('添加')")
    page.wait_for_url(f"{live_server.url}/members/tables/")
    tile = page.locator("li.table-tile", has_text="7 号桌")
    assert "空闲" in tile.inner_text()
    assert _fits_the_phone(page)

    tile.locator("text=改名").click()
    page.fill("#id_name", "靠窗")
    page.click("button:has-text('保存')")
    page.goto(f"{live_server.url}/members/tables/")
    tile = page.locator("li.table-tile", has_text="7 号桌 靠窗")
    tile.locator("button:has-text('停用')").click()
    page.wait_for_url(f"{live_server.url}/members/tables/")
    assert "停用" in page.locator("li.table-tile", has_text="7 号桌 靠窗").inner_text()

    page.goto(f"{live_server.url}/play/new/")
    form = page.locator("form[data-session-form]").inner_text()
    assert "7 号桌" not in form and "没有可以开局的空桌" in form  # out of use: not offered
