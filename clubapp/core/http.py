"""Request types shared by the apps' views."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.http import HttpRequest

if TYPE_CHECKING:
    from clubapp.core.models import Room


class RoomRequest(HttpRequest):
    """Every request past ``RoomMiddleware``: ``request.room`` is the room it serves."""

    room: Room


class AuthenticatedRequest(RoomRequest):
    """The request of a view behind ``role_required`` or ``login_required``: its user
    is logged in, and in the room ``RoomMiddleware`` resolved (for the type checker;
    nothing is checked here)."""

    user: User
