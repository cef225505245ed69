"""活动记录: the list, a record with its history, recording, correcting, the photos."""

from __future__ import annotations

import datetime as dt
from typing import Any

import django_tables2 as tables
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig

from clubapp.activities.forms.records import CorrectionForm, RecordForm
from clubapp.activities.models import ActivityRecord, PlannedActivity, RecordPhoto
from clubapp.activities.permissions import can_manage, manager_required, reader_required
from clubapp.activities.selectors import plans as plan_selectors
from clubapp.activities.selectors import records as selectors
from clubapp.activities.services import records as services
from clubapp.core.http import AuthenticatedRequest
from clubapp.core.models import Room

PER_PAGE = 30


class RecordTable(tables.Table):
    date = tables.DateColumn(
        "Y-m-d",
        verbose_name=_("Date"),
        linkify=lambda record: reverse("activities:record_detail", args=[record.record_id]),
    )
    starts = tables.TimeColumn("H:i", verbose_name=_("Starts at"))
    title = tables.Column(verbose_name=_("Title"))
    game = tables.Column(verbose_name=_("Game"))
    members = tables.Column(verbose_name=_("Members"), orderable=False)
    others = tables.Column(verbose_name=_("Others"), orderable=False)
    number = tables.Column(verbose_name=_("Version"), orderable=False)

    class Meta:
        attrs = {"class": "grid stack"}
        empty_text = _("No activity records yet.")
        order_by = ("-date",)

    def render_game(self, record: Any) -> str:
        return str(record.get_game_display())


def _record(request: AuthenticatedRequest, pk: int) -> ActivityRecord:
    return get_object_or_404(ActivityRecord, pk=pk, room=request.room)


@reader_required
def record_list(request: AuthenticatedRequest) -> HttpResponse:
    table = RecordTable(selectors.record_versions_last(room=request.room))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(
        request,
        "activities/record_list.html",
        {"table": table, "can_manage": can_manage(request.user)},
    )


def _day(request: AuthenticatedRequest) -> dt.date:
    """The day whose visitors the form offers: the date posted, else ?date=, else today."""
    raw = request.POST.get("date") or request.GET.get("date") or ""
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        return timezone.localdate()


def _planned(room: Room, current: PlannedActivity | None = None) -> QuerySet[PlannedActivity]:
    today = timezone.localdate()
    shown = plan_selectors.activities_in_force(
        room=room, first=today - dt.timedelta(days=120), last=today
    )
    ids = set(shown.values_list("pk", flat=True))
    if current is not None:
        ids.add(current.pk)
    return selectors.planned_linkable(room=room).filter(pk__in=ids)


def _photos(request: AuthenticatedRequest) -> list[Any]:
    return request.FILES.getlist("photos")


@manager_required
def record_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    day = _day(request)
    visits = selectors.member_visits_of_day(room=room, day=day)
    initial: dict[str, Any] = {"date": day, "others": 0}
    planned_pk = request.GET.get("planned", "")
    planned = _planned(room)
    if planned_pk.isdigit():
        line = planned.filter(pk=int(planned_pk)).first()
        if line is not None:
            initial.update(planned=line.pk, title=line.title, kind=line.kind, game=line.games[0])
    form = RecordForm(
        request.POST if request.method == "POST" else None,
        request.FILES if request.method == "POST" else None,
        initial=initial,
        room=room,
        visits=visits,
        planned=planned,
    )
    if request.method == "POST" and form.is_valid():
        try:
            record = services.record_create(
                room=room, data=form.record(), photos=_photos(request), by=request.user
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Activity recorded."))
            return redirect("activities:record_detail", pk=record.pk)
    return render(
        request, "activities/record_form.html", {"form": form, "day": day, "visits": visits}
    )


@reader_required
def record_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    record = _record(request, pk)
    history = list(selectors.record_history(record=record))
    wanted = request.GET.get("version", "")
    shown = history[0]
    for version in history:
        if wanted.isdigit() and version.number == int(wanted):
            shown = version
    return render(
        request,
        "activities/record_detail.html",
        {
            "record": record,
            "shown": shown,
            "last": history[0],
            "attendees": shown.attendees.select_related("member", "visit").order_by(
                "member__name_pinyin"
            ),
            "photos": shown.photos.order_by("position"),
            "history": history,
            "can_manage": can_manage(request.user),
        },
    )


@manager_required
def record_correct(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    record = _record(request, pk)
    room = request.room
    last = selectors.record_last(record=record)
    posted = request.method == "POST"
    day = _day(request) if (posted or request.GET.get("date")) else last.date
    photos = [
        (p.pk, _("Photo %(n)s") % {"n": p.position}) for p in last.photos.order_by("position")
    ]
    visits = selectors.member_visits_of_day(room=room, day=day)
    form = CorrectionForm(
        request.POST if posted else None,
        request.FILES if posted else None,
        initial={
            "date": day,
            "starts": last.starts,
            "ends": last.ends,
            "kind": last.kind,
            "game": last.game,
            "title": last.title,
            "led_by": last.led_by,
            "attendees": [a.member_id for a in last.attendees.all()],
            "others": last.others,
            "notes": last.notes,
            "planned": last.planned_id,
        },
        room=room,
        visits=visits,
        planned=_planned(room, last.planned),
        photos=photos,
    )
    if posted and form.is_valid():
        try:
            services.record_correct(
                record=record,
                data=form.record(),
                reason=form.cleaned_data["reason"],
                photos=_photos(request),
                remove=form.cleaned_data["remove"],
                by=request.user,
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Record corrected: a new version is kept."))
            return redirect("activities:record_detail", pk=record.pk)
    return render(
        request,
        "activities/record_correct.html",
        {
            "form": form,
            "record": record,
            "last": last,
            "day": day,
            "visits": visits,
            "photos": last.photos.order_by("position"),
        },
    )


@reader_required
def record_photo(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Photos show people: served to the staff through a permission check (small
    JPEGs, re-encoded on upload: read whole)."""
    photo = get_object_or_404(RecordPhoto, pk=pk, room=request.room)
    with photo.image.open("rb") as file:
        response = HttpResponse(file.read(), content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=3600"
    return response


urlpatterns: list[URLPattern] = [
    path("records/", record_list, name="record_list"),
    path("records/new/", record_create, name="record_create"),
    path("records/<int:pk>/", record_detail, name="record_detail"),
    path("records/<int:pk>/correct/", record_correct, name="record_correct"),
    path("records/photos/<int:pk>/", record_photo, name="record_photo"),
]
