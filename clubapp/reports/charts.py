"""Charts of the reports as SVG, drawn by pygal (no hand-built SVG).

The SVG goes into the page and the PDF alike as an image (a ``data:`` URL): pygal's
SVG carries its own <style>, which the Content-Security-Policy (no inline style)
would refuse inline in the page but allows inside an image. Its text names the
shipped font first, so the PDF's chart prints with it. No JavaScript (the PDF has
none and the page needs none).
"""

from __future__ import annotations

import base64

import pygal
from pygal.style import Style

from clubapp.reports.selectors import VisitsSection

FONTS = '"ClubSans SC", sans-serif'

_STYLE = Style(
    font_family=FONTS,
    background="white",
    plot_background="white",
    foreground="#1d1d1f",
    foreground_strong="#1d1d1f",
    foreground_subtle="#d9d5cc",
    colors=("#b3261e",) * 7,
    label_font_size=12,
    major_label_font_size=12,
    title_font_size=14,
    value_font_size=10,
    tooltip_font_size=10,
)


def busiest_hours_svg(visits: VisitsSection, *, title: str) -> str:
    """A punch card: a dot per weekday and hour, its size the average number of
    people present then (``VisitsSection.busiest``)."""
    chart = pygal.Dot(
        style=_STYLE,
        width=760,
        height=320,
        show_legend=False,
        js=[],
        disable_xml_declaration=True,
        explicit_size=False,
        title=title,
        print_values=False,
        margin=8,
    )
    chart.x_labels = [f"{hour}" for hour in visits.hours]
    for weekday, row in visits.busiest_rows:
        chart.add(weekday, [value or None for value in row])
    svg: str = chart.render(is_unicode=True)
    return svg


def data_url(svg: str) -> str:
    """The SVG as a ``data:`` URL for an <img> (allowed by the CSP's img-src)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
