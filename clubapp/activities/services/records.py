"""活动记录: a manager records what happened (篇三 五.5 做好活动记录).

A record is its versions: the first is written when the activity is recorded, and a
correction is a new version with a reason, never an edit. Attendees are members
picked from the visits of the record's day; photos go through the members' photo
checks (size, format, MPO, EXIF) and are re-encoded; a correction keeps the earlier
photos unless removed (docs/activities.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.activities.models import (
    ActivityKind,
    ActivityRecord,
    Game,
    PlannedActivity,
    RecordAttendee,
    RecordPhoto,
    RecordVersion,
)
from clubapp.activities.permissions import can_manage
from clubapp.activities.selectors import records as selectors
from clubapp.core.models import Room
from clubapp.members.models import Member, Visit
from clubapp.members.photos import photo_process

#: an activity's photo: at most this wide and high once re-encoded
PHOTO_BOX = (1600, 1600)
MAX_PHOTOS = 6
MAX_OTHERS = 10_000


@dataclass(frozen=True)
class RecordIn:
    """What happened, as a form gives it."""

    date: dt.date
    starts: dt.time
    kind: str
    game: str
    title: str
    led_by: str
    ends: dt.time | None = None
    #: the members who took part (each must have visited on ``date``)
    attendees: Sequence[Member] = field(default_factory=tuple)
    others: int = 0
    notes: str = ""
    planned: PlannedActivity | None = None


def _manager(user: User) -> None:
    if not can_manage(user):
        raise PermissionDenied(_("Only a manager may record activities."))


def _check(room: Room, data: RecordIn, *, now: dt.datetime) -> tuple[RecordIn, list[Visit]]:
    if not isinstance(data.date, dt.date) or data.date > timezone.localdate(now):
        raise ValidationError(_("An activity is recorded once it has happened."), code="future")
    if not isinstance(data.starts, dt.time):
        raise ValidationError(_("Enter the time the activity began."), code="starts")
    if data.ends is not None and data.ends <= data.starts:
        raise ValidationError(_("The activity cannot end before it begins."), code="ends")
    if data.kind not in ActivityKind.values:
        raise ValidationError(_("Choose the kind of activity."), code="kind")
    if data.game not in Game.values:
        raise ValidationError(_("Choose the game."), code="game")
    title, led_by = (data.title or "").strip(), (data.led_by or "").strip()
    if not title:
        raise ValidationError(_("Give the activity a title."), code="title")
    if not led_by:
        raise ValidationError(_("Say who led the activity."), code="led_by")
    if not isinstance(data.others, int) or not 0 <= data.others <= MAX_OTHERS:
        raise ValidationError(_("The other attendance is a number of people."), code="others")
    planned = data.planned
    if planned is not None and not selectors.planned_linkable(room=room).filter(pk=planned.pk):
        raise ValidationError(
            _("Link a planned activity of an approved plan of this room."), code="planned"
        )
    seen: set[int] = set()
    visits: list[Visit] = []
    of_day = {v.member_id: v for v in selectors.member_visits_of_day(room=room, day=data.date)}
    for member in data.attendees:
        if member.pk in seen:
            raise ValidationError(
                _("%(name)s is listed twice.") % {"name": member.name}, code="attendee_twice"
            )
        seen.add(member.pk)
        visit = of_day.get(member.pk)
        if visit is None:
            raise ValidationError(
                _("%(name)s did not visit the room on %(date)s.")
                % {"name": member.name, "date": data.date.isoformat()},
                code="attendee_no_visit",
            )
        visits.append(visit)
    checked = RecordIn(
        date=data.date,
        starts=data.starts,
        ends=data.ends,
        kind=data.kind,
        game=data.game,
        title=title[:100],
        led_by=led_by[:60],
        attendees=tuple(data.attendees),
        others=data.others,
        notes=(data.notes or "").strip(),
        planned=planned,
    )
    return checked, visits


def _photos_check(photos: Sequence[IO[bytes]]) -> list[ContentFile[bytes]]:
    """Every photo read and re-encoded before a row is written (a bad one saves nothing)."""
    processed = []
    for n, upload in enumerate(photos, start=1):
        try:
            processed.append(photo_process(upload, box=PHOTO_BOX))
        except ValidationError as exc:
            raise ValidationError(
                _("Photo %(n)s: %(message)s") % {"n": n, "message": exc.messages[0]},
                code=exc.error_list[0].code,
            ) from None
    return processed


def _write(
    record: ActivityRecord,
    number: int,
    data: RecordIn,
    visits: list[Visit],
    *,
    reason: str,
    kept: Sequence[RecordPhoto],
    new_photos: list[ContentFile[bytes]],
    by: User,
    now: dt.datetime,
) -> RecordVersion:
    version = RecordVersion.objects.create(
        room_id=record.room_id,
        record=record,
        number=number,
        date=data.date,
        starts=data.starts,
        ends=data.ends,
        kind=data.kind,
        game=data.game,
        title=data.title,
        led_by=data.led_by,
        others=data.others,
        notes=data.notes,
        planned=data.planned,
        reason=reason,
        written_by=by,
        written_at=now,
    )
    attendees = []
    for visit in visits:
        assert visit.member is not None
        attendees.append(
            RecordAttendee(
                room_id=record.room_id, version=version, member=visit.member, visit=visit
            )
        )
    RecordAttendee.objects.bulk_create(attendees)
    position = 0
    for photo in kept:
        position += 1
        # The same file: a correction never copies or changes a photo.
        RecordPhoto.objects.create(
            room_id=record.room_id, version=version, image=photo.image.name, position=position
        )
    for content in new_photos:
        position += 1
        photo = RecordPhoto(room_id=record.room_id, version=version, position=position)
        photo.image.save("photo.jpg", content, save=False)
        photo.save()
    return version


@transaction.atomic
def record_create(
    *,
    room: Room,
    data: RecordIn,
    by: User,
    photos: Sequence[IO[bytes]] = (),
    now: dt.datetime | None = None,
) -> ActivityRecord:
    """记录: what happened, as version 1."""
    _manager(by)
    now = now or timezone.now()
    checked, visits = _check(room, data, now=now)
    if len(photos) > MAX_PHOTOS:
        raise ValidationError(
            _("A record has at most %(n)s photos.") % {"n": MAX_PHOTOS}, code="photos_many"
        )
    new_photos = _photos_check(photos)
    record = ActivityRecord.objects.create(room=room, created_at=now, created_by=by)
    _write(record, 1, checked, visits, reason="", kept=(), new_photos=new_photos, by=by, now=now)
    return record


@transaction.atomic
def record_correct(
    *,
    record: ActivityRecord,
    data: RecordIn,
    reason: str,
    by: User,
    photos: Sequence[IO[bytes]] = (),
    remove: Sequence[int] = (),
    now: dt.datetime | None = None,
) -> RecordVersion:
    """更正: a new version with the reason; the last version's photos stay unless their
    ids are in ``remove``; ``photos`` are added after them."""
    _manager(by)
    now = now or timezone.now()
    record = ActivityRecord.objects.select_for_update().select_related("room").get(pk=record.pk)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the record is corrected."), code="reason")
    checked, visits = _check(record.room, data, now=now)
    last = selectors.record_last(record=record)
    kept = [p for p in last.photos.order_by("position") if p.pk not in set(remove)]
    if len(kept) + len(photos) > MAX_PHOTOS:
        raise ValidationError(
            _("A record has at most %(n)s photos.") % {"n": MAX_PHOTOS}, code="photos_many"
        )
    new_photos = _photos_check(photos)
    return _write(
        record,
        last.number + 1,
        checked,
        visits,
        reason=reason[:200],
        kept=kept,
        new_photos=new_photos,
        by=by,
        now=now,
    )
