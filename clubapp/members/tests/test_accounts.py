"""Members' logins: created, disabled and reset by a manager with a one-time link."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clubapp.core.roles import Role, user_roles
from clubapp.core.tests.factories import UserFactory
from clubapp.members import services
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "tiles-and-tea-2026"


def _link(response) -> str:
    match = re.search(r'href="http://testserver(/accounts/reset/[^"]+)"', response.content.decode())
    assert match, response.content.decode()
    return match.group(1)


def _set_password(client, link: str, password: str = NEW_PASSWORD):
    # Django moves the token into the session and redirects to .../set-password/.
    response = client.get(link)
    assert response.status_code == 302
    return client.post(response.url, {"new_password1": password, "new_password2": password})


def test_it_creates_a_login_and_the_member_sets_the_password(client, manager, room):
    person = MemberFactory(room=room, name="钱大伯")
    client.force_login(manager)
    url = reverse("members:member_account", args=[person.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"username": "qian"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    link = _link(response)
    person.refresh_from_db()
    user = person.user
    assert user.username == "qian" and user.first_name == "钱大伯"
    assert user_roles(user) == [Role.MEMBER]
    assert not user.has_usable_password()  # nobody knows a password yet

    client_class = type(client)
    member_phone = client_class()
    done = _set_password(member_phone, link)
    assert done.status_code == 302 and done.url == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    login = member_phone.post(reverse("login"), {"username": "qian", "password": NEW_PASSWORD})
    assert login.status_code == 302 and login.url == reverse("home")
    # One use only.
    again = client_class().get(link, follow=True)
    assert "已使用或已过期" in again.content.decode()


def test_it_refuses_a_second_login_or_a_taken_name(client, manager, room, member):
    person = MemberFactory(room=room)
    client.force_login(manager)
    response = client.post(
        reverse("members:member_account", args=[person.pk]), {"username": "MEMBER"}
    )
    assert "该登录名已被使用" in response.content.decode()
    person.refresh_from_db()
    assert person.user is None
    linked = MemberFactory(room=room, user=member)
    with pytest.raises(Exception, match="已有登录账号"):
        services.member_account_create(member=linked, username="another", by=manager)


def test_a_reset_link_replaces_the_password_the_manager_never_sees(client, manager, room, member):
    person = MemberFactory(room=room, user=member)
    member.set_password("old-password-1")
    member.save()
    client.force_login(manager)
    response = client.post(reverse("members:member_account_reset", args=[person.pk]))
    assert response.status_code == 200
    first = _link(response)
    member.refresh_from_db()
    assert not member.check_password("old-password-1")  # stops working at once
    second = _link(client.post(reverse("members:member_account_reset", args=[person.pk])))
    phone = type(client)()
    assert (
        "已使用或已过期" in phone.get(first, follow=True).content.decode()
    )  # the older link is spoilt
    _set_password(phone, second)
    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD)


def test_a_disabled_login_cannot_log_in_and_its_link_is_spoilt(client, manager, room, member):
    person = MemberFactory(room=room, user=member)
    client.force_login(manager)
    link = _link(client.post(reverse("members:member_account_reset", args=[person.pk])))
    client.post(reverse("members:member_account_active", args=[person.pk]))
    member.refresh_from_db()
    assert not member.is_active
    phone = type(client)()
    assert "已使用或已过期" in phone.get(link, follow=True).content.decode()
    # Enabling it again hands out a fresh link.
    response = client.post(reverse("members:member_account_active", args=[person.pk]))
    member.refresh_from_db()
    assert member.is_active
    _set_password(type(client)(), _link(response))
    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD)


def test_a_manager_cannot_reset_a_staff_account_through_a_member(client, manager, room):
    other_manager = UserFactory(username="boss2", roles=[Role.MANAGER], is_staff=True)
    person = MemberFactory(room=room, user=other_manager)
    client.force_login(manager)
    response = client.post(reverse("members:member_account_reset", args=[person.pk]), follow=True)
    assert "不是普通会员账号" in response.content.decode()
    other_manager.refresh_from_db()
    assert other_manager.has_usable_password()


def test_only_a_manager_handles_logins(client, accountant, room, member):
    person = MemberFactory(room=room, user=member)
    client.force_login(accountant)
    assert client.post(reverse("members:member_account_reset", args=[person.pk])).status_code == 403
    with pytest.raises(PermissionDenied):
        services.member_account_reset(member=person, by=accountant)
    with pytest.raises(PermissionDenied):
        services.member_account_create(member=MemberFactory(room=room), username="x", by=accountant)


def test_every_user_changes_their_own_password(client, accountant):
    from clubapp.core.tests.factories import PASSWORD

    client.force_login(accountant)
    url = reverse("password_change")
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(pk=accountant.pk).check_password(NEW_PASSWORD)


def test_the_password_page_needs_a_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and "/accounts/login/" in response.url
