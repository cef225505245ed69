"""Errors raised by the scoring package."""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Mapping
from typing import NamedTuple

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
    the one-line reason the command line prints; ``message`` and ``zh`` are the command
    line's. ``code`` (``not_winning``) and ``params`` (the values its message puts in,
    as strings, tiles and seats named as the table says them) name the refusal for a
    caller that words it itself, as the app does (``refusals()`` lists them all).
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


class Refusal(NamedTuple):
    """One place in the package that refuses: its ``code``, its message and Chinese as
    written there (each value put in as ``{}``), the names of its ``params`` and the
    module (``scoring/record.py``). ``code`` is ``""`` where the call gives none."""

    code: str
    message: str
    zh: str
    params: frozenset[str]
    module: str


#: the calls that make a refusal, and where their message and Chinese are: the
#: position of each, or the keyword ``zh``
_MAKERS: dict[str, tuple[int, int | str]] = {
    "ScoringError": (0, "zh"),
    "_fail": (1, 2),  # record.py's and rulesets' (field or ruleset first)
    "clash": (0, 1),  # nanjing.py's quick-entry clashes
}


def _template(node: ast.expr | None) -> str:
    """A message as written: its text, with ``{}`` for each value put in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            _template(part) if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    return ""


def refusals() -> list[Refusal]:
    """Every refusal the package makes, read from its source, in the order of the
    files: what a caller that words refusals itself must know how to say. The tests are
    left out, and so is ``__main__.py``: the command line's refusals of its own input
    never reach a caller."""
    here = pathlib.Path(__file__).parent
    out = []
    for path in sorted(here.rglob("*.py")):
        parts = path.relative_to(here).parts
        if "tests" in parts or parts == ("__main__.py",):
            continue
        module = path.relative_to(here.parent).as_posix()
        out += refusals_in(path.read_text(encoding="utf-8"), module)
    return out


def refusals_in(source: str, module: str) -> list[Refusal]:
    """The refusals a module's ``source`` makes: each call of ``ScoringError`` (or of a
    module's ``_fail``, nanjing's ``clash``). A call that passes another refusal's code
    on (``code=exc.code``) is none."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if node.func.id not in _MAKERS:
            continue
        keywords = {kw.arg: kw.value for kw in node.keywords}
        code = keywords.get("code")
        if code is not None and not isinstance(code, ast.Constant):
            continue
        at, zh_at = _MAKERS[node.func.id]
        zh = keywords.get("zh") if isinstance(zh_at, str) else node.args[zh_at]
        names = {str(kw.arg) for kw in node.keywords} - {"code", "field", "zh", "params"}
        params = keywords.get("params")
        if isinstance(params, ast.Dict):
            names |= {str(key.value) for key in params.keys if isinstance(key, ast.Constant)}
        out.append(
            Refusal(
                str(code.value) if code is not None else "",
                _template(node.args[at]),
                _template(zh),
                frozenset(names),
                module,
            )
        )
    return out
