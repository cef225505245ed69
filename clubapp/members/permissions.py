"""Who may do what here: managers do everything, accountants read, a member sees
only their own card and visits (through their linked Member row)."""

from __future__ import annotations

from typing import Any

from clubapp.core.roles import Role, role_required, user_roles

MANAGERS = (Role.MANAGER,)
READERS = (Role.MANAGER, Role.ACCOUNTANT)
# Who may ask to see a member's full ID number (each time recorded); everyone else,
# accountants included, sees it masked only.
ID_NUMBER_VIEWERS = (Role.MANAGER,)


def can_manage(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def can_see_id_numbers(user: Any) -> bool:
    return bool(set(ID_NUMBER_VIEWERS) & set(user_roles(user)))


def can_read(user: Any) -> bool:
    return bool(set(READERS) & set(user_roles(user)))


manager_required = role_required(*MANAGERS)
reader_required = role_required(*READERS)
id_number_viewer_required = role_required(*ID_NUMBER_VIEWERS)
