"""Writes of the play app: keyword-only, typed, atomic (``<entity>_<action>``), one
module per concern, every public name here (``services.hand_record(...)``).

The acting user is ``by`` everywhere (as in the members app). A hand is booked on one
path: ``hand_record`` locks the session row, reads the end of the journal, scores
the record on the table's state, and writes the hand (record, result, ruleset
version, the table's state after it) and its ledger lines in one transaction. What
the table as it now is refuses is a ``PlayError`` (no ValidationError: the views map
each apart from a form's errors).
"""

from clubapp.play.services.common import (
    SESSION_ENDED,
    PlayError,
    SessionClosedError,
    TableChangedError,
)
from clubapp.play.services.hands import (
    Preview,
    hand_preview,
    hand_record,
    hand_signoff,
)
from clubapp.play.services.rulesets import ruleset_version_save, ruleset_versions_sync
from clubapp.play.services.sessions import (
    REOPEN_WITHIN,
    SeatError,
    SeatIn,
    session_create,
    session_end,
    session_may_reopen,
    session_reopen,
)
from clubapp.play.services.settlements import settlement_make
from clubapp.play.services.voids import (
    AlreadyVoidedError,
    VoidConfirmationNeeded,
    hand_void,
    hand_void_request,
    void_request_pending,
)

__all__ = [
    "REOPEN_WITHIN",
    "SESSION_ENDED",
    "AlreadyVoidedError",
    "PlayError",
    "Preview",
    "SeatError",
    "SeatIn",
    "SessionClosedError",
    "TableChangedError",
    "VoidConfirmationNeeded",
    "hand_preview",
    "hand_record",
    "hand_signoff",
    "hand_void",
    "hand_void_request",
    "ruleset_version_save",
    "ruleset_versions_sync",
    "session_create",
    "session_end",
    "session_may_reopen",
    "session_reopen",
    "settlement_make",
    "void_request_pending",
]
