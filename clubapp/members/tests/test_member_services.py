from __future__ import annotations

import io
import logging

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from PIL import Image

from clubapp.core.tests.factories import RoomFactory
from clubapp.members.models import Member
from clubapp.members.services import member_create, member_update
from clubapp.members.tests.factories import MemberFactory, image_bytes, make_id_number

pytestmark = pytest.mark.django_db


def _create(room, manager, **kwargs):
    data = {"name": "钱大伯", "phone": "13800000002", "id_number": make_id_number(7)}
    data.update(kwargs)
    return member_create(room=room, by=manager, **data)


def test_it_registers_a_member(room, manager):
    member = _create(room, manager)
    assert member.name == "钱大伯"
    assert member.id_number == make_id_number(7)
    assert not member.photo


def test_it_stores_the_photo_resized_under_a_random_name(room, manager):
    member = _create(room, manager, photo=io.BytesIO(image_bytes("PNG", exif=True)))
    name = member.photo.name
    assert name.startswith("members/photos/") and name.endswith(".jpg")
    assert "钱" not in name and make_id_number(7) not in name
    with member.photo.open("rb") as f:
        stored = Image.open(f)
        assert stored.size == (413, 579)
        assert not stored.getexif()
    other = _create(room, manager, id_number=make_id_number(8), photo=io.BytesIO(image_bytes()))
    assert other.photo.name != name


def test_it_refuses_an_invalid_id_number_and_saves_nothing(room, manager):
    with pytest.raises(ValidationError, match="校验位"):
        _create(room, manager, id_number="110105194912310021")
    assert Member.objects.count() == 0


def test_it_refuses_a_duplicate_id_number_in_the_room_and_saves_nothing(room, manager):
    _create(room, manager)
    with pytest.raises(ValidationError, match="已登记"):
        _create(room, manager, name="另一人", id_number=make_id_number(7).lower())
    assert Member.objects.count() == 1


def test_the_same_person_may_be_a_member_of_another_room(room, manager):
    _create(room, manager)
    other = RoomFactory(slug="east", name="东风棋牌室")
    _create(other, manager)
    assert Member.objects.count() == 2


def test_the_database_refuses_a_duplicate_id_number_in_the_room(room):
    MemberFactory(room=room, id_number=make_id_number(9))
    with pytest.raises(IntegrityError), transaction.atomic():
        Member.objects.bulk_create(
            [Member(room=room, name="x", phone="1", id_number=make_id_number(9))]
        )


@pytest.mark.parametrize(
    "photo",
    [b"not an image at all", image_bytes("GIF"), b"\xff\xd8" + b"0" * (5 * 1024 * 1024)],
    ids=["text", "gif", "too-large"],
)
def test_it_refuses_a_bad_photo_and_saves_nothing(room, manager, photo, settings):
    with pytest.raises(ValidationError):
        _create(room, manager, photo=io.BytesIO(photo))
    assert Member.objects.count() == 0
    assert not list((settings.MEDIA_ROOT).rglob("*.jpg"))


def test_it_requires_a_name_and_a_phone(room, manager):
    with pytest.raises(ValidationError):
        _create(room, manager, name="  ")
    with pytest.raises(ValidationError):
        _create(room, manager, phone="")
    assert Member.objects.count() == 0


def test_it_never_logs_the_id_number(room, manager, caplog):
    number = make_id_number(11)
    with caplog.at_level(logging.DEBUG):
        member = _create(room, manager, id_number=number)
        with pytest.raises(ValidationError):
            _create(room, manager, id_number=number)
        with pytest.raises(ValidationError):
            _create(room, manager, id_number=number[:-1] + ("0" if number[-1] != "0" else "1"))
    assert caplog.records  # something was logged...
    assert number not in caplog.text  # ...but not the number
    assert number[6:14] not in caplog.text
    assert number not in repr(member) and number not in str(member)


def test_it_updates_name_phone_and_photo_but_not_the_id_number(room, manager):
    member = _create(room, manager)
    member_update(
        member=member, name="钱老伯", phone="139", photo=io.BytesIO(image_bytes()), by=manager
    )
    member.refresh_from_db()
    assert (member.name, member.phone, member.id_number) == ("钱老伯", "139", make_id_number(7))
    assert member.photo


def test_it_leaves_no_photo_behind_when_saving_fails(room, manager, settings, monkeypatch):
    def broken_save(self, *args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Member, "save", broken_save)
    with pytest.raises(RuntimeError):
        member_create(
            room=room, name="张三", phone="13800000000", id_number=make_id_number(31),
            by=manager, photo=io.BytesIO(image_bytes()),
        )  # fmt: skip
    assert not list(settings.MEDIA_ROOT.rglob("*.jpg"))
    assert Member.objects.count() == 0


def test_it_leaves_no_new_photo_behind_when_an_update_fails(room, manager, settings, monkeypatch):
    member = member_create(
        room=room, name="张三", phone="13800000000", id_number=make_id_number(31), by=manager,
        photo=io.BytesIO(image_bytes()),
    )  # fmt: skip
    before = sorted(settings.MEDIA_ROOT.rglob("*.jpg"))

    def broken_save(self, *args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Member, "save", broken_save)
    with pytest.raises(RuntimeError):
        member_update(
            member=member, name="张三", phone="13800000000", by=manager,
            photo=io.BytesIO(image_bytes()),
        )  # fmt: skip
    assert sorted(settings.MEDIA_ROOT.rglob("*.jpg")) == before
