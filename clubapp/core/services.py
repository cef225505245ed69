"""Writes of the core app."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.db import transaction

from clubapp.core.roles import Role


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    roles: list[Role] | tuple[Role, ...] = (),
    first_name: str = "",
    is_staff: bool = False,
) -> AbstractUser:
    """Create an active account in the given role groups.

    Managers work in the admin, so they are staff; nobody becomes a superuser here.
    """
    user = get_user_model().objects.create_user(
        username=username,
        password=password,
        first_name=first_name,
        is_staff=is_staff or Role.MANAGER in roles,
    )
    if roles:
        user.groups.set(Group.objects.filter(name__in=[Role(r).value for r in roles]))
    return user
