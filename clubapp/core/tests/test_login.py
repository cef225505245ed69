from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.core.tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_shows_a_chinese_login_page(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "登录" in body
    assert "用户名" in body
    assert "密码" in body


def test_it_stays_chinese_whatever_the_browser_asks(client):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert "登录" in response.content.decode()


def test_it_shows_english_when_switched(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = client.get(reverse("login"))
    assert "Log in" in response.content.decode()
    assert "登录" not in response.content.decode()


def test_it_logs_in_and_redirects_home(client, manager):
    response = client.post(reverse("login"), {"username": "manager", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("home")


def test_it_rejects_a_wrong_password(client, manager):
    response = client.post(reverse("login"), {"username": "manager", "password": "nope"})
    assert response.status_code == 200
    assert "用户名或密码错误" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_locks_out_after_five_failures(client, manager):
    for _ in range(4):
        client.post(reverse("login"), {"username": "manager", "password": "nope"})
    response = client.post(reverse("login"), {"username": "manager", "password": "nope"})
    assert response.status_code == 429
    assert "登录失败次数过多" in response.content.decode()
    # Locked means locked: even the right password is refused now.
    response = client.post(reverse("login"), {"username": "manager", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_locks_only_that_username(client, manager, member):
    for _ in range(5):
        client.post(reverse("login"), {"username": "manager", "password": "nope"})
    response = client.post(reverse("login"), {"username": "member", "password": PASSWORD})
    assert response.status_code == 302


def test_it_logs_out_with_post(client, manager):
    client.force_login(manager)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response.url == reverse("login")
    assert "_auth_user_id" not in client.session
