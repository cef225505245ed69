#!/usr/bin/env python3
"""Rebuild the Simplified Chinese font the PDFs embed (ClubSansSC-Regular).

A subset of Noto Sans CJK SC (font number 2 of Debian's fonts-noto-cjk
NotoSansCJK-Regular.ttc; number 0 is the Japanese face, whose glyph shapes are
wrong for Chinese) made with fontTools, renamed so that nobody mistakes it for
the full font (and so a PDF shows which font it embeds). It covers ASCII,
Latin-1, general punctuation, arrows, enclosed numbers, a few symbols (✓ ■ ●),
CJK symbols and punctuation, full-width forms, and the whole of CJK Unified
Ideographs (U+4E00–9FFF) and Extension A (U+3400–4DBF): every hanzi a
member's name can hold on a 居民身份证 outside the supplementary planes,
喆 堃 昇 龑 䶮 included. Layout tables are kept for the default features only.

Run it where the source font exists (``apt-get install fonts-noto-cjk``):

    .venv/bin/python scripts/build_cjk_font.py

It writes ``clubapp/reports/static/reports/fonts/ClubSansSC-Regular.woff2`` and
the licence text beside it (``OFL.txt``, from Debian's copyright file), and
prints the sizes of the OTF, WOFF and WOFF2 forms. Needs fontTools and brotli
(``requirements-dev.txt``); nothing at run time needs them but WeasyPrint.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SC_FONT_NUMBER = 2
COPYRIGHT_FILE = Path("/usr/share/doc/fonts-noto-cjk/copyright")
OUT_DIR = Path(__file__).resolve().parent.parent / "clubapp/reports/static/reports/fonts"

FAMILY = "ClubSans SC"
POSTSCRIPT = "ClubSansSC-Regular"

RANGES: list[tuple[int, int]] = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 (· × ÷ ¥ é …)
    (0x2000, 0x206F),  # general punctuation (— – … “ ” ‰ ※)
    (0x2100, 0x214F),  # letterlike symbols (℃ № ™)
    (0x2150, 0x218F),  # number forms (Ⅰ Ⅱ ½)
    (0x2190, 0x21FF),  # arrows (← → ↑ ↓)
    (0x2460, 0x24FF),  # enclosed alphanumerics (① ②)
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes (■ □ ● ○ ▲)
    (0x2600, 0x26FF),  # miscellaneous symbols (★ ☆)
    (0x2700, 0x27BF),  # dingbats (✓ ✔ ✗)
    (0x3000, 0x303F),  # CJK symbols and punctuation (、。〈〉《》「」【】〇)
    (0x3200, 0x32FF),  # enclosed CJK letters (㈠ ㊣)
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A (䶮)
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # half-width and full-width forms (，：；！？（）０-９)
]

#: characters the documents must be able to print (checked after subsetting)
MUST_HAVE = "喆堃昇龑䶮第页共元花收支✓×←→—·–…①■●，。：（）０"


def licence_text() -> str:
    """The SIL OFL 1.1 text of Debian's machine-readable copyright file, unfolded."""
    lines = COPYRIGHT_FILE.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1")
    body: list[str] = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        text = line[1:]
        body.append("" if text == "." else text)
    return "\n".join(body).strip() + "\n"


def build(source: Path) -> TTFont:
    font = TTFont(str(source), fontNumber=SC_FONT_NUMBER)
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False  # CFF hints cost space and PDFs at print size need none
    # Horizontal text only, in the font's own (Simplified Chinese) shapes: no 'locl'
    # (it pulls in the Japanese, Korean and Traditional variants) and no 'vert'.
    options.layout_features = ["ccmp", "kern", "liga", "calt"]
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=[c for a, b in RANGES for c in range(a, b + 1)])
    subsetter.subset(font)
    rename(font)
    return font


def rename(font: TTFont) -> None:
    """A modified font under a name of its own (SIL OFL 1.1, condition 3 and FAQ)."""
    names = font["name"]
    version = names.getDebugName(5) or ""
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            record.string = FAMILY
        elif record.nameID == 2:
            record.string = "Regular"
        elif record.nameID == 3:
            record.string = f"{POSTSCRIPT};subset of NotoSansCJKsc-Regular {version}"
        elif record.nameID == 6:
            record.string = POSTSCRIPT
    cff = font["CFF "].cff
    cff.fontNames = [POSTSCRIPT]
    top = cff.topDictIndex[0]
    top.FullName = FAMILY
    top.FamilyName = FAMILY


def save(font: TTFont, flavor: str | None) -> bytes:
    font.flavor = flavor
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args()
    if not args.source.exists():
        print(f"{args.source} not found: apt-get install fonts-noto-cjk", file=sys.stderr)
        return 2
    started = time.monotonic()
    font = build(args.source)
    cmap = font.getBestCmap()
    missing = [c for c in MUST_HAVE if ord(c) not in cmap]
    if missing:
        print(f"missing from the subset: {''.join(missing)}", file=sys.stderr)
        return 1
    forms = {flavor or "otf": save(font, flavor) for flavor in (None, "woff", "woff2")}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{POSTSCRIPT}.woff2").write_bytes(forms["woff2"])
    (args.out / "OFL.txt").write_text(
        f"{POSTSCRIPT}.woff2 is a subset of Noto Sans CJK SC (NotoSansCJKsc-Regular,\n"
        f"{font['name'].getDebugName(5)}), renamed {FAMILY}, made with fontTools\n"
        "by scripts/build_cjk_font.py.\n\n"
        f"{font['name'].getDebugName(0)}\n\n{licence_text()}",
        encoding="utf-8",
    )
    print(f"{len(cmap)} characters, {font['maxp'].numGlyphs} glyphs")
    for flavor, data in forms.items():
        print(f"{flavor:>5}: {len(data) / 1e6:.2f} MB")
    print(f"written to {args.out} in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
