"""Who may do what here: managers do everything, accountants read, a member sees
only their own card and visits (through their linked Member row)."""

from __future__ import annotations

from typing import Any

from clubapp.core.roles import Role, role_required, user_roles

MANAGERS = (Role.MANAGER,)
READERS = (Role.MANAGER, Role.ACCOUNTANT)


def can_manage(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def can_read(user: Any) -> bool:
    return bool(set(READERS) & set(user_roles(user)))


manager_required = role_required(*MANAGERS)
reader_required = role_required(*READERS)
