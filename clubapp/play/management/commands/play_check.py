"""Recompute every stored table state from the ledger lines and the results.

    python manage.py play_check [--session N]

Each row of a session's journal keeps the table's state after it (a checkpoint, as
django-hordak's running totals). This command replays each session from scratch
(``scoring.night.replay``, with each row's points summed from its ledger lines) and
reports every stored state that differs; it also checks that the room's tables
marked in play are those with an open session. Exit status 1 on any difference.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubapp.members.models import Table
from clubapp.play import selectors
from clubapp.play.models import TableSession


class Command(BaseCommand):
    help = "Recompute the stored table states from the ledger and report differences."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--session", type=int, help="check this session only")

    def handle(self, *args: Any, **options: Any) -> None:
        sessions = TableSession.objects.order_by("pk")
        if options["session"] is not None:
            sessions = sessions.filter(pk=options["session"])
        problems, checked = [], 0
        for session in sessions.iterator():
            problems += selectors.state_differences(session=session)
            checked += 1
        if options["session"] is None:
            problems += _tables_in_play()
        for problem in problems:
            self.stdout.write(problem)
        self.stdout.write(f"{checked} sessions checked, {len(problems)} differences")
        if problems:
            raise SystemExit(1)


def _tables_in_play() -> list[str]:
    open_at = set(TableSession.objects.filter(ended_at__isnull=True).values_list("table_id"))
    out = []
    for table in Table.objects.all():
        if table.in_play != ((table.pk,) in open_at):
            out.append(f"table {table.number}: marked in_play={table.in_play}")
    return out
