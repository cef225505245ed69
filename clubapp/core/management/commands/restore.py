"""``manage.py restore PATH [--force]``: a backup folder back into the configured
database and MEDIA_ROOT (docs/operations.md "Backups and restore"). A SQLite backup
restores into PostgreSQL too: that is how a room moves from SQLite to PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from clubapp.core.backups import BackupError
from clubapp.core.restore import restore


class Command(BaseCommand):
    help = (
        "Restore a backup folder into an empty database (PostgreSQL through the owner "
        "role); --force backs up a non-empty one first, then replaces it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the backup folder (manage.py backup)")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace a database that has accounts or rooms' rows, and the media "
            "(both are backed up first, into BACKUP_ROOT/<time>-before-restore)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restore(
                options["path"],
                force=options["force"],
                say=self.stdout.write,
                detail=self.stdout.write if options["verbosity"] > 1 else lambda line: None,
            )
        except BackupError as error:
            raise CommandError(str(error)) from error
        except DatabaseError as error:
            # e.g. a role that does not own the tables (the owner alias is the one to use)
            raise CommandError(f"the database refused: {error}") from error
