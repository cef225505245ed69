"""Who may do what at a table: managers and members record, accountants read, managers
edit rulesets and see every member's history. (Issue 11 binds a member's writes and
reads to the tables where they sit; that check belongs in the services.)"""

from __future__ import annotations

from typing import Any

from clubapp.core.roles import Role, role_required, user_roles

RECORDERS = (Role.MANAGER, Role.MEMBER)
READERS = (*RECORDERS, Role.ACCOUNTANT)
#: who sees every member's history (members see their own)
OVERSEERS = (Role.MANAGER, Role.ACCOUNTANT)

reader = role_required(*READERS)
recorder = role_required(*RECORDERS)
ruleset_editor = role_required(Role.MANAGER)


def can_record(user: Any) -> bool:
    return bool(set(RECORDERS) & set(user_roles(user)))


def can_edit_rulesets(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def can_see_everyone(user: Any) -> bool:
    return bool(set(OVERSEERS) & set(user_roles(user)))
