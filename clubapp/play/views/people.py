"""A member's play: their history and points."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from clubapp.core.http import AuthenticatedRequest
from clubapp.members.models import Member
from clubapp.play import selectors
from clubapp.play.permissions import (
    can_see_everyone,
    reader,
)


@reader
def member_history(request: AuthenticatedRequest, user_id: int | None = None) -> HttpResponse:
    """A member's play: their own for members; anyone's for managers and accountants."""
    if user_id is None or user_id == request.user.pk:
        person = request.user
    elif can_see_everyone(request.user):
        # an account of another room is not found, as a missing one
        person = get_object_or_404(get_user_model(), pk=user_id, room_link__room=request.room)
    else:
        raise PermissionDenied
    stats = selectors.member_stats(room=request.room, user=person)
    name = person.get_short_name() or person.get_username()
    awaiting = (
        selectors.hands_awaiting(room=request.room, user=person) if person == request.user else []
    )
    return render(
        request,
        "play/member_history.html",
        {"name": name, "stats": stats, "awaiting": awaiting},
    )


@reader
def member_points(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A member's play, login or not (the history is the member's, not the account's):
    the member's own, or anyone's for managers and accountants."""
    member = get_object_or_404(Member, pk=pk, room=request.room)
    own = member.user_id is not None and member.user_id == request.user.pk
    if not (own or can_see_everyone(request.user)):
        raise PermissionDenied
    stats = selectors.member_stats(room=request.room, member=member)
    awaiting = selectors.hands_awaiting(room=request.room, user=request.user) if own else []
    return render(
        request,
        "play/member_history.html",
        {"name": member.name, "stats": stats, "awaiting": awaiting, "member": member},
    )
