"""The test cast, shared by every app: one user per role and an outsider.

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

from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory


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
