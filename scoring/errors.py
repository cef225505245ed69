"""Errors raised by the scoring package."""

from __future__ import annotations

from collections.abc import Mapping

#: where in a hand record a fault is: ``("wins", 0, "melds", 2)`` for ``wins[0].melds[2]``
Path = tuple[str | int, ...]


def field_path(field: str) -> Path:
    """A field's name read into its parts: ``wins[0].melds[2].from`` → ``("wins", 0,
    "melds", 2, "from")``, ``garden.left.N`` → ``("garden", "left", "N")``, ``""`` →
    ``()``. The inverse of ``field_name``; a name with a space (``ruleset nanjing``)
    is one part."""
    if not field or " " in field:
        return (field,) if field else ()
    path: list[str | int] = []
    for part in field.split("."):
        name, _, rest = part.partition("[")
        if name:
            path.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            path.append(int(index))
            rest = rest.removeprefix("[")
    return tuple(path)


def field_name(path: Path) -> str:
    """A path written as a field's name, the form the command line prints."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


class ScoringError(ValueError):
    """A hand record that is malformed or not a legal win.

    ``field`` names the part of the record at fault (``wins[0].concealed``) or is
    empty when the whole record is; ``path`` is the same read into its parts
    (``("wins", 0, "concealed")``), for a form to place the error beside its field.
    ``zh`` is the same reason for people at the table, in Chinese. ``str(err)`` is
    the one-line reason the command line prints. ``code`` and ``params``, when given,
    name the refusal for a caller that words it itself (``entry.py``'s).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str = "",
        zh: str = "",
        code: str = "",
        params: Mapping[str, str] | None = None,
    ) -> None:
        self.field = field
        self.path = field_path(field)
        self.message = message
        self.zh = zh or message
        self.code = code
        self.params = dict(params or {})
        super().__init__(f"{field}: {message}" if field else message)
