"""Who may do what with the room's life (docs/activities.md, Roles).

Managers (管理员) plan activities, record them, run tournaments, keep the roster and
the day's checks, and ask for leave; approvers (负责人) approve activity plans and
leave (never their own); the staff (managers, the accountant, approvers) read all of
it; members see the activity calendar, the public standings and their own results.
Services check these themselves; views too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from clubapp.core.roles import Role, user_roles

STAFF = frozenset({Role.MANAGER, Role.ACCOUNTANT, Role.APPROVER})


def can_read(user: Any) -> bool:
    """Plans, records, the roster, leave, the day's checks (the staff)."""
    return bool(STAFF & set(user_roles(user)))


def can_see_public(user: Any) -> bool:
    """The activity calendar and the tournaments' standings (anyone with a role)."""
    return bool(user_roles(user))


def can_manage(user: Any) -> bool:
    """Plan, record, run tournaments, keep the roster and the day's checks."""
    return Role.MANAGER in user_roles(user)


def can_approve(user: Any) -> bool:
    """Approve activity plans and leave."""
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
public_required = _require(can_see_public)
manager_required = _require(can_manage)
approver_required = _require(can_approve)
