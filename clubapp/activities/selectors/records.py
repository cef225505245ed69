"""Reads of the activity records (活动记录): each record read as its last version."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, OuterRef, QuerySet, Subquery

from clubapp.activities.models import ActivityRecord, PlannedActivity, RecordVersion
from clubapp.core.models import Room
from clubapp.members import selectors as members_selectors
from clubapp.members.models import Visit


def _last_version_pk() -> Subquery:
    return Subquery(
        RecordVersion.objects.filter(record=OuterRef("record")).order_by("-number").values("pk")[:1]
    )


def record_versions_last(*, room: Room) -> QuerySet[RecordVersion]:
    """The last version of each of the room's records, with its attendance counted."""
    return (
        RecordVersion.objects.filter(room=room)
        .filter(pk=_last_version_pk())
        .select_related("record", "written_by", "planned__version__plan")
        .annotate(members=Count("attendees"))
        .order_by("-date", "-starts", "-pk")
    )


def records_held(*, room: Room, first: dt.date, last: dt.date) -> QuerySet[RecordVersion]:
    return record_versions_last(room=room).filter(date__gte=first, date__lte=last)


def record_last(*, record: ActivityRecord) -> RecordVersion:
    return (
        RecordVersion.objects.filter(record=record)
        .select_related("written_by", "planned__version__plan")
        .latest("number")
    )


def record_history(*, record: ActivityRecord) -> QuerySet[RecordVersion]:
    return (
        RecordVersion.objects.filter(record=record)
        .select_related("written_by")
        .annotate(members=Count("attendees"))
        .order_by("-number")
    )


def member_visits_of_day(*, room: Room, day: dt.date) -> list[Visit]:
    """The members' visits of ``day``, one per member (the first), by name: whom a
    record may list as attendees."""
    first: dict[int, Visit] = {}
    visits = members_selectors.visits_today(room=room, day=day).filter(member__isnull=False)
    for visit in sorted(visits, key=lambda v: (v.checked_in_at, v.pk)):
        assert visit.member_id is not None
        first.setdefault(visit.member_id, visit)
    return sorted(first.values(), key=_by_name)


def _by_name(visit: Visit) -> tuple[str, str]:
    member = visit.member
    assert member is not None
    return member.name_pinyin, member.name


def planned_linkable(*, room: Room) -> QuerySet[PlannedActivity]:
    """Planned activities a record may name: of an approved version of the room's plans."""
    return (
        PlannedActivity.objects.filter(room=room, version__decision__approved=True)
        .select_related("version__plan")
        .order_by("-date", "position")
    )
