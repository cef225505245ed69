"""Writes of the core app."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from clubapp.core.models import DocumentCounter
from clubapp.core.roles import Role


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str | None,
    roles: list[Role] | tuple[Role, ...] = (),
    first_name: str = "",
    is_staff: bool = False,
) -> AbstractUser:
    """Create an active account in the given role groups.

    Managers work in the admin, so they are staff; nobody becomes a superuser here.
    ``password=None`` makes an account without a usable password: its owner sets one
    through a one-time link (``user_password_link_issue``).
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


@transaction.atomic
def next_number(*, key: str) -> int:
    """The next number of the series ``key`` (1, 2, 3, ...), without gaps or repeats.

    The counter row is locked (``select_for_update``) until the caller's transaction
    ends, so a receipt number is only spent if the receipt itself is committed.
    SQLite locks the whole database on write instead, which is as safe.
    """
    counter, _ = DocumentCounter.objects.select_for_update().get_or_create(key=key)
    DocumentCounter.objects.filter(pk=counter.pk).update(value=F("value") + 1)
    counter.refresh_from_db(fields=["value"])
    return counter.value


@transaction.atomic
def user_password_link_issue(*, user: AbstractUser) -> str:
    """A one-time link (a path) with which the account's owner sets a new password.

    The old password stops working at once, and so does any earlier link: Django's
    token is made from the password hash, which changes here and again when the link
    is used (one use). It expires after ``PASSWORD_RESET_TIMEOUT``. Whoever issues it
    never learns the new password.
    """
    user.set_unusable_password()
    user.save(update_fields=["password"])
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
