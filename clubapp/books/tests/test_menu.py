"""The main menu offers the cash book to managers, the accountant and approvers only."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
LINK = f'href="{reverse("books:home")}"'


@pytest.mark.parametrize(
    ("who", "sees"),
    [
        ("manager", True),
        ("accountant", True),
        ("approver", True),
        ("member", False),
        ("outsider", False),
    ],
)
def test_the_menu_by_role(client, request, room, who, sees):
    client.force_login(request.getfixturevalue(who))
    assert (LINK in client.get(reverse("home")).content.decode()) is sees
