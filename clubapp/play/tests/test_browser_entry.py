"""A recorder at the table books a normal hand on a phone-sized browser: tap the
winner, tap who dealt in, step the hard flowers, show the result, book it.

Headless Debian Chromium through Playwright; skipped where it is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory
from clubapp.play.models import Hand
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


@pytest.fixture
def member(db):
    """A member made here: transactional tests flush the role groups of the migration."""
    from django.contrib.auth.models import Group

    group, _ = Group.objects.get_or_create(name=Role.MEMBER.value)
    user = UserFactory(username="recorder")
    user.groups.add(group)
    return user


def test_it_books_a_normal_hand_in_a_few_taps(page, live_server, client, member):
    session = TableSessionFactory()
    client.force_login(member)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page.goto(f"{live_server.url}/play/{session.pk}/")
    page.click("text=记一把")
    page.check("input[name=winners][value=S]")
    assert page.is_visible("fieldset.winner[data-seat=S]")
    assert not page.is_visible("fieldset.winner[data-seat=N]")
    page.check("input[name=discarder][value=E]")
    for _ in range(4):
        page.click("fieldset.winner[data-seat=S] .stepper button[data-step='1'] >> nth=0")
    page.click("button[name=preview]")
    assert "跑20" in page.inner_text("#preview")
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/play/{session.pk}/")
    assert Hand.objects.get().result["net"]["S"] == 28
    assert "+28" in page.inner_text(".seats")


def test_clashing_feature_ticks_grey_out(page, live_server, client, member):
    session = TableSessionFactory()
    client.force_login(member)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/play/{session.pk}/hands/new/")
    page.check("input[name=winners][value=E]")
    page.check("input[name=features_E][value=qidui]")
    assert page.is_disabled("input[name=features_E][value=menqing]")
    assert page.is_disabled("input[name=features_E][value=haohua_qidui]")
    assert not page.is_disabled("input[name=features_E][value=qingyise]")
    page.screenshot(path="/tmp/playtools/entry.png", full_page=True)
