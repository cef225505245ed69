"""How PDFs are made: in a child process, with only static and media files and only
the shipped font, whatever fonts the machine has."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from clubapp.reports.pdf import FONTCONFIG_FILE, file_roots, render_pdf
from clubapp.reports.pdf_worker import LocalFilesFetcher
from clubapp.reports.tests.pdfs import SHIPPED_FONT, pdf_fonts, pdf_text

FONT_CSS = '<link rel="stylesheet" href="/static/reports/reports.css">'


def test_it_embeds_only_the_shipped_font_even_with_cjk_fonts_installed():
    # This machine may have Noto Sans CJK (JP shapes first): the child's fontconfig
    # has no folders at all, so the document's @font-face font is all there is.
    body = '<body class="doc">喆 堃 昇 龑 䶮 A-z 0-9</body>'
    html = f'<html lang="zh-Hans"><head>{FONT_CSS}</head>{body}</html>'
    data = render_pdf(html)
    fonts = pdf_fonts(data)
    assert fonts and all(f.embedded for f in fonts)
    assert all(SHIPPED_FONT in f.name for f in fonts), fonts
    assert "喆 堃 昇 龑 䶮" in pdf_text(data)


def test_it_points_fontconfig_at_a_configuration_without_fonts():
    text = FONTCONFIG_FILE.read_text()
    assert "<dir" not in text and "<include" not in text


def _fetcher(tmp_path: Path) -> LocalFilesFetcher:
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "a.css").write_text("body {}")
    (tmp_path / "secret.txt").write_text("no")
    return LocalFilesFetcher("https://pdf.invalid/", [("/static/", str(tmp_path / "static"))])


def test_it_serves_static_files_of_its_own_origin(tmp_path):
    fetcher = _fetcher(tmp_path)
    assert fetcher.path("https://pdf.invalid/static/a.css") == tmp_path / "static" / "a.css"


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "https://example.com/static/a.css",
        "http://pdf.invalid/static/a.css",
        "https://pdf.invalid/static/../secret.txt",
        "https://pdf.invalid/static/%2e%2e/secret.txt",
        "https://pdf.invalid/secret.txt",
    ],
)
def test_it_refuses_anything_else(tmp_path, url):
    fetcher = _fetcher(tmp_path)
    with pytest.raises(ValueError):
        fetcher.fetch(url)


def test_it_reads_data_urls():
    fetcher = LocalFilesFetcher("https://pdf.invalid/", [])
    assert fetcher.fetch("data:text/plain,hi").read() == b"hi"


def test_it_gives_the_child_the_static_and_media_folders():
    roots = dict(file_roots())
    assert roots[settings.MEDIA_URL] == str(settings.MEDIA_ROOT)
    assert any(prefix == settings.STATIC_URL for prefix, _folder in file_roots())
