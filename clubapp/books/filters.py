"""django-filter filter sets of the cash book's lists: a date range, the category,
the state and the person, as GET parameters (a filtered list can be bookmarked)."""

from __future__ import annotations

from typing import Any

import django_filters as filters
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from clubapp.books.models import ExpenseCategory, IncomeCategory, PlanState
from clubapp.books.selectors import ExpenseState, IncomeState, SlipState
from clubapp.core.models import Room
from clubapp.core.roles import Role

ALL = _("All")


def _dates() -> filters.widgets.DateRangeWidget:
    # The "_after" / "_before" boxes as the phone's date pickers.
    return filters.widgets.DateRangeWidget(attrs={"type": "date"})


def person_name(user: Any) -> str:
    return user.get_short_name() or user.get_username()


def people(*roles: Role, room: Room) -> list[tuple[int, str]]:
    """The room's accounts in these roles (an account belongs to one room)."""
    users = (
        get_user_model()
        .objects.filter(groups__name__in=[r.value for r in roles], room_link__room=room)
        .distinct()
    )
    return [(u.pk, person_name(u)) for u in users.order_by("first_name", "username")]


class RoomFilterSet(filters.FilterSet):
    """A list's filters in one room: the people to choose from are the room's managers
    (the filters named in ``MANAGERS``)."""

    MANAGERS: tuple[str, ...] = ()

    def __init__(self, *args: Any, room: Room, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.MANAGERS:
            self.filters[name].extra["choices"] = people(Role.MANAGER, room=room)


INCOME_STATES = [
    (IncomeState.AT_DESK, _("Not handed over")),
    (IncomeState.ON_SLIP, _("Handed over, waiting")),
    (IncomeState.HANDED_OVER, _("Handed over")),
    (IncomeState.REVERSED, _("Reversed")),
]
SLIP_STATES = [
    (SlipState.PENDING, _("Waiting for the accountant")),
    (SlipState.CONFIRMED, _("Confirmed (booked)")),
    (SlipState.RETURNED, _("Sent back")),
    (SlipState.REVERSED, _("Reversed")),
]
EXPENSE_STATES = [
    (ExpenseState.BOOKED, _("Waiting for the accountant")),
    (ExpenseState.CONFIRMED, _("Confirmed")),
    (ExpenseState.REVERSED, _("Reversed")),
]


class IncomeFilter(RoomFilterSet):
    MANAGERS = ("recorded_by",)

    book_date = filters.DateFromToRangeFilter(label=_("Booked between"), widget=_dates())
    category = filters.ChoiceFilter(
        empty_label=ALL, label=_("Category"), choices=IncomeCategory.choices
    )
    state = filters.ChoiceFilter(empty_label=ALL, label=_("State"), choices=INCOME_STATES)
    recorded_by = filters.ChoiceFilter(empty_label=ALL, label=_("Recorded by"), choices=[])
    late = filters.ChoiceFilter(
        empty_label=ALL,
        label=_("Late entries"),
        choices=[("yes", _("Late entries only")), ("no", _("Without late entries"))],
        method="filter_late",
    )

    def filter_late(self, queryset: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return queryset.filter(late_for__isnull=value != "yes") if value else queryset


class SlipFilter(RoomFilterSet):
    MANAGERS = ("handed_over_by",)

    book_date = filters.DateFromToRangeFilter(label=_("Handed over between"), widget=_dates())
    state = filters.ChoiceFilter(empty_label=ALL, label=_("State"), choices=SLIP_STATES)
    handed_over_by = filters.ChoiceFilter(empty_label=ALL, label=_("Handed over by"), choices=[])


class ExpenseFilter(RoomFilterSet):
    MANAGERS = ("recorded_by",)

    book_date = filters.DateFromToRangeFilter(label=_("Booked between"), widget=_dates())
    category = filters.ChoiceFilter(
        empty_label=ALL,
        label=_("Category"),
        field_name="line__category",
        choices=ExpenseCategory.choices,
    )
    state = filters.ChoiceFilter(empty_label=ALL, label=_("State"), choices=EXPENSE_STATES)
    recorded_by = filters.ChoiceFilter(empty_label=ALL, label=_("Booked by"), choices=[])


class PlanFilter(RoomFilterSet):
    MANAGERS = ("drafted_by",)

    created = filters.DateFromToRangeFilter(
        label=_("Drafted between"), field_name="created_at__date", widget=_dates()
    )
    state = filters.ChoiceFilter(empty_label=ALL, label=_("State"), choices=PlanState.choices)
    category = filters.ChoiceFilter(
        empty_label=ALL,
        label=_("Category"),
        choices=ExpenseCategory.choices,
        method="filter_category",
    )
    drafted_by = filters.ChoiceFilter(empty_label=ALL, label=_("Drafted by"), choices=[])

    def filter_category(self, queryset: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        if not value:
            return queryset
        return queryset.filter(
            Q(submission__lines__category=value) | Q(draft_lines__category=value)
        ).distinct()
