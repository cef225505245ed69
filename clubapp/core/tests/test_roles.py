from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group

from clubapp.core.roles import Role, forget_roles, user_has_role, user_roles

pytestmark = pytest.mark.django_db


def test_it_has_a_group_per_role_from_the_migration():
    assert set(Group.objects.values_list("name", flat=True)) >= {"管理员", "会计", "负责人", "会员"}


@pytest.mark.parametrize(
    ("cast", "role"),
    [
        ("manager", Role.MANAGER),
        ("accountant", Role.ACCOUNTANT),
        ("approver", Role.APPROVER),
        ("member", Role.MEMBER),
    ],
)
def test_it_knows_each_users_role(request, cast, role):
    user = request.getfixturevalue(cast)
    assert user_has_role(user, role)
    assert user_roles(user) == [role]
    assert not any(user_has_role(user, other) for other in Role if other != role)


def test_it_gives_an_outsider_no_role(outsider):
    assert user_roles(outsider) == []
    assert not any(user_has_role(outsider, role) for role in Role)


def test_it_gives_anonymous_and_inactive_users_no_role(manager):
    assert not user_has_role(AnonymousUser(), Role.MANAGER)
    assert user_roles(AnonymousUser()) == []
    manager.is_active = False
    assert not user_has_role(manager, Role.MANAGER)
    assert user_roles(manager) == []


def test_it_accepts_the_group_name_as_role(accountant):
    assert user_has_role(accountant, "会计")


def test_it_does_not_make_a_superuser_a_manager(django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="x")
    assert not user_has_role(boss, Role.MANAGER)


def test_it_gives_the_manager_group_room_and_user_permissions(manager):
    assert manager.has_perm("core.change_room")
    assert manager.has_perm("auth.add_user")


def test_it_gives_the_member_group_no_permissions(member):
    assert not member.get_all_permissions()


def test_roles_are_read_once_per_user_object(member, django_assert_num_queries):
    # a page asks twice (the permission check and the menu): one query
    with django_assert_num_queries(1):
        assert user_roles(member) == [Role.MEMBER]
        assert user_roles(member) == [Role.MEMBER]
    member.groups.add(Group.objects.get(name=Role.ACCOUNTANT.value))
    assert user_roles(member) == [Role.MEMBER]  # what this request read
    forget_roles(member)
    assert user_roles(member) == [Role.ACCOUNTANT, Role.MEMBER]
