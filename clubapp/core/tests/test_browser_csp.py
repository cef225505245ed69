"""Under the Content-Security-Policy, the pages still work: the browser reports no
refused script or style on the pages of core, members, the admin and the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubapp.core.tests.factories import PASSWORD
from clubapp.members import services
from clubapp.members.tests.factories import MemberFactory
from clubapp.play.tests.factories import TableSessionFactory

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
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{live_server.url}/")


def test_no_page_has_a_script_or_style_refused(
    page, live_server, room, manager, member, django_user_model
):
    person = MemberFactory(room=room, user=member)
    services.card_issue(member=person, by=manager)
    receipt = person.receipts.get()
    session = TableSessionFactory(room=room)
    refused: list[str] = []
    page.on(
        "console",
        lambda msg: (
            refused.append(f"{page.url}: {msg.text}")
            if "Content Security Policy" in msg.text
            else None
        ),
    )
    _login(page, live_server, "manager")
    for path in (
        "/",
        "/accounts/password/",
        "/members/",
        f"/members/{person.pk}/",
        f"/members/receipts/{receipt.number}/",
        "/members/visits/",
        "/members/tables/",
        "/members/settings/",
        f"/play/{session.pk}/",
        f"/play/{session.pk}/hands/new/",
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, path
    # The receipt's print button is bound by static/js/app.js, not an inline handler.
    page.goto(f"{live_server.url}/members/receipts/{receipt.number}/")
    page.evaluate("window.print = () => { window.printed = true; }")
    page.click("button[data-print]")
    assert page.evaluate("window.printed") is True
    # The admin, as the developer who uses it.
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    _login(page, live_server, "root")
    for path in ("/admin/", f"/admin/auth/user/{member.pk}/change/", "/admin/members/member/"):
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, path
    assert refused == []
