"""Fixtures for every app's tests: the test cast — one user per role and an outsider —
and a fresh media folder.

Use them as fixtures (`def test_it_x(client, manager): client.force_login(manager)`).
The role groups come from the core data migration, so they exist in every test database.
"""

from __future__ import annotations

import os

import pytest

# Playwright's sync API (the browser tests) keeps an event loop running in the
# main thread for the whole session; Django would then refuse every ORM call,
# the test-database setup included. Nothing here is async, so allow it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from clubapp.core.roles import Role  # noqa: E402 - after the environment is set
from clubapp.core.tests.factories import RoomFactory, UserFactory  # noqa: E402


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
