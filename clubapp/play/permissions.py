"""Who may do what at a table: managers and members record, accountants read."""

from __future__ import annotations

from typing import Any

from clubapp.core.roles import Role, user_roles

RECORDERS = frozenset({Role.MANAGER, Role.MEMBER})
READERS = RECORDERS | {Role.ACCOUNTANT}


def can_record(user: Any) -> bool:
    return bool(RECORDERS.intersection(user_roles(user)))


def can_read(user: Any) -> bool:
    return bool(READERS.intersection(user_roles(user)))


def can_edit_rulesets(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def can_see_everyone(user: Any) -> bool:
    """Managers and accountants see every member's history; members their own."""
    return bool({Role.MANAGER, Role.ACCOUNTANT}.intersection(user_roles(user)))
