"""The records' pages: the list, recording with the day's visitors, a record and its
history, correcting, the photos."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubapp.activities.models import ActivityRecord, PlannedActivity, RecordVersion
from clubapp.activities.selectors import records as selectors
from clubapp.activities.services import records as services
from clubapp.activities.tests.plans_records import (
    a_record,
    approved_plan,
    at,
    visitor,
    what_happened,
)
from clubapp.members.tests.factories import image_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(10, 15))


def _post(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "date": "2026-12-05",
        "starts": "14:00",
        "ends": "17:00",
        "kind": "tournament",
        "game": "xiangqi",
        "title": "象棋月赛",
        "led_by": "王经理",
        "others": "2",
        "notes": "",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def _jpeg(name: str = "a.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, image_bytes("JPEG", (120, 80)), content_type="image/jpeg")


def test_the_form_offers_the_days_visitors(client, room, manager):
    visitor(room, manager, at(5, 13), "钱大伯")
    visitor(room, manager, at(4, 13), "李师傅")
    client.force_login(manager)
    body = client.get(reverse("activities:record_create") + "?date=2026-12-05").content.decode()
    assert "钱大伯 13:00" in body and "李师傅" not in body
    body = client.get(reverse("activities:record_create") + "?date=2026-12-09").content.decode()
    assert "当天没有会员来访" in body


def test_a_manager_records_with_attendees_and_photos(client, room, manager, approver):
    came = visitor(room, manager, at(5, 13), "钱大伯")
    plan = approved_plan(room, manager, approver)
    line = PlannedActivity.objects.filter(version__plan=plan).order_by("position").first()
    client.force_login(manager)
    url = reverse("activities:record_create")
    assert "象棋月赛" in client.get(url + f"?planned={line.pk}").content.decode()
    response = client.post(
        url,
        _post(attendees=[came.pk], planned=line.pk, photos=[_jpeg(), _jpeg("b.jpg")]),
    )
    record = ActivityRecord.objects.get()
    assert response.url == reverse("activities:record_detail", args=[record.pk])
    last = selectors.record_last(record=record)
    assert last.planned == line and last.photos.count() == 2
    assert [a.member for a in last.attendees.all()] == [came]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"starts": "17:00", "ends": "14:00"}, "结束时间不能早于开始时间"),
        ({"date": "2026-12-11"}, "活动举行之后才能记录"),
    ],
    ids=["ends_before", "future"],
)
def test_bad_input_shows_why_and_saves_nothing(client, room, manager, changes, message):
    client.force_login(manager)
    response = client.post(reverse("activities:record_create"), _post(**changes))
    assert response.status_code == 200 and message in response.content.decode()
    assert not ActivityRecord.objects.exists()


def test_an_attendee_who_did_not_visit_is_refused(client, room, manager):
    other_day = visitor(room, manager, at(4, 13), "李师傅")
    client.force_login(manager)
    response = client.post(reverse("activities:record_create"), _post(attendees=[other_day.pk]))
    assert "李师傅 在 2026-12-05 没有来活动室" in response.content.decode()
    assert not ActivityRecord.objects.exists()


def test_a_bad_photo_is_refused(client, room, manager):
    client.force_login(manager)
    bad = SimpleUploadedFile("x.jpg", b"not a picture", content_type="image/jpeg")
    response = client.post(reverse("activities:record_create"), _post(photos=[bad]))
    assert "第 1 张照片" in response.content.decode()
    assert not ActivityRecord.objects.exists()


def test_the_list_and_the_detail_read_the_last_version(client, room, manager, accountant):
    record = a_record(room, manager)
    services.record_correct(
        record=record, data=what_happened(title="象棋快棋赛"), reason="名称记错", by=manager
    )
    client.force_login(accountant)
    body = client.get(reverse("activities:record_list")).content.decode()
    assert "象棋快棋赛" in body and "象棋月赛" not in body
    url = reverse("activities:record_detail", args=[record.pk])
    body = client.get(url).content.decode()
    assert "象棋快棋赛" in body and "名称记错" in body and "版本 1" in body
    assert "更正记录" not in body  # the accountant reads only
    body = client.get(url + "?version=1").content.decode()
    assert "象棋月赛" in body and "记录以版本 2 为准" in body


def test_a_correction_keeps_the_photos_unless_removed(client, room, manager):
    record = services.record_create(
        room=room,
        data=what_happened(),
        photos=[_jpeg(), _jpeg("b.jpg")],
        by=manager,
        now=at(5, 18),
    )
    first, second = selectors.record_last(record=record).photos.order_by("position")
    client.force_login(manager)
    url = reverse("activities:record_correct", args=[record.pk])
    body = client.get(url).content.decode()
    assert "象棋月赛" in body and "删除照片" in body
    response = client.post(url, _post(reason="", notes="x"))
    assert "请说明记录为何更正" in response.content.decode()
    assert RecordVersion.objects.count() == 1
    response = client.post(url, _post(reason="删掉模糊的照片", remove=[second.pk]))
    assert response.status_code == 302
    last = selectors.record_last(record=record)
    assert last.number == 2 and [p.image.name for p in last.photos.all()] == [first.image.name]


def test_photos_are_served_to_the_staff_only(client, room, manager, approver, member):
    record = services.record_create(
        room=room, data=what_happened(), photos=[_jpeg()], by=manager, now=at(5, 18)
    )
    photo = selectors.record_last(record=record).photos.get()
    url = reverse("activities:record_photo", args=[photo.pk])
    client.force_login(approver)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    client.force_login(member)
    assert client.get(url).status_code == 403


def test_members_do_not_read_records(client, room, manager, member):
    record = a_record(room, manager)
    client.force_login(member)
    assert client.get(reverse("activities:record_list")).status_code == 403
    assert client.get(reverse("activities:record_detail", args=[record.pk])).status_code == 403
    assert client.get(reverse("activities:record_create")).status_code == 403
