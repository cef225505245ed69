"""Who may do what at a table: managers and members record, accountants read."""

from __future__ import annotations

from typing import Any

from clubapp.core.roles import Role, user_roles

RECORDERS = frozenset({Role.MANAGER, Role.MEMBER})
READERS = RECORDERS | {Role.ACCOUNTANT}


def _roles(user: Any) -> set[Role]:
    """The user's roles (read once per user object, one request, by user_roles)."""
    return set(user_roles(user))


def can_record(user: Any) -> bool:
    return bool(RECORDERS & _roles(user))


def can_read(user: Any) -> bool:
    return bool(READERS & _roles(user))


def can_edit_rulesets(user: Any) -> bool:
    return Role.MANAGER in _roles(user)


def can_see_everyone(user: Any) -> bool:
    """Managers and accountants see every member's history; members their own."""
    return bool({Role.MANAGER, Role.ACCOUNTANT} & _roles(user))
