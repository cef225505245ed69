"""Reading the PDFs the reports app writes: their text and their fonts (pypdf)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader

SHIPPED_FONT = "ClubSans"


@dataclass(frozen=True)
class PdfFont:
    name: str
    embedded: bool


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def pdf_pages(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def pdf_page_size_mm(data: bytes, page: int = 0) -> tuple[float, float]:
    box = PdfReader(io.BytesIO(data)).pages[page].mediabox
    return round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)


def pdf_fonts(data: bytes) -> list[PdfFont]:
    """Every font the pages use (form XObjects included), and whether its program is
    in the file (a FontFile, FontFile2 or FontFile3 stream in its descriptor)."""
    fonts: dict[str, PdfFont] = {}

    def visit(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            name = str(font.get("/BaseFont", ""))
            fonts[name] = PdfFont(name=name, embedded=embedded)
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            visit(xobject.get("/Resources"))

    for page in PdfReader(io.BytesIO(data)).pages:
        visit(page.get("/Resources"))
    return list(fonts.values())


def assert_ships_its_font(data: bytes) -> None:
    """Every font is embedded, and every one is the shipped CJK font (none of the
    machine's: the PDF prints the same wherever it is made)."""
    fonts = pdf_fonts(data)
    assert fonts, "the PDF uses no font"
    assert all(f.embedded for f in fonts), fonts
    assert all(SHIPPED_FONT in f.name for f in fonts), fonts
