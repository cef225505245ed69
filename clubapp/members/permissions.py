"""Who may do what here: managers do everything, accountants read, a member sees
only their own card and visits (through their linked Member row)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from clubapp.core.roles import Role, user_roles


def can_manage(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def can_read(user: Any) -> bool:
    roles = user_roles(user)
    return Role.MANAGER in roles or Role.ACCOUNTANT in roles


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


manager_required = _require(can_manage)
reader_required = _require(can_read)
