"""``manage.py backup [--out PATH]``: the database and the media, in one folder that
``manage.py restore`` takes back (docs/operations.md "Backups and restore")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from clubapp.core.backups import ROWS, BackupError, backup


class Command(BaseCommand):
    help = (
        "Back up the database (SQLite's online backup, or pg_dump -Fc as the owner role) "
        "and the media into a folder, default BACKUP_ROOT/<UTC time>."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, help="the folder to write (must not exist)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            folder, manifest = backup(out=options["out"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        except DatabaseError as error:
            # e.g. a role that does not own the tables (the owner alias is the one to use)
            raise CommandError(f"the database refused: {error}") from error
        rows = sum(table[ROWS] for table in manifest["figures"].values())
        versions = ", ".join(
            f"{key} {manifest[key]}"
            for key in ("sqlite_version", "server_version", "pg_dump_version")
            if key in manifest
        )
        self.stdout.write(
            f"{folder}: {manifest['engine']} ({versions}), {len(manifest['figures'])} tables, "
            f"{rows} rows, {manifest['media']['files']} media files"
        )
