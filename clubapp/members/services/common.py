"""What the members app's writes share: a cleaned text, the manager's check."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from clubapp.core.roles import Role, user_has_role


def clean_text(value: str, *, label: str, max_length: int) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationError(
            _("Please fill in the %(field)s.") % {"field": label}, code="required"
        )
    if len(value) > max_length:
        raise ValidationError(
            _("The %(field)s may not be longer than %(count)s characters.")
            % {"field": label, "count": max_length},
            code="too_long",
        )
    return value


def must_manage(by: User) -> None:
    if not user_has_role(by, Role.MANAGER):
        raise PermissionDenied
