"""Who reads which report. Exports follow exactly the rule of the page they come from.

- the monthly report and the income list: managers, accountants and the approver
  (负责人); members see nothing of the books;
- members, visits, and every table's sessions, hands and ledger lines: managers
  and accountants (members read only their own card and tables elsewhere);
- a session's settlement sheet: managers, accountants, and the players seated at it;
- 会员证: managers (one card, or a sheet of ten); a member their own card;
- receipts, today's page: managers and accountants.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from clubapp.core.roles import Role, user_roles


def _has(user: Any, *roles: Role) -> bool:
    return bool(set(roles) & set(user_roles(user)))


def can_read_books(user: Any) -> bool:
    return _has(user, Role.MANAGER, Role.ACCOUNTANT, Role.APPROVER)


def can_read_district(user: Any) -> bool:
    """Every room's monthly totals side by side: the deployment's superuser and the
    district readers (片区), who have no room and write nothing."""
    return bool(getattr(user, "is_superuser", False)) or _has(user, Role.DISTRICT)


def can_read_room(user: Any) -> bool:
    """Members' data, visits and every table: the office (manager, accountant)."""
    return _has(user, Role.MANAGER, Role.ACCOUNTANT)


def can_print_cards(user: Any) -> bool:
    return _has(user, Role.MANAGER)


View = Callable[..., HttpResponseBase]


def requires(check: Callable[[Any], bool]) -> Callable[[View], View]:
    """Login first (anonymous users go to the login page), then ``check`` or 403."""

    def decorator(view: View) -> View:
        @wraps(view)
        @login_required
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
