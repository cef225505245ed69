"""Who may do what in the cash book (docs/books.md, Roles).

Managers (管理员) record income, hand cash over, draft plans and book expenses;
approvers (负责人) approve or reject plans; the accountant (会计) confirms slips and
expenses, reverses entries and closes days (the desk that holds the cash cannot
cancel a receipt: it asks the accountant). Those three read the books; members and anyone
else see nothing of them. Services check these themselves, views too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from clubapp.core.roles import Role, user_roles

READERS = frozenset({Role.MANAGER, Role.ACCOUNTANT, Role.APPROVER})


def can_read(user: Any) -> bool:
    return bool(READERS & set(user_roles(user)))


def can_record(user: Any) -> bool:
    """Income, hand-over slips, plans and expenses."""
    return Role.MANAGER in user_roles(user)


def can_check(user: Any) -> bool:
    """Confirm or send back slips, confirm expenses, reverse entries, close days."""
    return Role.ACCOUNTANT in user_roles(user)


def can_approve(user: Any) -> bool:
    return Role.APPROVER in user_roles(user)


View = Callable[..., HttpResponse]


def _require(test: Callable[[Any], bool]) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        @login_required
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not test(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


reader_required = _require(can_read)
recorder_required = _require(can_record)
checker_required = _require(can_check)
approver_required = _require(can_approve)
