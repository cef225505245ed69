"""What the members pages share: a member or card of this room, a refusal shown."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.shortcuts import get_object_or_404

from clubapp.core.http import AuthenticatedRequest
from clubapp.members.models import Card, Member


def room_member(request: AuthenticatedRequest, pk: int) -> Member:
    return get_object_or_404(Member.objects.select_related("room"), pk=pk, room=request.room)


def room_card(request: AuthenticatedRequest, pk: int) -> Card:
    return get_object_or_404(
        Card.objects.select_related("room", "member", "member__room"), pk=pk, room=request.room
    )


def form_errors(form: Form, exc: ValidationError) -> None:
    """A service's refusal on the form: at the field it names, else above the form."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc)


def flash_errors(request: AuthenticatedRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)
