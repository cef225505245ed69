"""What the database itself refuses in the cash book, on PostgreSQL and on SQLite: the
books' part of the trigger registry (``clubapp.core.triggers``), ``TRIGGERS``.

- **append-only**: every book table (``clubapp.core.appendonly``);
- **no row on a closed day** (group ``closed_day``, ``InstallTriggers("closed_day",
  "<model>")``): a ``BEFORE INSERT`` trigger on each dated table refuses a row whose
  ``book_date`` is on or before a day the room has closed (``books_dayclosing``:
  closing a day closes every earlier day too). The services book such a row on the
  next open day instead, marked 补记; the trigger is what stops a bug, a shell or raw
  SQL from writing into a closed day;
- **a submitted plan's draft is frozen** (group ``plan_frozen``).

Each raises an integrity error (SQLSTATE 23000 / SQLITE_CONSTRAINT), so Django raises
``IntegrityError``.
"""

from __future__ import annotations

from clubapp.core.appendonly import append_only
from clubapp.core.triggers import Trigger

GUARD_SUFFIX = "_closed_day_guard"
CLOSINGS = "books_dayclosing"


def guard_name(table: str) -> str:
    return f"{table}{GUARD_SUFFIX}"


def closed_day(table: str) -> Trigger:
    name = guard_name(table)
    closed = (
        f'SELECT 1 FROM "{CLOSINGS}" c WHERE c.room_id = NEW.room_id AND c.date >= NEW.book_date'
    )
    return Trigger(
        name,
        table,
        "closed_day",
        postgresql=(
            "CREATE OR REPLACE FUNCTION books_refuse_closed_day() RETURNS trigger "
            "LANGUAGE plpgsql AS $$ BEGIN "
            f"IF EXISTS ({closed}) THEN "
            "RAISE EXCEPTION '% refused: % is a closed day', TG_TABLE_NAME, NEW.book_date "
            "USING ERRCODE = '23000'; END IF; RETURN NEW; END $$",
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" '
            "FOR EACH ROW EXECUTE FUNCTION books_refuse_closed_day()",
        ),
        sqlite=(
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" WHEN EXISTS ({closed}) '
            f"BEGIN SELECT RAISE(ABORT, '{table} refused: a closed day'); END",
        ),
    )


# ------------------------------------------------- a submitted plan's draft is frozen

PLANS = "books_purchaseplan"
DRAFT_LINES = "books_plandraftline"
SUBMISSIONS = "books_plansubmission"
FROZEN_SUFFIX = "_frozen_once_submitted"


_SUBMITTED = f'SELECT 1 FROM "{SUBMISSIONS}" s WHERE s.plan_id = '
_PG_FROZEN = (
    # One function for the header and its lines, on PostgreSQL.
    "CREATE OR REPLACE FUNCTION books_refuse_submitted_plan() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ DECLARE pid bigint; BEGIN "
    f"IF TG_TABLE_NAME = '{PLANS}' THEN pid := OLD.id; "
    "ELSIF TG_OP = 'INSERT' THEN pid := NEW.plan_id; ELSE pid := OLD.plan_id; END IF; "
    f"IF EXISTS ({_SUBMITTED}pid) THEN "
    "RAISE EXCEPTION '% refused: the plan is submitted (% refused)', TG_TABLE_NAME, "
    "TG_OP USING ERRCODE = '23000'; END IF; "
    "IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW; END $$"
)
_SQLITE_FROZEN = "BEGIN SELECT RAISE(ABORT, '{table} refused: the plan is submitted'); END"


def _frozen_pg(table: str, events: str) -> Trigger:
    name = f"{table}{FROZEN_SUFFIX}"
    return Trigger(
        name,
        table,
        "plan_frozen",
        postgresql=(
            _PG_FROZEN,
            f'CREATE TRIGGER "{name}" BEFORE {events} ON "{table}" '
            "FOR EACH ROW EXECUTE FUNCTION books_refuse_submitted_plan()",
        ),
    )


def _frozen_sqlite(table: str, event: str, plan_id: str) -> Trigger:
    name = f"{table}_{event.lower()}{FROZEN_SUFFIX}"
    return Trigger(
        name,
        table,
        "plan_frozen",
        sqlite=(
            f'CREATE TRIGGER "{name}" BEFORE {event} ON "{table}" '
            f"WHEN EXISTS ({_SUBMITTED}{plan_id}) " + _SQLITE_FROZEN.format(table=table),
        ),
    )


#: A plan's header and draft lines refuse every change once it is submitted: what was
#: submitted lives in the append-only submission rows; nothing may pretend otherwise
#: (a renamed header, a line added afterwards).
PLAN_FROZEN = (
    _frozen_pg(PLANS, "UPDATE"),
    _frozen_pg(DRAFT_LINES, "INSERT OR UPDATE OR DELETE"),
    _frozen_sqlite(PLANS, "UPDATE", "OLD.id"),
    _frozen_sqlite(DRAFT_LINES, "INSERT", "NEW.plan_id"),
    _frozen_sqlite(DRAFT_LINES, "UPDATE", "OLD.plan_id"),
    _frozen_sqlite(DRAFT_LINES, "DELETE", "OLD.plan_id"),
)

APPEND_ONLY_TABLES = (
    "books_incomeentry",
    "books_handoverslip",
    "books_handoverline",
    "books_slipdecision",
    "books_plansubmission",
    "books_planline",
    "books_plandecision",
    "books_plancompletion",
    "books_expense",
    "books_expenseconfirmation",
    "books_dayclosing",
    "books_reversal",
)
DATED_TABLES = (
    "books_incomeentry",
    "books_handoverslip",
    "books_slipdecision",
    "books_expense",
    "books_reversal",
)

TRIGGERS = (
    *(trigger for table in APPEND_ONLY_TABLES for trigger in append_only(table)),
    *(closed_day(table) for table in DATED_TABLES),
    *PLAN_FROZEN,
)
