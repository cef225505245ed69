"""Print the SQL that lets the app's plain PostgreSQL role use the tables.

python manage.py db_app_role club_app --owner club_owner | psql "$MIGRATE_DATABASE_URL"
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubapp.core.dbroles import app_role_grants


class Command(BaseCommand):
    help = "Print the GRANT statements for the app's plain database role (docs/operations.md)."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="the role the app connects as (DATABASE_URL)")
        parser.add_argument("--owner", required=True, help="the role that runs migrations")
        parser.add_argument("--schema", default="public")

    def handle(self, *args: Any, **options: Any) -> None:
        for statement in app_role_grants(
            role=options["role"], owner=options["owner"], schema=options["schema"]
        ):
            self.stdout.write(statement + ";")
