"""The room's tables: added, renamed, 停用 / 启用, occupied, in play."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubapp.core.models import Room
from clubapp.members import selectors
from clubapp.members.models import Table
from clubapp.members.services.common import must_manage


def _table_name(name: str, *, room: Room | int, table: Table | None = None) -> str:
    """The name, checked: at most 30 characters, and no other table of the room's."""
    name = (name or "").strip()
    if len(name) > 30:
        raise ValidationError(_("A table's name has at most 30 characters."), code="too_long")
    others = Table.objects.filter(room=room, name=name)
    if table is not None:
        others = others.exclude(pk=table.pk)
    if name and others.exists():
        raise _name_taken(name)
    return name


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        _("Another table of the room is called %(name)s already.") % {"name": name},
        code="table_name_taken",
    )


@transaction.atomic
def table_create(*, room: Room, number: int, name: str = "", by: User) -> Table:
    """A new table of the room (a number the room does not use yet)."""
    must_manage(by)
    if not isinstance(number, int) or not 1 <= number <= 999:
        raise ValidationError(
            _("A table number is a whole number from 1 to 999."), code="table_number"
        )
    if Table.objects.filter(room=room, number=number).exists():
        raise ValidationError(
            _("Table %(number)s exists already.") % {"number": number}, code="table_exists"
        )
    name = _table_name(name, room=room)
    try:
        with transaction.atomic():
            return Table.objects.create(room=room, number=number, name=name)
    except IntegrityError:
        if name and Table.objects.filter(room=room, name=name).exists():
            raise _name_taken(name) from None
        raise ValidationError(
            _("Table %(number)s exists already.") % {"number": number}, code="table_exists"
        ) from None


@transaction.atomic
def table_rename(*, table: Table, name: str, by: User) -> Table:
    """Change what the room calls a table; its number (what sessions name) stays."""
    must_manage(by)
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.name = _table_name(name, room=table.room_id, table=table)
    try:
        with transaction.atomic():
            table.save(update_fields=["name"])
    except IntegrityError:
        raise _name_taken(table.name) from None
    return table


@transaction.atomic
def table_set_active(*, table: Table, active: bool, by: User) -> Table:
    """停用 / 启用: an inactive table is never free and is not offered to new sessions.

    A table in play (an open session) cannot be taken out of use until it ends.
    """
    must_manage(by)
    table = Table.objects.select_for_update().select_related("room").get(pk=table.pk)
    if not active and table.number in selectors.table_numbers_in_play(room=table.room):
        raise ValidationError(
            _("This table is in play: take it out of use after the session ends."),
            code="table_in_play",
        )
    table.active = active
    if not active:
        table.occupied = False
    table.save(update_fields=["active", "occupied"])
    return table


@transaction.atomic
def table_set_occupied(*, table: Table, occupied: bool) -> Table:
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.active:
        raise ValidationError(_("This table is out of use."), code="table_inactive")
    table.occupied = occupied
    table.save(update_fields=["occupied"])
    return table


@transaction.atomic
def table_set_in_play(*, room: Room, number: int, in_play: bool) -> Table | None:
    """The play app's mark: a table session is open at the room's table ``number`` (or
    no longer is). A number that is not one of the room's tables marks nothing."""
    table = Table.objects.select_for_update().filter(room=room, number=number).first()
    if table is not None and table.in_play != in_play:
        table.in_play = in_play
        table.save(update_fields=["in_play"])
    return table
