"""The database refuses a book row on a closed day, on PostgreSQL and on SQLite.

``ClosedDayGuard("<model>")`` is a migration operation: a ``BEFORE INSERT`` trigger
on the model's table refuses a row whose ``book_date`` is on or before a day the
room has closed (``books_dayclosing``: closing a day closes every earlier day too).
The services book such a row on the next open day instead, marked 补记; the trigger
is what stops a bug, a shell or raw SQL from writing into a closed day. Like the
append-only triggers it raises an integrity error (SQLSTATE 23000 /
SQLITE_CONSTRAINT), so Django raises ``IntegrityError``.

SQLite drops a table's triggers when a later migration rebuilds the table: run the
operation again in that migration (``tests/test_closed_day_guard.py`` fails otherwise).
"""

from __future__ import annotations

from clubapp.core.appendonly import TableTriggers

GUARD_SUFFIX = "_closed_day_guard"
CLOSINGS = "books_dayclosing"


def guard_name(table: str) -> str:
    return f"{table}{GUARD_SUFFIX}"


def create_sql(vendor: str, table: str) -> list[str]:
    name = guard_name(table)
    closed = (
        f'SELECT 1 FROM "{CLOSINGS}" c WHERE c.room_id = NEW.room_id AND c.date >= NEW.book_date'
    )
    if vendor == "postgresql":
        return [
            "CREATE OR REPLACE FUNCTION books_refuse_closed_day() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN "
            f"IF EXISTS ({closed}) THEN "
            "RAISE EXCEPTION '% refused: % is a closed day', TG_TABLE_NAME, NEW.book_date "
            "USING ERRCODE = '23000'; END IF; RETURN NEW; END $$",
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" '
            "FOR EACH ROW EXECUTE FUNCTION books_refuse_closed_day()",
        ]
    if vendor == "sqlite":
        return [
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" WHEN EXISTS ({closed}) '
            f"BEGIN SELECT RAISE(ABORT, '{table} refused: a closed day'); END"
        ]
    raise NotImplementedError(f"closed-day guards are not written for {vendor}")


def drop_sql(vendor: str, table: str) -> list[str]:
    on_table = f' ON "{table}"' if vendor == "postgresql" else ""
    return [f'DROP TRIGGER IF EXISTS "{guard_name(table)}"{on_table}']


class ClosedDayGuard(TableTriggers):
    """Migration operation: no row of this model on a closed day (reversible)."""

    purpose = "Refuse {} rows on a closed day in the database"
    fragment = "closed_day_guard"
    create_sql = staticmethod(create_sql)
    drop_sql = staticmethod(drop_sql)


# ------------------------------------------------- a submitted plan's draft is frozen

PLANS = "books_purchaseplan"
DRAFT_LINES = "books_plandraftline"
SUBMISSIONS = "books_plansubmission"
FROZEN_SUFFIX = "_frozen_once_submitted"


def frozen_trigger_names(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [f"{PLANS}{FROZEN_SUFFIX}", f"{DRAFT_LINES}{FROZEN_SUFFIX}"]
    return [
        f"{PLANS}_update{FROZEN_SUFFIX}",
        *(f"{DRAFT_LINES}_{event}{FROZEN_SUFFIX}" for event in ("insert", "update", "delete")),
    ]


def frozen_create_sql(vendor: str) -> list[str]:
    """A plan's header and draft lines refuse every change once it is submitted: what
    was submitted lives in the append-only submission rows; nothing may pretend
    otherwise (a renamed header, a line added afterwards)."""
    submitted = f'SELECT 1 FROM "{SUBMISSIONS}" s WHERE s.plan_id = '
    if vendor == "postgresql":
        plans, lines = frozen_trigger_names(vendor)
        return [
            "CREATE OR REPLACE FUNCTION books_refuse_submitted_plan() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ DECLARE pid bigint; BEGIN "
            f"IF TG_TABLE_NAME = '{PLANS}' THEN pid := OLD.id; "
            "ELSIF TG_OP = 'INSERT' THEN pid := NEW.plan_id; ELSE pid := OLD.plan_id; END IF; "
            f"IF EXISTS ({submitted}pid) THEN "
            "RAISE EXCEPTION '% refused: the plan is submitted (% refused)', TG_TABLE_NAME, "
            "TG_OP USING ERRCODE = '23000'; END IF; "
            "IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW; END $$",
            f'CREATE TRIGGER "{plans}" BEFORE UPDATE ON "{PLANS}" '
            "FOR EACH ROW EXECUTE FUNCTION books_refuse_submitted_plan()",
            f'CREATE TRIGGER "{lines}" BEFORE INSERT OR UPDATE OR DELETE ON "{DRAFT_LINES}" '
            "FOR EACH ROW EXECUTE FUNCTION books_refuse_submitted_plan()",
        ]
    if vendor == "sqlite":
        plans, *line_triggers = frozen_trigger_names(vendor)
        refuse = "BEGIN SELECT RAISE(ABORT, '{table} refused: the plan is submitted'); END"
        statements = [
            f'CREATE TRIGGER "{plans}" BEFORE UPDATE ON "{PLANS}" '
            f"WHEN EXISTS ({submitted}OLD.id) " + refuse.format(table=PLANS)
        ]
        for name, event, row in zip(
            line_triggers, ("INSERT", "UPDATE", "DELETE"), ("NEW", "OLD", "OLD"), strict=True
        ):
            statements.append(
                f'CREATE TRIGGER "{name}" BEFORE {event} ON "{DRAFT_LINES}" '
                f"WHEN EXISTS ({submitted}{row}.plan_id) " + refuse.format(table=DRAFT_LINES)
            )
        return statements
    raise NotImplementedError(f"plan guards are not written for {vendor}")


def frozen_drop_sql(vendor: str) -> list[str]:
    names = frozen_trigger_names(vendor)
    if vendor == "postgresql":
        return [
            f'DROP TRIGGER IF EXISTS "{names[0]}" ON "{PLANS}"',
            f'DROP TRIGGER IF EXISTS "{names[1]}" ON "{DRAFT_LINES}"',
        ]
    return [f'DROP TRIGGER IF EXISTS "{name}"' for name in names]
