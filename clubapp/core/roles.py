"""Roles are Django groups; this module is the one place that names them.

The group names are the Chinese words the room uses (they show as-is in the
admin); the labels are English msgids, translated back in the zh_Hans catalog.
The groups themselves are created by migration 0002_role_groups.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    MANAGER = "管理员", _("Manager")
    ACCOUNTANT = "会计", _("Accountant")
    APPROVER = "负责人", _("Approver")
    MEMBER = "会员", _("Member")
    # Reads every room's monthly totals side by side; no room, no write anywhere.
    DISTRICT = "片区", _("District")


def user_roles(user: Any) -> list[Role]:
    """The user's roles in Role order; none for anonymous or inactive users.

    A superuser gets no role by that fact alone: roles are about who does what
    in the room (an approver must not be the one who asked), not about access.

    Read once per user object, that is once per request however often a page
    asks (the permission check and the menu); ``forget_roles`` after a change.
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return []
    cached: list[Role] | None = getattr(user, "_club_roles", None)
    if cached is None:
        names = set(user.groups.values_list("name", flat=True))
        cached = [role for role in Role if role.value in names]
        user._club_roles = cached
    return list(cached)


def forget_roles(user: Any) -> None:
    """Drop the roles read into this user object (after its groups changed)."""
    user.__dict__.pop("_club_roles", None)


def user_has_role(user: Any, role: Role | str) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.groups.filter(name=Role(role).value).exists()


View = Callable[..., HttpResponse]


def role_required(*roles: Role) -> Callable[[View], View]:
    """The one gate of every app's views: a logged-in user with one of ``roles`` gets
    the view, anyone else logged in a 403, an anonymous user the login page. Finer
    checks (whose card, which table) belong to the view's service or selector."""

    def decorator(view: View) -> View:
        @wraps(view)
        @login_required
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not set(roles) & set(user_roles(request.user)):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
