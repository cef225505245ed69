"""What the database itself refuses at a table: play's part of the trigger registry
(``clubapp.core.triggers``), ``TRIGGERS``.

- **append-only**: the journal (hands and reversals), ledger lines, statements,
  sign-offs and ruleset versions (``clubapp.core.appendonly``);
- **a hand's lines sum to zero** (group ``play_zero_sum``): on PostgreSQL a constraint
  trigger deferred to the commit, so the lines of one hand may be inserted one by one
  inside its transaction; on SQLite, which has no deferred triggers, the line that
  completes the hand's count (below) checks the sum, so the same hands pass and fail;
- **ledger lines only with their hand** (group ``play_guards``, like the rest): each
  journal row stores how many ledger lines it has (``Hand.line_count``, written in its
  INSERT by the service). A line that would give a row more lines than that is
  refused, so nothing can be appended to a booked hand, balanced pair or not. On
  PostgreSQL a deferred constraint trigger also checks, at the commit of the row's
  transaction, that the row has exactly its lines: a row's lines exist only in the
  transaction that created it. (SQLite has no deferred triggers: there a row inserted
  by hand with lines still to come could get them in a later transaction, up to its
  count; the app never does that.)
- **seats frozen once a hand is booked**: no seat is added, changed or removed at a
  session that has a journal row;
- **a session's rules frozen once a hand is booked**: its table, ruleset, mode, 园子 size and
  rule, settlement timing and 将 count (its end may still be set: ending, reopening);
- **no sign-off of a voided hand**.

PostgreSQL (plpgsql functions, SQLSTATE 23000) and SQLite (``RAISE(ABORT)``, which is
SQLITE_CONSTRAINT) refuse alike; Django raises ``IntegrityError`` on both.
"""

from __future__ import annotations

from clubapp.core.appendonly import append_only
from clubapp.core.triggers import Trigger

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

_BOOKED = "EXISTS (SELECT 1 FROM play_hand WHERE play_hand.session_id = {session})"


def _changed(columns: tuple[str, ...], distinct: str) -> str:
    return " OR ".join(f"NEW.{c} {distinct} OLD.{c}" for c in columns)


def _function(name: str, body: str, returns: str = "NULL") -> str:
    return (
        f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {body} RETURN {returns}; END $$"
    )


def _refuse(message: str, *args: str) -> str:
    extra = "".join(f", {a}" for a in args)
    return f"RAISE EXCEPTION '{message}'{extra} USING ERRCODE = '23000';"


def _sqlite(name: str, when: str, condition: str, message: str) -> str:
    return (
        f'CREATE TRIGGER "{name}" {when} WHEN {condition} '
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )


def _guard(name: str, table: str, postgresql: tuple[str, ...], sqlite: tuple[str, ...]) -> Trigger:
    return Trigger(name, table, "play_guards", postgresql=postgresql, sqlite=sqlite)


_LINES = "(SELECT COUNT(*) FROM play_ledgerline WHERE hand_id = NEW.hand_id)"
_LINE_COUNT = "(SELECT line_count FROM play_hand WHERE id = NEW.hand_id)"

ZERO_SUM = Trigger(
    "play_ledgerline_balanced",
    "play_ledgerline",
    "play_zero_sum",
    postgresql=(
        "CREATE OR REPLACE FUNCTION play_check_entry_balance() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ DECLARE total bigint; BEGIN "
        "SELECT COALESCE(SUM(points), 0) INTO total FROM play_ledgerline "
        "WHERE hand_id = NEW.hand_id; "
        "IF total <> 0 THEN "
        + _refuse("play: the lines of hand % sum to %, not zero", "NEW.hand_id", "total")
        + " END IF; RETURN NULL; END $$",
        "CREATE CONSTRAINT TRIGGER play_ledgerline_balanced AFTER INSERT ON play_ledgerline "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION play_check_entry_balance()",
    ),
    sqlite=(
        _sqlite(
            "play_ledgerline_balanced",
            "AFTER INSERT ON play_ledgerline",
            f"{_LINES} = {_LINE_COUNT} AND "
            "(SELECT SUM(points) FROM play_ledgerline WHERE hand_id = NEW.hand_id) <> 0",
            "play: the lines of the hand do not sum to zero",
        ),
    ),
)

_SEATS = "play: the seats of session % are frozen (a hand is booked)"
_SEATS_SQLITE = "play: the seats of a session are frozen once a hand is booked"
_SEAT_FROZEN = _function(
    "play_seat_frozen",
    "IF TG_OP <> 'INSERT' THEN IF "
    + _BOOKED.format(session="OLD.session_id")
    + " THEN "
    + _refuse(_SEATS, "OLD.session_id")
    + " END IF; END IF; IF TG_OP <> 'DELETE' THEN IF "
    + _BOOKED.format(session="NEW.session_id")
    + " THEN "
    + _refuse(_SEATS, "NEW.session_id")
    + " END IF; END IF; IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;",
    returns="NEW",
)

