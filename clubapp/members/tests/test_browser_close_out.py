"""On a phone (360 px): the desk closes a guest left open after closing with a time."""

from __future__ import annotations

import pytest

from clubapp.members.models import Visit
from clubapp.members.services import visit_check_in
from clubapp.members.tests.factories import at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_closes_a_visit_after_closing_on_a_phone(
    page, live_server, log_in, room, manager, clock, tables, tmp_path
):
    page.set_viewport_size({"width": 360, "height": 780})
    visit = visit_check_in(room=room, guest_name="过路客", by=manager, now=at(30, 16, 30))
    clock.set(at(30, 19))
    log_in(page, manager)
    page.goto(f"{live_server.url}/members/visits/")
    box = page.locator("#past-closing")
    assert "过路客" in box.inner_text() and "1 小时 30 分" in box.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    button = box.locator("a.button:has-text('补记离场')")
    bounds = button.bounding_box()
    assert bounds is not None and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= 360
    box.screenshot(path=str(tmp_path / "visits-after-closing-360.png"))

    button.click()
    page.wait_for_url(f"{live_server.url}/members/visits/{visit.pk}/check-out/")
    assert page.input_value("#id_left_at") == "18:00"
    page.fill("#id_left_at", "18:40")
    with page.expect_navigation():
        page.click("button:has-text('重新计算')")
    assert "已收现金6.00元" in page.locator("button.primary").inner_text()
    page.screenshot(path=str(tmp_path / "visit-close-out-360.png"), full_page=True)
    page.click("button.primary")
    page.wait_for_url(f"{live_server.url}/members/visits/")
    assert "R2026-00001" in page.locator(".messages").inner_text()
    visit = Visit.objects.get()
    assert visit.checked_out_at == at(30, 18, 40) and visit.fee == 6
