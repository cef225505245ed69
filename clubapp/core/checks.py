"""Deploy checks of the core app: the app's database role (docs/operations.md)."""

from __future__ import annotations

from typing import Any

from django.core.checks import Tags, Warning, register
from django.db import DatabaseError, connections


@register(Tags.security, deploy=True)
def database_role(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """The app must not connect as a PostgreSQL superuser or as the tables' owner.

    A superuser bypasses every trigger (the append-only books could be rewritten),
    and an owner may drop or disable them and TRUNCATE. Migrations run as the owner
    role (the ``owner`` alias, MIGRATE_DATABASE_URL); the app as a plain role.
    """
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user, current_setting('is_superuser') = 'on'")
            user, superuser = cursor.fetchone()
            cursor.execute(
                "SELECT count(*) FROM pg_tables "
                "WHERE schemaname = current_schema() AND tableowner = current_user"
            )
            (owned,) = cursor.fetchone()
    except DatabaseError:
        return []  # no database to ask (a build step): nothing to judge
    warnings = []
    if superuser:
        warnings.append(
            Warning(
                f"The app connects to PostgreSQL as the superuser {user!r}: a superuser "
                "bypasses the triggers that keep the books append-only.",
                hint="Connect as a plain role (docs/operations.md); run migrations with "
                "MIGRATE_DATABASE_URL (the owner role).",
                id="core.W001",
            )
        )
    elif owned:
        warnings.append(
            Warning(
                f"The app's PostgreSQL role {user!r} owns {owned} tables: an owner can "
                "disable triggers and TRUNCATE.",
                hint="Let an owner role run migrations (MIGRATE_DATABASE_URL) and connect "
                "the app as a plain role (docs/operations.md).",
                id="core.W002",
            )
        )
    return warnings
