"""``manage.py flush`` that knows the triggers of the books, on SQLite.

The books refuse DELETE in the database itself (``clubapp.core.triggers``). A flush
(also what the test runner does between transactional tests) empties every table with
DELETE on SQLite, where PostgreSQL uses TRUNCATE, which fires no row trigger. So on
SQLite this command drops every trigger, runs Django's own flush, and creates the same
triggers again, in one transaction: emptying the whole database is the one way rows
leave the books, on both databases; nothing else changes.

It overrides Django's command the documented way (an app's command of the same name
replaces a built-in one: "Overriding commands" in Django's how-to on management
commands), and extends only ``handle()``; no database backend method is overridden.
``sqlflush`` still prints Django's plain DELETEs, which the triggers refuse on SQLite.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections, transaction


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "sqlite":
            super().handle(**options)
            return
        with transaction.atomic(using=connection.alias):
            with connection.cursor() as cursor:
                cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
                triggers = cursor.fetchall()
                for name, _ in triggers:
                    cursor.execute(f'DROP TRIGGER "{name}"')
            super().handle(**options)
            with connection.cursor() as cursor:
                # post_migrate, which the flush emits, may have put some back already.
                cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                present = {name for (name,) in cursor.fetchall()}
                for name, sql in triggers:
                    if name not in present:
                        cursor.execute(sql)
