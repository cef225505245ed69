"""Request types shared by the apps' views."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedRequest(HttpRequest):
    """The request of a view behind ``role_required`` or ``login_required``: its user
    is logged in (for the type checker; nothing is checked here)."""

    user: User
