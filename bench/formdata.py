"""What a browser would submit from a page's form: every input, select and checked box."""

from __future__ import annotations

from html.parser import HTMLParser


class FormReader(HTMLParser):
    """What a browser would submit from the page's form ``entry``: (name, value) pairs."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button"):
                self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._options = a.get("name"), []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select:
            chosen = [v for v, s in self._options if s] or [v for v, _ in self._options[:1]]
            self.fields.append((self._select, chosen[0] if chosen else ""))
            self._select = None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def read_form(html: str) -> list[tuple[str, str]]:
    reader = FormReader()
    reader.feed(html)
    return reader.fields
