"""The user admin: only a superuser changes staff, superuser and group fields (issue 11.2)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from clubapp.core.models import UserRoom
from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _change_form_post(user, **extra):
    """What the admin's change form sends for ``user``, plus ``extra`` fields."""
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": "",
        "email": "",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "initial-date_joined_0": "2026-01-01",
        "initial-date_joined_1": "10:00:00",
    }
    data.update(extra)
    return data


def test_it_keeps_a_manager_from_making_themselves_superuser(client, manager):
    client.force_login(manager)
    manager_group = Group.objects.get(name=Role.MANAGER.value)
    accountant_group = Group.objects.get(name=Role.ACCOUNTANT.value)
    url = f"/admin/auth/user/{manager.pk}/change/"
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        _change_form_post(
            manager,
            first_name="王经理2",
            is_staff="on",
            is_superuser="on",
            groups=[manager_group.pk, accountant_group.pk],
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    manager.refresh_from_db()
    assert manager.first_name == "王经理2"  # the form itself worked
    assert manager.is_superuser is False
    assert set(manager.groups.values_list("name", flat=True)) == {Role.MANAGER.value}


def test_it_keeps_a_manager_from_making_a_member_staff(client, manager, member):
    client.force_login(manager)
    manager_group = Group.objects.get(name=Role.MANAGER.value)
    response = client.post(
        f"/admin/auth/user/{member.pk}/change/",
        _change_form_post(member, is_staff="on", is_superuser="on", groups=[manager_group.pk]),
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert not member.is_staff and not member.is_superuser
    assert list(member.groups.values_list("name", flat=True)) == [Role.MEMBER.value]


def test_it_shows_the_privilege_fields_read_only_to_a_manager(client, manager, member):
    client.force_login(manager)
    body = client.get(f"/admin/auth/user/{member.pk}/change/").content.decode()
    assert 'name="is_superuser"' not in body
    assert 'name="is_staff"' not in body
    assert 'name="groups"' not in body
    assert 'name="first_name"' in body


def test_it_keeps_a_manager_out_of_a_superusers_account(client, manager, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(manager)
    # In no room, the deployment's superuser is not among the room's accounts at all.
    assert client.get(f"/admin/auth/user/{boss.pk}/change/").status_code == 302
    # Placed in the manager's room: viewable (a manager may view its accounts), never
    # editable.
    UserRoom.objects.create(user=boss, room=manager.room_link.room)
    body = client.get(f"/admin/auth/user/{boss.pk}/change/").content.decode()
    assert 'name="is_active"' not in body
    response = client.post(
        f"/admin/auth/user/{boss.pk}/change/", _change_form_post(boss, is_active="")
    )
    assert response.status_code == 403
    boss.refresh_from_db()
    assert boss.is_active


def test_it_never_lets_a_manager_set_a_password_in_the_admin(client, manager, member):
    client.force_login(manager)
    url = f"/admin/auth/user/{member.pk}/password/"
    assert client.get(url).status_code == 403
    client.post(url, {"password1": "new-pass-4321-x", "password2": "new-pass-4321-x"})
    member.refresh_from_db()
    assert not member.check_password("new-pass-4321-x")


def test_it_keeps_a_manager_from_adding_accounts_in_the_admin(client, manager):
    client.force_login(manager)
    assert client.get("/admin/auth/user/add/").status_code == 403


def test_it_lets_a_superuser_change_privileges(client, django_user_model, member):
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    response = client.post(
        f"/admin/auth/user/{member.pk}/change/", _change_form_post(member, is_staff="on")
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.is_staff
    other = UserFactory(username="other")
    assert client.get(f"/admin/auth/user/{other.pk}/password/").status_code == 200


@pytest.mark.parametrize(
    "url",
    ["/admin/members/receipt/", "/admin/books/incomeentry/", "/admin/members/card/"],
)
def test_it_shows_receipts_income_and_cards_read_only(client, django_user_model, url):
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    assert client.get(url).status_code == 200
    assert client.get(url + "add/").status_code == 403
