"""Errors raised by the scoring package."""

from __future__ import annotations


class ScoringError(ValueError):
    """A hand record that is malformed or not a legal win.

    ``field`` names the part of the record at fault (``wins[0].concealed``) or is
    empty when the whole record is; ``zh`` is the same reason for people at the
    table, in Chinese. ``str(err)`` is the one-line reason the command line prints.
    """

    def __init__(self, message: str, *, field: str = "", zh: str = "") -> None:
        self.field = field
        self.message = message
        self.zh = zh or message
        super().__init__(f"{field}: {message}" if field else message)
