"""Recompute every stored table state from the ledger lines and the results.

    python manage.py play_check [--room SLUG] [--session N]

Each row of a session's journal keeps the table's state after it (a checkpoint, as
django-hordak's running totals). This command replays each session from scratch
(``scoring.night.replay``, with each row's points summed from its ledger lines) and
reports every stored state that differs; it also checks that the room's tables
marked in play are those with an open session. One room at a time (``--room``, by
default the first), read in its scope (``clubapp.core.rooms.scope``). Exit status 1 on
any difference.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubapp.core.models import Room
from clubapp.core.rooms import scope
from clubapp.members.models import Table
from clubapp.play import selectors
from clubapp.play.models import TableSession


class Command(BaseCommand):
    help = "Recompute the stored table states from the ledger and report differences."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--session", type=int, help="check this session only")
        parser.add_argument("--room", help="the room's code (default: the first room)")

    def handle(self, *args: Any, **options: Any) -> None:
        rooms = Room.objects.order_by("pk")
        room = rooms.filter(slug=options["room"]).first() if options["room"] else rooms.first()
        if room is None:
            codes = ", ".join(rooms.order_by("slug").values_list("slug", flat=True))
            raise CommandError(f"--room: no room {options['room']!r} (the rooms: {codes})")
        with scope(room):
            problems, checked = self.differences(room, options["session"])
        for problem in problems:
            self.stdout.write(problem)
        self.stdout.write(f"{checked} sessions checked, {len(problems)} differences")
        if problems:
            raise SystemExit(1)

    def differences(self, room: Room, session: int | None) -> tuple[list[str], int]:
        sessions = TableSession.objects.filter(room=room).order_by("pk")
        if session is not None:
            sessions = sessions.filter(pk=session)
        problems: list[str] = []
        checked = 0
        for row in sessions.iterator():
            problems += selectors.state_differences(session=row)
            checked += 1
        if session is None:
            problems += _tables_in_play(room)
        return problems, checked


def _tables_in_play(room: Room) -> list[str]:
    open_at = set(
        TableSession.objects.filter(room=room, ended_at__isnull=True).values_list("table_id")
    )
    out = []
    for table in Table.objects.filter(room=room):
        if table.in_play != ((table.pk,) in open_at):
            out.append(f"table {table.number}: marked in_play={table.in_play}")
    return out
