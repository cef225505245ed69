"""活动记录's services: recording, attendees from the day's visits, photos, corrections."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from PIL import Image

from clubapp.activities.models import (
    ActivityRecord,
    PlannedActivity,
    RecordAttendee,
    RecordPhoto,
    RecordVersion,
)
from clubapp.activities.selectors import records as selectors
from clubapp.activities.services import records as services
from clubapp.activities.tests.plans_records import (
    a_record,
    approved_plan,
    at,
    submitted_plan,
    visit_again,
    visitor,
    what_happened,
)
from clubapp.members.tests.factories import image_bytes

pytestmark = pytest.mark.django_db


def _nothing_saved() -> None:
    assert not ActivityRecord.objects.exists()
    assert not RecordVersion.objects.exists()
    assert not RecordPhoto.objects.exists()


def photo(fmt: str = "JPEG", size: tuple[int, int] = (2400, 1600), exif: bool = False):
    return io.BytesIO(image_bytes(fmt, size, exif=exif))


def test_it_records_what_happened_with_the_days_visitors(room, manager):
    one = visitor(room, manager, at(5, 13), "钱大伯")
    two = visitor(room, manager, at(5, 14), "孙阿姨")
    visit_again(one, manager, at(5, 19))
    record = services.record_create(
        room=room,
        data=what_happened(attendees=[one, two], others=3, notes="八人参赛"),
        by=manager,
        now=at(5, 18),
    )
    last = selectors.record_last(record=record)
    assert last.number == 1 and last.others == 3 and last.written_by == manager
    visits = {a.member.name: a.visit.checked_in_at for a in last.attendees.all()}
    assert visits == {"钱大伯": at(5, 13), "孙阿姨": at(5, 14)}  # the first visit of the day


def test_only_a_manager_records(room, approver):
    with pytest.raises(PermissionDenied):
        services.record_create(room=room, data=what_happened(), by=approver, now=at(5, 18))


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"starts": dt.time(17), "ends": dt.time(14)}, "ends"),
        ({"starts": dt.time(14), "ends": dt.time(14)}, "ends"),
        ({"game": "bridge"}, "game"),
        ({"kind": "party"}, "kind"),
        ({"title": " "}, "title"),
        ({"led_by": ""}, "led_by"),
        ({"others": -2}, "others"),
        ({"day": 6}, "future"),
    ],
    ids=["ends_before", "ends_at_start", "game", "kind", "title", "leader", "others", "future"],
)
def test_bad_input_is_refused_and_nothing_saved(room, manager, changes, code):
    with pytest.raises(ValidationError) as exc:
        services.record_create(room=room, data=what_happened(**changes), by=manager, now=at(5, 18))
    assert exc.value.error_list[0].code == code
    _nothing_saved()


def test_an_attendee_who_did_not_visit_that_day_is_refused(room, manager):
    came = visitor(room, manager, at(5, 13))
    yesterday = visitor(room, manager, at(4, 13), "李师傅")
    with pytest.raises(ValidationError) as exc:
        a_record(room, manager, attendees=[came, yesterday])
    assert exc.value.error_list[0].code == "attendee_no_visit"
    assert "李师傅" in exc.value.messages[0] and "2026-12-05" in exc.value.messages[0]
    _nothing_saved()


def test_an_attendee_twice_is_refused(room, manager):
    came = visitor(room, manager, at(5, 13), "钱大伯")
    with pytest.raises(ValidationError) as exc:
        a_record(room, manager, attendees=[came, came])
    assert exc.value.error_list[0].code == "attendee_twice"
    assert not RecordAttendee.objects.exists()
    _nothing_saved()


def test_a_planned_activity_of_an_approved_version_may_be_linked(room, manager, approver):
    plan = approved_plan(room, manager, approver)
    line = PlannedActivity.objects.filter(version__plan=plan).first()
    record = a_record(room, manager, planned=line)
    assert selectors.record_last(record=record).planned == line


def test_a_planned_activity_not_approved_is_refused(room, manager):
    plan = submitted_plan(room, manager)
    line = PlannedActivity.objects.filter(version__plan=plan).first()
    with pytest.raises(ValidationError) as exc:
        a_record(room, manager, planned=line)
    assert exc.value.error_list[0].code == "planned"
    _nothing_saved()


def test_photos_are_checked_and_re_encoded_without_exif(room, manager):
    record = services.record_create(
        room=room,
        data=what_happened(),
        photos=[photo(exif=True), photo("PNG", (800, 600))],
        by=manager,
        now=at(5, 18),
    )
    stored = list(selectors.record_last(record=record).photos.order_by("position"))
    assert [p.position for p in stored] == [1, 2]
    with Image.open(stored[0].image.open("rb")) as image:
        assert image.format == "JPEG" and image.size == (1600, 1067)  # its shape kept
        assert not image.getexif()
    with Image.open(stored[1].image.open("rb")) as image:
        assert image.size == (800, 600)  # small enough already


def test_a_bad_photo_saves_nothing(room, manager):
    with pytest.raises(ValidationError) as exc:
        services.record_create(
            room=room,
            data=what_happened(),
            photos=[photo(), io.BytesIO(b"not a picture")],
            by=manager,
            now=at(5, 18),
        )
    assert exc.value.error_list[0].code == "photo_not_image"
    assert "2" in exc.value.messages[0]
    _nothing_saved()


def test_too_many_photos_are_refused(room, manager):
    with pytest.raises(ValidationError) as exc:
        services.record_create(
            room=room,
            data=what_happened(),
            photos=[photo(size=(40, 30)) for _ in range(services.MAX_PHOTOS + 1)],
            by=manager,
            now=at(5, 18),
        )
    assert exc.value.error_list[0].code == "photos_many"
    _nothing_saved()


def test_a_correction_is_a_new_version_keeping_the_photos_unless_removed(room, manager):
    one = visitor(room, manager, at(5, 13), "钱大伯")
    two = visitor(room, manager, at(5, 14), "孙阿姨")
    record = services.record_create(
        room=room,
        data=what_happened(attendees=[one]),
        photos=[photo(size=(40, 30)), photo(size=(60, 30))],
        by=manager,
        now=at(5, 18),
    )
    first = selectors.record_last(record=record)
    kept, removed = first.photos.order_by("position")
    with pytest.raises(ValidationError) as exc:
        services.record_correct(record=record, data=what_happened(), reason=" ", by=manager)
    assert exc.value.error_list[0].code == "reason"
    v2 = services.record_correct(
        record=record,
        data=what_happened(attendees=[one, two], title="象棋月赛（第一轮）"),
        reason="漏记了孙阿姨",
        remove=[removed.pk],
        photos=[photo(size=(80, 30))],
        by=manager,
        now=at(6, 9),
    )
    assert v2.number == 2 and v2.reason == "漏记了孙阿姨"
    assert selectors.record_last(record=record) == v2
    photos = list(v2.photos.order_by("position"))
    assert photos[0].image.name == kept.image.name  # the same file, not a copy
    assert len(photos) == 2 and photos[1].image.name != removed.image.name
    assert {a.member.name for a in v2.attendees.all()} == {"钱大伯", "孙阿姨"}
    # version 1 is still there, as written
    assert first.attendees.count() == 1 and first.photos.count() == 2
    history = list(selectors.record_history(record=record))
    assert [(v.number, v.written_at) for v in history] == [(2, at(6, 9)), (1, at(5, 18))]


def test_a_bad_correction_saves_nothing(room, manager):
    record = a_record(room, manager)
    with pytest.raises(ValidationError):
        services.record_correct(
            record=record,
            data=what_happened(starts=dt.time(15), ends=dt.time(9)),
            reason="时间记错",
            by=manager,
            now=at(6, 9),
        )
    assert RecordVersion.objects.count() == 1
