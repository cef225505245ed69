"""python manage.py report --month 2026-11 --format xlsx|pdf --out FILE"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubapp.core.models import DEFAULT_ROOM_SLUG, Room
from clubapp.core.rooms import scope
from clubapp.reports import selectors, workbooks
from clubapp.reports.pdf import render_template_pdf
from clubapp.reports.selectors import Month
from clubapp.reports.views import monthly_context


class Command(BaseCommand):
    help = "Write the monthly report (月报) of a month as xlsx or PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--month", required=True, help="the month, e.g. 2026-11")
        parser.add_argument("--format", required=True, choices=["xlsx", "pdf"])
        parser.add_argument("--out", required=True, help="the file to write")
        parser.add_argument(
            "--room",
            default=DEFAULT_ROOM_SLUG,
            help=f"the room's code (default {DEFAULT_ROOM_SLUG})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            month = Month.parse(options["month"])
        except ValueError as exc:
            raise CommandError(f"--month: give a month as YYYY-MM, e.g. 2026-11 ({exc})") from exc
        room = Room.objects.filter(slug=options["room"]).first()
        if room is None:
            codes = ", ".join(Room.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(f"--room: no room {options['room']!r} (the rooms: {codes})")
        with scope(room):
            report = selectors.monthly_report(room=room, month=month)
            if options["format"] == "xlsx":
                data = workbooks.monthly_workbook(report)
            else:
                data = render_template_pdf(
                    "reports/monthly.html", monthly_context(report, pdf=True)
                )
        out = Path(options["out"])
        out.write_bytes(data)
        income = report.income
        self.stdout.write(
            f"{month.label}: income {income.total} yuan in {income.count} entries; "
            f"{len(data):,} bytes written to {out}"
        )
