"""django-filter filter sets of the lists that export (members, visits, income,
table sessions, hands, ledger lines). A list page and its exports use the same
filter set on the same query string, so a download holds exactly the rows shown."""

from __future__ import annotations

import datetime as dt
from typing import Any

import django_filters as filters
from django import forms
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubapp.books import filters as books_filters
from clubapp.members.models import Card, CardState, CardStatus
from clubapp.play.models import RulesetVersion, Seat


class DayRangeFilter(filters.DateFromToRangeFilter):
    """From day to day, both included, in the room's time zone, as a range of
    moments (so the database can use an index on the timestamp)."""

    def filter(self, qs: QuerySet[Any], value: Any) -> QuerySet[Any]:
        if not value:
            return qs
        if value.start is not None:
            start = timezone.make_aware(dt.datetime.combine(value.start, dt.time.min))
            qs = qs.filter(**{f"{self.field_name}__gte": start})
        if value.stop is not None:
            stop = timezone.make_aware(dt.datetime.combine(value.stop, dt.time.min))
            qs = qs.filter(**{f"{self.field_name}__lt": stop + dt.timedelta(days=1)})
        return qs


def _days(field_name: str, label: Any) -> DayRangeFilter:
    return DayRangeFilter(
        field_name=field_name,
        label=label,
        widget=filters.widgets.DateRangeWidget(attrs={"type": "date"}),
    )


class MemberFilter(filters.FilterSet):
    """The member list's search (the same ``q`` and ``state`` as its page), plus the
    day of registration."""

    q = filters.CharFilter(label=_("Name, phone or card number"), method="search")
    state = filters.ChoiceFilter(
        label=_("Card state"),
        choices=[*CardState.choices, ("none", _("No card"))],
        method="card_state",
    )
    registered = _days("created_at", _("Registered"))

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        value = value.strip()
        return qs.filter(
            Q(name__icontains=value)
            | Q(phone__contains=value)
            | Exists(Card.objects.filter(member=OuterRef("pk"), number__icontains=value))
        )

    def card_state(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        today = timezone.localdate()
        if value == CardState.ACTIVE:
            return qs.filter(card_status=CardStatus.ACTIVE, card_valid_until__gte=today)
        if value == CardState.EXPIRED:
            return qs.filter(card_status=CardStatus.ACTIVE, card_valid_until__lt=today)
        if value == "none":
            return qs.filter(card_status__isnull=True)
        return qs.filter(card_status=value)


class VisitFilter(filters.FilterSet):
    day = _days("checked_in_at", _("Checked in"))
    kind = filters.ChoiceFilter(
        label=_("Visitor"),
        choices=[("member", _("Members")), ("guest", _("Non-members"))],
        method="visitor_kind",
    )
    q = filters.CharFilter(label=_("Name or card number"), method="search")

    def visitor_kind(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return qs.filter(member__isnull=(value == "guest"))

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        value = value.strip()
        return qs.filter(
            Q(member__name__icontains=value)
            | Q(guest_name__icontains=value)
            | Q(card__number__icontains=value)
        )


class IncomeFilter(books_filters.IncomeFilter):
    """The cash book's income filters (booked between, category, state, who, 补记: the
    same query string as its page, so its export holds the rows shown), and the day
    received and a search."""

    day = _days("received_at", _("Received"))
    q = filters.CharFilter(label=_("Receipt or description"), method="search")

    def search(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        value = value.strip()
        return qs.filter(Q(reference__icontains=value) | Q(description__icontains=value))


def _ruleset_choices() -> list[tuple[str, str]]:
    rows = RulesetVersion.objects.order_by("ruleset_id").values_list("ruleset_id", "name")
    return list(dict(rows).items())


class SessionFilter(filters.FilterSet):
    day = _days("started_at", _("Started"))
    table = filters.NumberFilter(
        field_name="table_number", label=_("Table"), widget=forms.NumberInput(attrs={"min": 1})
    )
    ruleset = filters.ChoiceFilter(
        field_name="ruleset__ruleset_id", label=_("Ruleset"), choices=_ruleset_choices
    )
    player = filters.CharFilter(label=_("Player"), method="search_player")

    def search_player(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        seats = Seat.objects.filter(session=OuterRef("pk"), name__icontains=value.strip())
        return qs.filter(Exists(seats))


class HandFilter(filters.FilterSet):
    """Hands by the night they were played in (the session's start)."""

    day = _days("session__started_at", _("Played"))
    session = filters.NumberFilter(field_name="session_id", label=_("Session number"))
    table = filters.NumberFilter(field_name="session__table_number", label=_("Table"))
    ruleset = filters.ChoiceFilter(
        field_name="ruleset__ruleset_id", label=_("Ruleset"), choices=_ruleset_choices
    )
    voided = filters.ChoiceFilter(
        label=_("Voided"),
        choices=[("no", _("Standing hands only")), ("yes", _("Voided and reversals only"))],
        method="is_voided",
    )

    def is_voided(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        off = Q(voids__isnull=False) | Q(voided_by__isnull=False)
        return qs.filter(off) if value == "yes" else qs.exclude(off)


class LedgerLineFilter(filters.FilterSet):
    day = _days("hand__session__started_at", _("Played"))
    session = filters.NumberFilter(field_name="hand__session_id", label=_("Session number"))
    table = filters.NumberFilter(field_name="hand__session__table_number", label=_("Table"))
    player = filters.CharFilter(label=_("Player"), method="search_player")

    def search_player(self, qs: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        seats = Seat.objects.filter(
            session=OuterRef("hand__session"), wind=OuterRef("seat"), name__icontains=value.strip()
        )
        return qs.filter(Exists(seats))
