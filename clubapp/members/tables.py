"""django-tables2 tables of the members app."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubapp.members.models import CardState, CardStatus, Member, mask_id_number

# Columns hidden on a phone (static/css/app.css): the list stays one screen wide.
_WIDE = {"th": {"class": "wide"}, "td": {"class": "wide"}}
# Numbers, dates and states never break inside ("2026-" / "0001").
_NOWRAP = {"th": {"class": "nowrap"}, "td": {"class": "nowrap"}}


class MemberTable(tables.Table):
    name = tables.Column(
        verbose_name=_("Name"), linkify=True, order_by=("name_pinyin", "name"), attrs=_NOWRAP
    )
    phone = tables.Column(verbose_name=_("Phone"), attrs=_WIDE)
    # Always masked in the list, whoever looks (docs/members.md).
    id_number = tables.Column(verbose_name=_("ID card number"), orderable=False, attrs=_WIDE)
    card_number = tables.Column(verbose_name=_("Card number"), default="—", attrs=_NOWRAP)
    card_state = tables.Column(
        verbose_name=_("State"), accessor="card_status", order_by=("card_status",), attrs=_NOWRAP
    )
    # Hidden on a phone with the phone and ID columns: the state says "expired".
    card_valid_until = tables.DateColumn(
        verbose_name=_("Valid until"),
        format="Y-m-d",
        default="—",
        attrs={"th": {"class": "wide nowrap"}, "td": {"class": "wide nowrap"}},
    )

    class Meta:
        model = Member
        fields = ("name", "phone", "id_number", "card_number", "card_state", "card_valid_until")
        attrs = {"class": "grid stack members"}
        empty_text = _("No members found.")

    def render_id_number(self, value: str) -> str:
        return mask_id_number(value)

    def render_card_state(self, value: Any, record: Any) -> str:
        if (
            value == CardStatus.ACTIVE
            and record.card_valid_until
            and record.card_valid_until < timezone.localdate()
        ):
            return str(CardState.EXPIRED.label)
        return str(CardState(value).label)
