"""Render one HTML document to PDF with WeasyPrint, in a process of its own.

``python -m clubapp.reports.pdf_worker`` reads a JSON job on standard input and
writes the PDF to standard output. It imports no Django: the web worker that
starts it (``clubapp.reports.pdf.render_pdf``) passes the HTML and the folders
that static and media URLs map to. WeasyPrint keeps the memory a render took;
in a process that ends after one document, the web worker never grows.

The job: ``{"html": "...", "base_url": "https://pdf.invalid/",
"roots": [["/static/", "/abs/folder"], ["/media/", "/abs/folder"], ...]}``.

Resources come only from those folders (and ``data:`` URLs): never ``file://``
of anything else, never the network. Fonts come only from ``@font-face``: the
parent points fontconfig at a configuration with no folders, so a PDF embeds the
shipped font on every machine, whatever is installed there.
"""

from __future__ import annotations

import json
import mimetypes
import sys
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

# Not an error here: the fonts of the document come from @font-face only.
warnings.filterwarnings("ignore", message="No fonts configured in FontConfig")

from weasyprint import HTML  # noqa: E402
from weasyprint.urls import URLFetcher, URLFetcherResponse  # noqa: E402


class LocalFilesFetcher(URLFetcher):
    """Serves ``data:`` URLs, and files under the given (URL prefix, folder) pairs
    of the document's own origin; refuses everything else."""

    def __init__(self, base_url: str, roots: list[tuple[str, str]]) -> None:
        super().__init__(allowed_protocols={"data"}, allow_redirects=False)
        origin = urlsplit(base_url)
        self.origin = (origin.scheme, origin.netloc)
        self.roots = [(prefix, Path(folder).resolve()) for prefix, folder in roots]

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> Any:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        return URLFetcherResponse(url, body=self.path(url).read_bytes(), headers=self.type(url))

    def path(self, url: str) -> Path:
        """The file ``url`` names, or ValueError."""
        parts = urlsplit(url)
        if (parts.scheme, parts.netloc) != self.origin:
            raise ValueError(f"refused (not this document's files): {url}")
        path = unquote(parts.path)
        for prefix, folder in self.roots:
            if not path.startswith(prefix):
                continue
            candidate = (folder / path[len(prefix) :]).resolve()
            if candidate.is_relative_to(folder) and candidate.is_file():
                return candidate
        raise ValueError(f"refused (no such static or media file): {url}")

    @staticmethod
    def type(url: str) -> dict[str, str]:
        mime, _encoding = mimetypes.guess_type(urlsplit(url).path)
        if url.endswith(".woff2"):
            mime = "font/woff2"
        return {"Content-Type": mime or "application/octet-stream"}


def render(job: dict[str, Any]) -> bytes:
    fetcher = LocalFilesFetcher(job["base_url"], [tuple(r) for r in job["roots"]])
    document = HTML(string=job["html"], base_url=job["base_url"], url_fetcher=fetcher)
    pdf = document.write_pdf()
    assert pdf is not None
    return pdf


def main() -> int:
    job = json.load(sys.stdin)
    sys.stdout.buffer.write(render(job))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
