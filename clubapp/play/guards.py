"""What the database itself refuses at a table, beyond the append-only base (core):

- **ledger lines only with their hand**: each journal row stores how many ledger lines
  it has (``Hand.line_count``, written in its INSERT by the service). A line that
  would give a row more lines than that is refused, so nothing can be appended to a
  booked hand, balanced pair or not. On PostgreSQL a deferred constraint trigger also
  checks, at the commit of the row's transaction, that the row has exactly its lines:
  a row's lines exist only in the transaction that created it. (SQLite has no deferred
  triggers: there a row inserted by hand with lines still to come could get them in a
  later transaction, up to its count; the app never does that.)
- **seats frozen once a hand is booked**: no seat is added, changed or removed at a
  session that has a journal row;
- **a session's rules frozen once a hand is booked**: its table, ruleset, mode, 园子 size and
  rule, settlement timing and 将 count (its end may still be set: ending, reopening);
- **no sign-off of a voided hand**.

PostgreSQL (plpgsql functions, SQLSTATE 23000) and SQLite (``RAISE(ABORT)``, which is
SQLITE_CONSTRAINT) refuse alike; Django raises ``IntegrityError`` on both. SQLite
rebuilds a table on most ALTERs and drops its triggers: a later migration that alters
``play_ledgerline``, ``play_seat``, ``play_tablesession`` or ``play_handsignoff`` must
call ``create`` again (``clubapp/play/tests/test_ledger.py`` and ``test_session_create.py``
fail otherwise).
"""

from __future__ import annotations

from typing import Any

#: the session's columns a booked hand depends on
SESSION_FROZEN = (
    "table_id",
    "ruleset_id",
    "mode",
    "garden_size",
    "end_when_out",
    "settle_every",
    "jiang_count",
)
SEAT_FROZEN = ("session_id", "wind", "name", "user_id", "visit_id", "guest_reason")

TRIGGERS = {
    # name: table
    "play_ledgerline_with_its_hand": "play_ledgerline",
    "play_hand_has_its_lines": "play_hand",  # PostgreSQL only (deferred)
    "play_seat_frozen_insert": "play_seat",
    "play_seat_frozen_update": "play_seat",
    "play_seat_frozen_delete": "play_seat",
    "play_tablesession_frozen": "play_tablesession",
    "play_handsignoff_not_voided": "play_handsignoff",
}

_BOOKED = "EXISTS (SELECT 1 FROM play_hand WHERE play_hand.session_id = {session})"


def _changed(columns: tuple[str, ...], distinct: str) -> str:
    return " OR ".join(f"NEW.{c} {distinct} OLD.{c}" for c in columns)


def _postgresql() -> list[str]:
    def function(name: str, body: str, returns: str = "NULL") -> str:
        return (
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN {body} RETURN {returns}; END $$"
        )

    def refuse(message: str, *args: str) -> str:
        extra = "".join(f", {a}" for a in args)
        return f"RAISE EXCEPTION '{message}'{extra} USING ERRCODE = '23000';"

    seats = "play: the seats of session % are frozen (a hand is booked)"
    return [
        function(
            "play_line_with_its_hand",
            "IF (SELECT COUNT(*) FROM play_ledgerline WHERE hand_id = NEW.hand_id) > "
            "(SELECT line_count FROM play_hand WHERE id = NEW.hand_id) THEN "
            + refuse("play: hand % has all its ledger lines (no more)", "NEW.hand_id")
            + " END IF;",
        ),
        "CREATE TRIGGER play_ledgerline_with_its_hand AFTER INSERT ON play_ledgerline "
        "FOR EACH ROW EXECUTE FUNCTION play_line_with_its_hand()",
        function(
            "play_hand_lines_complete",
            "IF (SELECT COUNT(*) FROM play_ledgerline WHERE hand_id = NEW.id) <> "
            "NEW.line_count THEN "
            + refuse("play: hand % commits without its % ledger lines", "NEW.id", "NEW.line_count")
            + " END IF;",
        ),
        "CREATE CONSTRAINT TRIGGER play_hand_has_its_lines AFTER INSERT ON play_hand "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION play_hand_lines_complete()",
        function(
            "play_seat_frozen",
            "IF TG_OP <> 'INSERT' THEN IF "
            + _BOOKED.format(session="OLD.session_id")
            + " THEN "
            + refuse(seats, "OLD.session_id")
            + " END IF; END IF; IF TG_OP <> 'DELETE' THEN IF "
            + _BOOKED.format(session="NEW.session_id")
            + " THEN "
            + refuse(seats, "NEW.session_id")
            + " END IF; END IF; IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;",
            returns="NEW",
        ),
        "CREATE TRIGGER play_seat_frozen_insert BEFORE INSERT ON play_seat "
        "FOR EACH ROW EXECUTE FUNCTION play_seat_frozen()",
        "CREATE TRIGGER play_seat_frozen_update BEFORE UPDATE ON play_seat FOR EACH ROW "
        f"WHEN ({_changed(SEAT_FROZEN, 'IS DISTINCT FROM')}) EXECUTE FUNCTION play_seat_frozen()",
        "CREATE TRIGGER play_seat_frozen_delete BEFORE DELETE ON play_seat "
        "FOR EACH ROW EXECUTE FUNCTION play_seat_frozen()",
        function(
            "play_session_frozen",
            "IF "
            + _BOOKED.format(session="OLD.id")
            + " THEN "
            + refuse("play: the rules of session % are frozen (a hand is booked)", "OLD.id")
            + " END IF;",
            returns="NEW",
        ),
        "CREATE TRIGGER play_tablesession_frozen BEFORE UPDATE ON play_tablesession FOR EACH ROW "
        f"WHEN ({_changed(SESSION_FROZEN, 'IS DISTINCT FROM')}) "
        "EXECUTE FUNCTION play_session_frozen()",
        function(
            "play_signoff_not_voided",
            "IF EXISTS (SELECT 1 FROM play_hand WHERE voids_id = NEW.hand_id) THEN "
            + refuse("play: hand % is voided (no sign-off)", "NEW.hand_id")
            + " END IF;",
            returns="NEW",
        ),
        "CREATE TRIGGER play_handsignoff_not_voided BEFORE INSERT ON play_handsignoff "
        "FOR EACH ROW EXECUTE FUNCTION play_signoff_not_voided()",
    ]


