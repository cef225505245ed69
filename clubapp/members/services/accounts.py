"""A member's login: created, its one-time password link, 停用 / 启用."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubapp.core.roles import Role
from clubapp.core.services import user_create, user_password_link_issue
from clubapp.members.models import Member
from clubapp.members.services.common import must_manage

logger = logging.getLogger(__name__)


def _member_login(member: Member) -> AbstractUser:
    """The member's own login, if it is a plain member account.

    Staff, superusers and accounts with other roles are the administrator's to look
    after: a manager resetting one would take it over.
    """
    user = member.user
    if user is None:
        raise ValidationError(_("This member has no login yet."), code="no_account")
    groups = set(user.groups.values_list("name", flat=True))
    if user.is_staff or user.is_superuser or groups != {Role.MEMBER.value}:
        raise ValidationError(
            _("This account is not a plain member's account: the administrator looks after it."),
            code="not_a_member_account",
        )
    return user


@transaction.atomic
def member_account_create(*, member: Member, username: str, by: User) -> tuple[AbstractUser, str]:
    """A login for the member (role 会员) and the one-time link to set its password.

    Returns the account and the link's path; the manager hands the link over (the
    member opens it on their own phone), so nobody but the member knows the password.
    """
    must_manage(by)
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.user_id is not None:
        raise ValidationError(_("This member already has a login."), code="account_exists")
    user_model = get_user_model()
    username = (username or "").strip()
    if not username:
        raise ValidationError(_("Please enter a login name."), code="required")
    try:
        user_model.username_validator(username)
    except ValidationError:
        raise ValidationError(
            _("A login name has only letters, digits and @ . + - _"), code="username_invalid"
        ) from None
    if len(username) > 150:
        raise ValidationError(_("A login name has at most 150 characters."), code="too_long")
    if user_model.objects.filter(username__iexact=username).exists():
        raise ValidationError(_("This login name is taken."), code="username_taken")
    user = user_create(
        username=username,
        password=None,
        room=member.room,
        roles=[Role.MEMBER],
        first_name=member.name,
    )
    member.user = user
    member.save(update_fields=["user"])
    logger.info("account %s created for member %s by user %s", user.pk, member.pk, by.pk)
    return user, user_password_link_issue(user=user)


@transaction.atomic
def member_account_reset(*, member: Member, by: User) -> str:
    """A new one-time link for the member's login; the old password stops working."""
    must_manage(by)
    user = _member_login(member)
    if not user.is_active:
        raise ValidationError(
            _("This login is disabled: enable it first."), code="account_inactive"
        )
    logger.info("password link for account %s issued by user %s", user.pk, by.pk)
    return user_password_link_issue(user=user)


@transaction.atomic
def member_account_set_active(
    *, member: Member, active: bool, by: User
) -> tuple[AbstractUser, str]:
    """停用 / 启用 the member's login.

    Deactivating ends its use at once (no login, and any password link is spoilt);
    enabling it again returns a fresh one-time link, since the old password is gone.
    """
    must_manage(by)
    user = _member_login(member)
    user.is_active = active
    user.save(update_fields=["is_active"])
    link = user_password_link_issue(user=user)  # the old password stops working either way
    logger.info("account %s active=%s by user %s", user.pk, active, by.pk)
    return user, link if active else ""
