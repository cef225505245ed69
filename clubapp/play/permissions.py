"""Who may do what at a table (issue 11 item 1).

- Managers act at every table and read every table; accountants read every table.
- A member reads, records, settles, ends and confirms only at tables where an
  account of theirs sits (``Seat.user``), and opens a table only by taking a seat.
- A void is a manager's, or a seated player's request confirmed by a second seated
  player (``services.hand_void_request`` / ``hand_void``).
- Only managers edit rulesets, reopen an ended session, or type a guest's name.

The views ask first (a 403 before any work); the services ask again (the rule holds
whoever calls them). ``by=None`` in a service is the room's own code (the demo, the
benchmarks, imports), never a request: the views always pass the logged-in user.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from clubapp.core.roles import Role, role_required, user_roles

RECORDERS = (Role.MANAGER, Role.MEMBER)
READERS = (*RECORDERS, Role.ACCOUNTANT)
#: who sees every member's history and every table (members see their own)
OVERSEERS = (Role.MANAGER, Role.ACCOUNTANT)

reader = role_required(*READERS)
recorder = role_required(*RECORDERS)
ruleset_editor = role_required(Role.MANAGER)
manager_only = role_required(Role.MANAGER)


def can_record(user: Any) -> bool:
    return bool(set(RECORDERS) & set(user_roles(user)))


def can_edit_rulesets(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def is_manager(user: Any) -> bool:
    return Role.MANAGER in user_roles(user)


def can_see_everyone(user: Any) -> bool:
    return bool(set(OVERSEERS) & set(user_roles(user)))


def seat_of(user: Any, session: Any) -> Any:
    """The seat of ``user``'s account at the session (a session or its pk), or None:
    one query for a pk, none for a session read with its seats
    (``selectors.session_get``), none for an anonymous user."""
    from clubapp.play.models import Seat, TableSession

    if not getattr(user, "is_authenticated", False):
        return None
    if isinstance(session, TableSession):
        return next((seat for seat in session.seats.all() if seat.user_id == user.pk), None)
    return Seat.objects.filter(session_id=session, user=user).first()  # (of the view's room)


def may_read_table(user: Any, session: Any) -> bool:
    """Managers and accountants read every table; a member the tables where they sit."""
    roles = set(user_roles(user))
    if roles & set(OVERSEERS):
        return True
    return Role.MEMBER in roles and seat_of(user, session) is not None


def may_act_at_table(user: Any, session: Any) -> bool:
    """Managers act at every table; a member where they sit."""
    roles = user_roles(user)
    if Role.MANAGER in roles:
        return True
    return Role.MEMBER in roles and seat_of(user, session) is not None


def table_actor(view: Any) -> Any:
    """A view of one table (``pk``) of the request's room: 404 for a table of another
    room (as for a missing one: the page does not tell that it exists), 403 unless
    ``may_act_at_table``."""

    @wraps(view)
    def wrapped(request: Any, pk: int, *args: Any, **kwargs: Any) -> Any:
        from clubapp.play.models import TableSession

        if not TableSession.objects.filter(pk=pk, room=request.room).exists():
            raise Http404
        if not may_act_at_table(request.user, pk):
            raise PermissionDenied
        return view(request, pk, *args, **kwargs)

    return wrapped


def check_read_table(user: Any, session: Any) -> None:
    if not may_read_table(user, session):
        raise PermissionDenied


def check_act_at_table(by: Any, session: Any) -> None:
    """For services: ``by=None`` is the room's own code (see the module's doc)."""
    if by is not None and not may_act_at_table(by, session):
        raise PermissionDenied
