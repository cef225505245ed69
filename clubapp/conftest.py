"""Fixtures for every app's tests: the test cast — one user per role and an outsider —,
a fresh media folder, and the browser of the browser tests.

Use them as fixtures (`def test_it_x(client, manager): client.force_login(manager)`).
The role groups come from the core data migration, so they exist in every test database.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API (the browser tests) keeps an event loop running in the
# main thread for the whole session; Django would then refuse every ORM call,
# the test-database setup included. Nothing here is async, so allow it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from clubapp.core.roles import Role  # noqa: E402 - after the environment is set
from clubapp.core.tests.factories import RoomFactory, UserFactory  # noqa: E402

#: Debian's Chromium, driven by Playwright (never `playwright install`: no downloads here)
CHROMIUM = Path("/usr/bin/chromium")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``browser`` are skipped where Chromium is missing (.ci/run installs it)."""
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason="Chromium not installed: apt-get install chromium")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


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
    # A phone in the room: Chinese locale, small screen.
    return {**browser_context_args, "locale": "zh-CN", "viewport": {"width": 390, "height": 844}}


@pytest.fixture
def log_in(client, live_server):
    """``log_in(page, user)``: the browser ``page`` carries ``user``'s session.

    One test client holds it (``client`` carries the same session): logging a second
    user in this way ends the first one's session. A test with several users at once
    gives each a ``django.test.Client()`` of its own (test_browser_day.py)."""

    def as_user(page: Any, user: Any) -> None:
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])

    return as_user


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path_factory):
    """Uploads (member photos) go to a fresh folder, never into the repository's media/."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture
def room(db):
    return RoomFactory()


@pytest.fixture
def manager(db):
    return UserFactory(username="manager", first_name="王经理", roles=[Role.MANAGER], is_staff=True)


@pytest.fixture
def accountant(db):
    return UserFactory(username="accountant", first_name="李会计", roles=[Role.ACCOUNTANT])


@pytest.fixture
def approver(db):
    return UserFactory(username="approver", first_name="张负责人", roles=[Role.APPROVER])


@pytest.fixture
def member(db):
    return UserFactory(username="member", first_name="赵会员", roles=[Role.MEMBER])


@pytest.fixture
def outsider(db):
    """Logged-in but in no group: must see nothing that a role unlocks."""
    return UserFactory(username="outsider", first_name="路人")
