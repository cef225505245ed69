from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_requires_login(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_shows_the_managers_role_and_admin_link(client, manager):
    client.force_login(manager)
    body = client.get(reverse("home")).content.decode()
    assert "王经理" in body
    assert '<li class="role">管理员</li>' in body
    assert reverse("admin:index") in body


@pytest.mark.parametrize(
    ("cast", "role_name"),
    [("accountant", "会计"), ("approver", "负责人"), ("member", "会员")],
)
def test_it_shows_each_role(client, request, cast, role_name):
    client.force_login(request.getfixturevalue(cast))
    body = client.get(reverse("home")).content.decode()
    assert f'<li class="role">{role_name}</li>' in body
    assert reverse("admin:index") not in body


def test_it_tells_an_outsider_they_have_no_role(client, outsider):
    client.force_login(outsider)
    body = client.get(reverse("home")).content.decode()
    assert 'class="role"' not in body
    assert "还没有角色" in body


def test_it_shows_role_labels_in_english(client, manager):
    client.force_login(manager)
    client.cookies["django_language"] = "en"
    body = client.get(reverse("home")).content.decode()
    assert '<li class="role">Manager</li>' in body


def test_it_shows_the_room_name(client, manager, room):
    client.force_login(manager)
    assert room.name in client.get(reverse("home")).content.decode()


def test_it_switches_language(client, manager):
    client.force_login(manager)
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Your roles" in client.get(reverse("home")).content.decode()
