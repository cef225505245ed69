"""Draw the app's icons (static/img/icon-192.png, icon-512.png) from the favicon's
design, a 中 tile, on the theme's green: the web app manifest's icons, made here.

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

GREEN, CREAM, RED = "#1d6b4f", "#f7f3ea", "#b3261e"
OUT = Path(__file__).resolve().parent.parent / "static" / "img"


def icon(size: int) -> Image.Image:
    """The favicon's 32-unit drawing, scaled into the middle 80 % (a maskable icon's
    safe zone) of a green square."""
    image = Image.new("RGB", (size, size), GREEN)
    draw = ImageDraw.Draw(image)
    unit = size * 0.8 / 32
    left = top = size * 0.1

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + x * unit, top + y * unit)

    draw.rounded_rectangle([at(5, 2), at(27, 30)], radius=4 * unit, fill=CREAM)
    width = round(2.4 * unit)
    draw.rectangle([at(11, 11), at(21, 19)], outline=RED, width=width)
    draw.line([at(16, 6), at(16, 26)], fill=RED, width=width)
    return image


if __name__ == "__main__":
    for size in (192, 512):
        icon(size).save(OUT / f"icon-{size}.png", optimize=True)
