"""Reads of the core app."""

from __future__ import annotations

from clubapp.core.models import DEFAULT_ROOM_SLUG, Room


def room_get() -> Room:
    """The room this deployment serves.

    Falls back to an unsaved default so pages render before fixtures are loaded.
    """
    room = Room.objects.filter(slug=DEFAULT_ROOM_SLUG).first()
    return room if room is not None else Room(slug=DEFAULT_ROOM_SLUG, name="棋牌室")
