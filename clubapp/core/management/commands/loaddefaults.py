"""Load fixtures/*.json, inserting only the rows that are not there yet.

`loaddata` overwrites a row found by natural key, which would undo a room's
own edits (its name, its address) on every `make run`. This command only adds
what is missing and never changes an existing row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core import serializers
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction


class Command(BaseCommand):
    help = "Insert the rows of fixtures/*.json that do not exist yet (never updates)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir", default=str(Path(settings.BASE_DIR) / "fixtures"), help="fixture folder"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        added = kept = 0
        for path in sorted(Path(options["dir"]).glob("*.json")):
            with transaction.atomic(), path.open(encoding="utf-8") as stream:
                for obj in serializers.deserialize("json", stream, handle_forward_references=True):
                    # Natural keys resolve obj.object.pk to the existing row, if any.
                    model = type(obj.object)
                    if (
                        obj.object.pk is not None
                        and model._default_manager.filter(pk=obj.object.pk).exists()
                    ):
                        kept += 1
                        continue
                    obj.save()
                    added += 1
        self.stdout.write(f"Fixtures: {added} row(s) added, {kept} already present.")
