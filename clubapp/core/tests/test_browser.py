"""A real browser logs in: headless Debian Chromium driven by Playwright.

Skipped where /usr/bin/chromium is missing; `.ci/run` installs it. Never run
`playwright install` (no browser downloads here): we point Playwright at Debian's build.
"""

from __future__ import annotations

import pytest

from clubapp.core.tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_logs_a_manager_in_and_shows_the_home_page(page, live_server, manager):
    page.goto(f"{live_server.url}/accounts/login/")
    assert page.locator("h1").inner_text() == "登录"
    page.fill("#id_username", "manager")
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("heading", name="欢迎，王经理").is_visible()
    assert page.locator("li.role").all_inner_texts() == ["管理员"]
    # The stylesheet is served (no CDN, nothing from outside).
    assert page.evaluate("getComputedStyle(document.body).display") == "flex"