def _sqlite() -> list[str]:
    def trigger(name: str, when: str, condition: str, message: str) -> str:
        return (
            f'CREATE TRIGGER "{name}" {when} WHEN {condition} '
            f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
        )

    seats = "play: the seats of a session are frozen once a hand is booked"
    return [
        trigger(
            "play_ledgerline_with_its_hand",
            "AFTER INSERT ON play_ledgerline",
            "(SELECT COUNT(*) FROM play_ledgerline WHERE hand_id = NEW.hand_id) > "
            "(SELECT line_count FROM play_hand WHERE id = NEW.hand_id)",
            "play: the hand has all its ledger lines (no more)",
        ),
        trigger(
            "play_seat_frozen_insert",
            "BEFORE INSERT ON play_seat",
            _BOOKED.format(session="NEW.session_id"),
            seats,
        ),
        trigger(
            "play_seat_frozen_update",
            "BEFORE UPDATE ON play_seat",
            f"({_changed(SEAT_FROZEN, 'IS NOT')}) AND ("
            + _BOOKED.format(session="OLD.session_id")
            + " OR "
            + _BOOKED.format(session="NEW.session_id")
            + ")",
            seats,
        ),
        trigger(
            "play_seat_frozen_delete",
            "BEFORE DELETE ON play_seat",
            _BOOKED.format(session="OLD.session_id"),
            seats,
        ),
        trigger(
            "play_tablesession_frozen",
            "BEFORE UPDATE ON play_tablesession",
            f"({_changed(SESSION_FROZEN, 'IS NOT')}) AND " + _BOOKED.format(session="OLD.id"),
            "play: the rules of a session are frozen once a hand is booked",
        ),
        trigger(
            "play_handsignoff_not_voided",
            "BEFORE INSERT ON play_handsignoff",
            "EXISTS (SELECT 1 FROM play_hand WHERE voids_id = NEW.hand_id)",
            "play: the hand is voided (no sign-off)",
        ),
    ]


def drop_statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [f'DROP TRIGGER IF EXISTS "{n}" ON "{t}"' for n, t in TRIGGERS.items()]
    return [f'DROP TRIGGER IF EXISTS "{n}"' for n in TRIGGERS]


def create_statements(vendor: str) -> list[str]:
    """Every guard's statements on ``vendor`` (the same triggers dropped first)."""
    if vendor == "postgresql":
        return drop_statements(vendor) + _postgresql()
    if vendor == "sqlite":
        return drop_statements(vendor) + _sqlite()
    raise NotImplementedError(f"the play guards are not written for {vendor}")


def create(apps: Any, schema_editor: Any) -> None:
    """RunPython: install the guards (again, after a migration that rebuilt a table)."""
    for statement in create_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement, params=None)


def drop(apps: Any, schema_editor: Any) -> None:
    for statement in drop_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement, params=None)
