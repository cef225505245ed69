"""PDF documents: a template rendered to HTML here, to PDF in a child process.

WeasyPrint keeps the memory of a render (a long table costs hundreds of MB), so
every PDF is made by ``python -m clubapp.reports.pdf_worker``, a process that
ends with the document: the web worker's memory never grows for good. The child
gets the HTML and the folders static and media URLs map to; it loads nothing
else (no ``file://``, no network) and no font but the document's ``@font-face``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest
from django.template.loader import render_to_string

#: the document's own origin: relative URLs resolve under it, and only its static
#: and media paths are served
BASE_URL = "https://pdf.invalid/"
FONTCONFIG_FILE = Path(__file__).resolve().parent / "fonts.conf"
#: a busy month renders in a few seconds; a stuck render must not hold a worker
TIMEOUT_SECONDS = 120


class PdfError(RuntimeError):
    """The PDF could not be made (the child's error is in the message)."""


def file_roots() -> list[tuple[str, str]]:
    """(URL prefix, folder) pairs the child may read: the collected static files
    (production), the static folders the finders search (development and tests),
    and the media folder (member photos)."""
    static = settings.STATIC_URL or "/static/"
    roots: list[tuple[str, str]] = []
    if settings.STATIC_ROOT and Path(settings.STATIC_ROOT).is_dir():
        roots.append((static, str(settings.STATIC_ROOT)))
    for finder in finders.get_finders():
        for storage in getattr(finder, "storages", {}).values():
            prefix = getattr(storage, "prefix", None)
            roots.append((static + (f"{prefix}/" if prefix else ""), str(storage.location)))
    roots.append((settings.MEDIA_URL or "/media/", str(settings.MEDIA_ROOT)))
    return roots


def render_pdf(html: str) -> bytes:
    """The PDF of ``html`` (its URLs relative to BASE_URL, e.g. ``/static/…``)."""
    job = {"html": html, "base_url": BASE_URL, "roots": file_roots()}
    env = {**os.environ, "FONTCONFIG_FILE": str(FONTCONFIG_FILE)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "clubapp.reports.pdf_worker"],
            input=json.dumps(job).encode("utf-8"),
            capture_output=True,
            env=env,
            cwd=str(settings.BASE_DIR),
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise PdfError(f"PDF render took longer than {TIMEOUT_SECONDS} s") from exc
    if done.returncode != 0 or not done.stdout.startswith(b"%PDF"):
        raise PdfError(done.stderr.decode("utf-8", "replace")[-2000:])
    return done.stdout


def render_template_pdf(
    template: str, context: dict[str, Any], request: HttpRequest | None = None
) -> bytes:
    """``template`` rendered as the PDF variant (``pdf`` is true in it)."""
    html = render_to_string(template, {**context, "pdf": True}, request=request)
    return render_pdf(html)
