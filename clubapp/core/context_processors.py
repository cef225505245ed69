"""Template context shared by every page: the room, the user's roles, the menu."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from clubapp.core.roles import Role, user_roles
from clubapp.core.selectors import room_get


def navigation(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    roles = user_roles(user)
    return {
        # The request's room (None for a district reader or an account in no room:
        # the page then names no room); a page shown before the room is known (an
        # error page) names the default room.
        "room": request.room if hasattr(request, "room") else room_get(),
        "user_roles": roles,
        # Per-role flags keep templates free of group names.
        "is_manager": Role.MANAGER in roles,
        "is_accountant": Role.ACCOUNTANT in roles,
        "is_approver": Role.APPROVER in roles,
        "is_member": Role.MEMBER in roles,
        # Every room's totals side by side: district readers and the superuser.
        "is_district": Role.DISTRICT in roles or bool(getattr(user, "is_superuser", False)),
        # The cash book: managers, the accountant and approvers (never members).
        "sees_books": bool({Role.MANAGER, Role.ACCOUNTANT, Role.APPROVER} & set(roles)),
    }