GUARDS = (
    _guard(
        "play_ledgerline_with_its_hand",
        "play_ledgerline",
        postgresql=(
            _function(
                "play_line_with_its_hand",
                f"IF {_LINES} > {_LINE_COUNT} THEN "
                + _refuse("play: hand % has all its ledger lines (no more)", "NEW.hand_id")
                + " END IF;",
            ),
            "CREATE TRIGGER play_ledgerline_with_its_hand AFTER INSERT ON play_ledgerline "
            "FOR EACH ROW EXECUTE FUNCTION play_line_with_its_hand()",
        ),
        sqlite=(
            _sqlite(
                "play_ledgerline_with_its_hand",
                "AFTER INSERT ON play_ledgerline",
                f"{_LINES} > {_LINE_COUNT}",
                "play: the hand has all its ledger lines (no more)",
            ),
        ),
    ),
    _guard(
        "play_hand_has_its_lines",
        "play_hand",
        postgresql=(
            _function(
                "play_hand_lines_complete",
                "IF (SELECT COUNT(*) FROM play_ledgerline WHERE hand_id = NEW.id) <> "
                "NEW.line_count THEN "
                + _refuse(
                    "play: hand % commits without its % ledger lines", "NEW.id", "NEW.line_count"
                )
                + " END IF;",
            ),
            "CREATE CONSTRAINT TRIGGER play_hand_has_its_lines AFTER INSERT ON play_hand "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
            "EXECUTE FUNCTION play_hand_lines_complete()",
        ),
        sqlite=(),  # SQLite cannot defer a trigger to the commit
    ),
    _guard(
        "play_seat_frozen_insert",
        "play_seat",
        postgresql=(
            _SEAT_FROZEN,
            "CREATE TRIGGER play_seat_frozen_insert BEFORE INSERT ON play_seat "
            "FOR EACH ROW EXECUTE FUNCTION play_seat_frozen()",
        ),
        sqlite=(
            _sqlite(
                "play_seat_frozen_insert",
                "BEFORE INSERT ON play_seat",
                _BOOKED.format(session="NEW.session_id"),
                _SEATS_SQLITE,
            ),
        ),
    ),
    _guard(
        "play_seat_frozen_update",
        "play_seat",
        postgresql=(
            _SEAT_FROZEN,
            "CREATE TRIGGER play_seat_frozen_update BEFORE UPDATE ON play_seat FOR EACH ROW "
            f"WHEN ({_changed(SEAT_FROZEN, 'IS DISTINCT FROM')}) "
            "EXECUTE FUNCTION play_seat_frozen()",
        ),
        sqlite=(
            _sqlite(
                "play_seat_frozen_update",
                "BEFORE UPDATE ON play_seat",
                f"({_changed(SEAT_FROZEN, 'IS NOT')}) AND ("
                + _BOOKED.format(session="OLD.session_id")
                + " OR "
                + _BOOKED.format(session="NEW.session_id")
                + ")",
                _SEATS_SQLITE,
            ),
        ),
    ),
    _guard(
        "play_seat_frozen_delete",
        "play_seat",
        postgresql=(
            _SEAT_FROZEN,
            "CREATE TRIGGER play_seat_frozen_delete BEFORE DELETE ON play_seat "
            "FOR EACH ROW EXECUTE FUNCTION play_seat_frozen()",
        ),
        sqlite=(
            _sqlite(
                "play_seat_frozen_delete",
                "BEFORE DELETE ON play_seat",
                _BOOKED.format(session="OLD.session_id"),
                _SEATS_SQLITE,
            ),
        ),
    ),
    _guard(
        "play_tablesession_frozen",
        "play_tablesession",
        postgresql=(
            _function(
                "play_session_frozen",
                "IF "
                + _BOOKED.format(session="OLD.id")
                + " THEN "
                + _refuse("play: the rules of session % are frozen (a hand is booked)", "OLD.id")
                + " END IF;",
                returns="NEW",
            ),
            "CREATE TRIGGER play_tablesession_frozen BEFORE UPDATE ON play_tablesession "
            f"FOR EACH ROW WHEN ({_changed(SESSION_FROZEN, 'IS DISTINCT FROM')}) "
            "EXECUTE FUNCTION play_session_frozen()",
        ),
        sqlite=(
            _sqlite(
                "play_tablesession_frozen",
                "BEFORE UPDATE ON play_tablesession",
                f"({_changed(SESSION_FROZEN, 'IS NOT')}) AND " + _BOOKED.format(session="OLD.id"),
                "play: the rules of a session are frozen once a hand is booked",
            ),
        ),
    ),
    _guard(
        "play_handsignoff_not_voided",
        "play_handsignoff",
        postgresql=(
            _function(
                "play_signoff_not_voided",
                "IF EXISTS (SELECT 1 FROM play_hand WHERE voids_id = NEW.hand_id) THEN "
                + _refuse("play: hand % is voided (no sign-off)", "NEW.hand_id")
                + " END IF;",
                returns="NEW",
            ),
            "CREATE TRIGGER play_handsignoff_not_voided BEFORE INSERT ON play_handsignoff "
            "FOR EACH ROW EXECUTE FUNCTION play_signoff_not_voided()",
        ),
        sqlite=(
            _sqlite(
                "play_handsignoff_not_voided",
                "BEFORE INSERT ON play_handsignoff",
                "EXISTS (SELECT 1 FROM play_hand WHERE voids_id = NEW.hand_id)",
                "play: the hand is voided (no sign-off)",
            ),
        ),
    ),
)

APPEND_ONLY_TABLES = (
    "play_hand",
    "play_ledgerline",
    "play_settlement",
    "play_handsignoff",
    "play_rulesetversion",
)

TRIGGERS = (
    *(trigger for table in APPEND_ONLY_TABLES for trigger in append_only(table)),
    ZERO_SUM,
    *GUARDS,
)
