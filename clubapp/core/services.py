"""Writes of the core app."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubapp.core.models import DocumentCounter, Room
from clubapp.core.roles import Role


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    roles: list[Role] | tuple[Role, ...] = (),
    first_name: str = "",
    is_staff: bool = False,
) -> AbstractUser:
    """Create an active account in the given role groups.

    Managers work in the admin, so they are staff; nobody becomes a superuser here.
    """
    user = get_user_model().objects.create_user(
        username=username,
        password=password,
        first_name=first_name,
        is_staff=is_staff or Role.MANAGER in roles,
    )
    if roles:
        user.groups.set(Group.objects.filter(name__in=[Role(r).value for r in roles]))
    return user


@transaction.atomic
def next_number(*, key: str) -> int:
    """The next number of the series ``key`` (1, 2, 3, ...), without gaps or repeats.

    The counter row is locked (``select_for_update``) until the caller's transaction
    ends, so a receipt number is only spent if the receipt itself is committed.
    SQLite locks the whole database on write instead, which is as safe.
    """
    counter, _ = DocumentCounter.objects.select_for_update().get_or_create(key=key)
    DocumentCounter.objects.filter(pk=counter.pk).update(value=F("value") + 1)
    counter.refresh_from_db(fields=["value"])
    return counter.value


@transaction.atomic
def room_settings_update(
    *,
    room: Room,
    card_fee: Decimal,
    renewal_fee: Decimal,
    guest_hourly_fee: Decimal,
    notice: str,
) -> Room:
    """The room's fees (工本费, 年审费, the non-members' hourly 器材损耗费) and its notice:
    one room-wide row (core.Room), written here whichever page edits it."""
    for amount in (card_fee, renewal_fee, guest_hourly_fee):
        if not isinstance(amount, Decimal) or amount < 0:
            raise ValidationError(_("A fee cannot be negative."), code="fee_negative")
    room = Room.objects.select_for_update().get(pk=room.pk)
    room.card_fee = card_fee
    room.renewal_fee = renewal_fee
    room.guest_hourly_fee = guest_hourly_fee
    room.notice = (notice or "").strip()
    room.save(update_fields=["card_fee", "renewal_fee", "guest_hourly_fee", "notice"])
    return room
