"""The report pages on a phone (390 px) in headless Debian Chromium: nothing runs
off the side of the screen (tables scroll inside their box)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubapp.core.tests.factories import PASSWORD

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Chromium not installed: apt-get install chromium"
    ),
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "locale": "zh-CN", "viewport": {"width": 390, "height": 844}}


def _login(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/reports/monthly/?month=2026-11",
        "/reports/lists/income/",
        "/reports/lists/hands/",
        "/reports/lists/slips/",
        "/reports/lists/expenses/",
        "/reports/lists/plans/",
    ],
)
def test_it_fits_a_phone(page, live_server, manager, november, november_books, path, tmp_path):
    _login(page, live_server, "manager")
    page.goto(f"{live_server.url}{path}")
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert "测试棋牌室" in page.content()
