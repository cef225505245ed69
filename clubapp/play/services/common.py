"""What the play services share: the session lock, the acting account, and the errors
of a table as it now is (``PlayError``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy

from clubapp.play.models import TableSession

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: said wherever a write meets a session already ended (services and views)
SESSION_ENDED = gettext_lazy("The session has ended.")


class PlayError(Exception):
    """A write refused because of the table as it now is (ended, or changed since the
    preview), not because of what was sent: no
    ``ValidationError``, so that a view maps each of these apart from a form's errors.
    ``message`` is what the page says (``messages`` as a ValidationError gives them)."""

    def __init__(self, message: StrOrPromise, *, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    @property
    def messages(self) -> list[str]:
        return [str(self.message)]


class SessionClosedError(PlayError):
    """The session has ended: no more hands (nor statements, nor a player's void)."""


class TableChangedError(PlayError):
    """Another row was booked since the recorder's preview: nothing booked."""


def account(by: User | None) -> User | None:
    """The account to name as the writer (None for the room's own code)."""
    return by if by is not None and by.is_authenticated else None


def session_locked(pk: int) -> TableSession:
    """The session row, locked until the transaction ends (two phones take turns)."""
    return TableSession.objects.select_for_update(of=("self",)).select_related("ruleset").get(pk=pk)
