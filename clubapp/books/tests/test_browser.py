"""The cash book on a 360 px phone: the desk hands cash over, the accountant confirms.

Headless Debian Chromium through Playwright, as in core's browser test; skipped where
/usr/bin/chromium is missing.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from clubapp.books import services
from clubapp.books.models import IncomeCategory
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
    return {**browser_context_args, "locale": "zh-CN", "viewport": {"width": 360, "height": 780}}


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{live_server.url}/")


def test_the_desk_hands_cash_over_and_the_accountant_confirms(
    page, live_server, room, manager, accountant
):
    for amount, reference in (("50.00", "R2026-08001"), ("6.00", "R2026-08002")):
        services.income_record(
            room=room,
            category=IncomeCategory.GUEST_FEE,
            amount=Decimal(amount),
            received_at=timezone.now(),
            reference=reference,
            recorded_by=manager,
        )
    _log_in(page, live_server, "manager")
    page.click("label.menu-button")  # the menu folds behind ☰ on a phone
    page.click("nav.nav >> text=收支账")
    page.wait_for_url(f"{live_server.url}/books/")
    assert "56.00" in page.locator(".tiles").inner_text()
    assert _fits_the_phone(page)

    page.click(".actions >> text=缴款")
    page.wait_for_url(f"{live_server.url}/books/slips/new/")
    assert page.locator("input[name=receipts]:checked").count() == 2
    assert _fits_the_phone(page)
    page.fill("#id_amount", "55.00")  # miscounted
    page.click("button:has-text('缴款')")
    assert "实缴现金 55.00 元与所选收据合计 56.00 元不符" in page.locator(".errorlist").inner_text()
    page.fill("#id_amount", "56.00")
    page.click("button:has-text('缴款')")
    page.wait_for_url(f"{live_server.url}/books/slips/*/")
    assert "待会计确认" in page.locator(".receipt").inner_text()
    assert _fits_the_phone(page)
    slip_url = page.url

    page.click("label.menu-button")
    page.click("button:has-text('退出登录')")
    _log_in(page, live_server, "accountant")
    page.goto(slip_url)
    page.click("button:has-text('确认入账')")
    page.wait_for_url(slip_url)
    assert "已入账" in page.locator(".messages").inner_text()
    assert _fits_the_phone(page)

    for path in ("/books/income/", "/books/slips/", "/books/days/", "/books/plans/"):
        page.goto(f"{live_server.url}{path}")
        assert _fits_the_phone(page), path


def test_the_accountant_reverses_a_slip_after_the_confirm_page(
    page, live_server, room, manager, accountant, tmp_path
):
    entry = services.income_record(
        room=room,
        category=IncomeCategory.GUEST_FEE,
        amount=Decimal("6.00"),
        received_at=timezone.now(),
        reference="R2026-08003",
        recorded_by=manager,
    )
    slip = services.slip_create(room=room, incomes=[entry], amount=Decimal("6.00"), by=manager)
    services.slip_confirm(slip=slip, by=accountant)
    _log_in(page, live_server, "accountant")
    page.goto(f"{live_server.url}{slip.get_absolute_url()}")
    page.fill("#id_reason", "误确认")
    page.click("button:has-text('冲正…')")
    heading = page.locator("h1").inner_text()
    assert slip.number in heading and "冲正" in heading
    assert "回到前台" in page.locator(".warning").inner_text()
    assert page.input_value("#id_reason") == "误确认"
    assert _fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "reversal-confirm-360.png"), full_page=True)
    page.click("button:has-text('确认冲正 6.00 元')")
    page.wait_for_url(f"{live_server.url}{slip.get_absolute_url()}")
    assert "已冲正" in page.locator(".messages").inner_text()
