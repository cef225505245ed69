"""The PostgreSQL privileges of the app's plain role (docs/operations.md).

The owner role creates the tables (migrations); the app's role may only read and
write rows: SELECT, INSERT, UPDATE, DELETE on the tables and USAGE on the sequences,
no TRUNCATE, no DDL, not a superuser. UPDATE and DELETE on the books are still
refused by their append-only triggers, which the app's role can neither drop nor
disable (only an owner can).
"""

from __future__ import annotations

import re

# Role and schema names are written into SQL: plain identifiers only.
_IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def app_role_grants(*, role: str, owner: str, schema: str = "public") -> list[str]:
    """The statements an owner runs once to let ``role`` use the app's tables."""
    for name in (role, owner, schema):
        if not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a plain PostgreSQL identifier")
    return [
        f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"',
        f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "{schema}" TO "{role}"',
        f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "{schema}" TO "{role}"',
        # Tables and sequences that later migrations create get the same.
        f'ALTER DEFAULT PRIVILEGES FOR ROLE "{owner}" IN SCHEMA "{schema}" '
        f'GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "{role}"',
        f'ALTER DEFAULT PRIVILEGES FOR ROLE "{owner}" IN SCHEMA "{schema}" '
        f'GRANT USAGE, SELECT ON SEQUENCES TO "{role}"',
    ]
