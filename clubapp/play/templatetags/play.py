"""Template filters of the play app."""

from __future__ import annotations

from typing import Any

from django import forms, template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def seat_name(wind: str | None, names: dict[str, str]) -> str:
    """``E`` → ``东 老王`` given the session's {wind: name}."""
    if not wind:
        return ""
    zh = {"E": "东", "S": "南", "W": "西", "N": "北"}.get(wind, wind)
    return f"{zh} {names.get(wind, '')}".strip()


_TILE_NAMES = {
    "z": ["东", "南", "西", "北", "白", "发", "中"],
    "f": ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"],
}
_SUIT = {"m": "万", "p": "饼", "s": "条"}


@register.filter
def tile_name(code: str) -> str:
    """``5m`` → ``5万``, ``7z`` → ``中``, ``1f`` → ``春``."""
    number, kind = int(code[0]), code[1]
    if kind in _TILE_NAMES:
        return _TILE_NAMES[kind][number - 1]
    return f"{number}{_SUIT[kind]}"


@register.filter
def get(mapping: dict[str, str], key: str) -> str:
    return mapping.get(key, "")


@register.simple_tag
def chip(option: Any) -> str:
    """One checkbox or radio of a choice field, written out (Django's widget template
    per option cost most of the entry page's time): the same input its template makes."""
    data = option.data
    return format_html(
        '<input type="{}" name="{}" value="{}" id="{}"{}>',
        data["type"],
        data["name"],
        data["value"],
        data["attrs"].get("id", ""),
        mark_safe(" checked") if data["selected"] else "",
    )


def _attrs(attrs: dict[str, Any]) -> str:
    """Django's widgets/attrs.html, written out."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(
            format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value)
        )
    return "".join(out)


@register.simple_tag
def widget(field: Any) -> str:
    """A text, number or select box as ``{{ field }}`` renders it, written out: the
    entry page has some forty of them, and a widget template each cost most of its
    time. Any other widget goes the usual way."""
    box = field.field.widget
    plain = isinstance(box, forms.TextInput | forms.NumberInput | forms.Select)
    if not plain or isinstance(box, forms.SelectMultiple) or field.field.show_hidden_initial:
        return str(field)
    if field.field.localize:
        return str(field)
    attrs = field.build_widget_attrs({}, box)
    if field.auto_id and "id" not in box.attrs:
        attrs.setdefault("id", field.auto_id)
    context = box.get_context(field.html_name, field.value(), attrs)["widget"]
    if isinstance(box, forms.Select):
        options = [
            format_html(
                '<option value="{}"{}>{}</option>',
                option["value"],
                mark_safe(_attrs(option["attrs"])),
                option["label"],
            )
            for _group, choices, _index in context["optgroups"]
            for option in choices
        ]
        return format_html(
            '<select name="{}"{}>{}</select>',
            context["name"],
            mark_safe(_attrs(context["attrs"])),
            mark_safe("".join(options)),
        )
    value = context["value"]
    return format_html(
        '<input type="{}" name="{}"{}{}>',
        context["type"],
        context["name"],
        format_html(' value="{}"', value) if value is not None else "",
        mark_safe(_attrs(context["attrs"])),
    )
