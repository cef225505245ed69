"""Django's SQLite backend, with a flush that knows the append-only triggers.

The books refuse DELETE in the database itself (``clubapp.core.appendonly``).
``manage.py flush`` (and the test runner between transactional tests) empties every
table with DELETE on SQLite, where PostgreSQL uses TRUNCATE, which fires no row
trigger. So on SQLite a flush drops the triggers of the tables it empties (the
append-only ones, and the guards that refuse, say, removing the seats of a booked
session: ``clubapp/play/guards.py``), deletes, and creates the same triggers again, in
one transaction. Emptying the whole
database is the one way rows leave the books, on both databases; nothing else changes.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.sqlite3 import base


class DatabaseOperations(base.DatabaseOperations):  # type: ignore[name-defined]
    def sql_flush(
        self,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        statements = super().sql_flush(
            style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
        if not statements:
            return statements
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
            triggers = [(name, sql) for name, table, sql in cursor.fetchall() if table in tables]
        drops = [f'DROP TRIGGER "{name}";' for name, _ in triggers]
        creates = [f"{sql};" for _, sql in triggers]
        return drops + statements + creates


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
