"""ID numbers at rest: encrypted, found by a keyed hash, never shown by the database,
a log, a URL, an error page or a shared phone's cache (issue 11 item 5)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import sys
from io import StringIO

import pytest
from cryptography.fernet import Fernet
from django.conf import settings
from django.core.checks import run_checks
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.test import RequestFactory
from django.urls import reverse
from django.views.debug import ExceptionReporter

from clubapp.members import services, views
from clubapp.members.models import Member
from clubapp.members.services import members as member_services
from clubapp.members.tests.factories import MemberFactory, image_bytes, make_id_number

pytestmark = pytest.mark.django_db
NUMBER = make_id_number(42)


def _row_text(member: Member) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Member._meta.db_table} WHERE id = %s", [member.pk])
        return " ".join(str(value) for value in cursor.fetchone())


def test_the_database_holds_no_number_in_clear(room, manager):
    member = services.member_create(
        room=room, name="钱大伯", phone="13800000002", id_number=NUMBER, by=manager
    )
    row = _row_text(member)
    assert NUMBER not in row and NUMBER[6:14] not in row  # not even the birth date
    expected = hmac.new(settings.ID_NUMBER_HASH_KEY.encode(), NUMBER.encode(), hashlib.sha256)
    assert member.id_number_hash == expected.hexdigest()
    assert Member.objects.get(pk=member.pk).id_number == NUMBER


def test_a_duplicate_in_the_database_names_the_hash_not_the_number(room):
    first = MemberFactory(room=room, id_number=NUMBER)
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        MemberFactory(room=room, id_number=NUMBER)
    text = str(caught.value)
    cause = caught.value.__cause__
    detail = getattr(getattr(cause, "diag", None), "message_detail", "") or ""
    assert NUMBER not in text + detail
    assert NUMBER[:6] + NUMBER[6:14] not in text + detail
    if connection.vendor == "postgresql":
        # What the server writes to its log: "Key (room_id, id_number_hash)=(…) already exists."
        assert first.id_number_hash in detail


def test_a_race_of_two_desks_ends_in_a_message_without_the_number(
    room, manager, monkeypatch, caplog
):
    MemberFactory(room=room, id_number=NUMBER)
    # The second desk's check ran before the first desk's row was committed.
    monkeypatch.setattr(member_services, "id_number_digest", lambda number: "not-yet-there")
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ValidationError) as caught:
        services.member_create(room=room, name="钱大伯", phone="1", id_number=NUMBER, by=manager)
    assert caught.value.error_dict["id_number"][0].code == "id_duplicate"
    assert NUMBER not in " ".join(caught.value.messages)
    assert NUMBER not in caplog.text
    assert Member.objects.count() == 1


def test_it_finds_a_member_by_id_number_by_post_only(client, manager, room):
    MemberFactory(room=room, name="钱大伯", id_number=NUMBER)
    MemberFactory(room=room, name="孙阿姨")
    client.force_login(manager)
    url = reverse("members:member_list")
    found = client.post(url, {"q": NUMBER}).content.decode()
    assert "钱大伯" in found and "孙阿姨" not in found
    # A number in the URL is not a search: it would sit in access logs and history.
    listed = client.get(url, {"q": NUMBER}).content.decode()
    assert "钱大伯" in listed and "孙阿姨" in listed
    assert 'method="post"' in listed


@pytest.mark.parametrize("view_name", ["member_detail", "member_list", "member_create"])
def test_pages_that_show_the_number_are_never_cached(client, manager, room, view_name):
    member = MemberFactory(room=room, id_number=NUMBER)
    client.force_login(manager)
    args = [member.pk] if view_name == "member_detail" else []
    response = client.get(reverse(f"members:{view_name}", args=args))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert NUMBER not in response.content.decode()  # masked, the manager's page included


def test_the_page_that_shows_the_full_number_is_never_cached(client, manager, room):
    member = MemberFactory(room=room, id_number=NUMBER)
    client.force_login(manager)
    response = client.post(reverse("members:member_id_number_show", args=[member.pk]))
    assert NUMBER in response.content.decode()
    assert "no-store" in response["Cache-Control"]


def test_an_error_report_of_the_create_view_hides_the_number(manager, room, monkeypatch):
    def broken(upload):
        raise RuntimeError("disk full")

    monkeypatch.setattr(member_services, "photo_process", broken)
    photo = SimpleUploadedFile("me.png", image_bytes("PNG"), content_type="image/png")
    request = RequestFactory().post(
        reverse("members:member_create"),
        {"name": "钱大伯", "phone": "13800000002", "id_number": NUMBER, "photo": photo},
    )
    request.user = manager
    request.room = room  # as RoomMiddleware sets it
    try:
        views.member_create(request)
    except RuntimeError:
        report = ExceptionReporter(request, *sys.exc_info()).get_traceback_html()
    assert "disk full" in report
    assert "member_create" in report  # the frames are there, their values hidden
    assert NUMBER not in report


def test_rotation_re_encrypts_under_the_new_key(room, settings):
    old_key = settings.ID_NUMBER_KEYS[0]
    numbers = [make_id_number(n) for n in (1, 2, 3)]
    members = [MemberFactory(room=room, id_number=number) for number in numbers]
    hashes = [m.id_number_hash for m in members]
    new_key = Fernet.generate_key().decode()
    settings.ID_NUMBER_KEYS = [new_key, old_key]  # during the rotation: both read
    out = StringIO()
    call_command("id_numbers_rotate", stdout=out)
    assert "3" in out.getvalue()
    settings.ID_NUMBER_KEYS = [new_key]  # the old key is gone
    for member, number, digest in zip(members, numbers, hashes, strict=True):
        fresh = Member.objects.get(pk=member.pk)
        assert fresh.id_number == number
        assert fresh.id_number_hash == digest
    settings.ID_NUMBER_KEYS = [old_key]
    with pytest.raises(ImproperlyConfigured):
        Member.objects.get(pk=members[0].pk).id_number  # noqa: B018


def test_rotation_with_a_missing_key_changes_nothing(room, settings):
    member = MemberFactory(room=room, id_number=NUMBER)
    before = member.id_number_encrypted
    settings.ID_NUMBER_KEYS = [Fernet.generate_key().decode()]
    with pytest.raises(ImproperlyConfigured):
        call_command("id_numbers_rotate", stdout=StringIO())
    member.refresh_from_db()
    assert member.id_number_encrypted == before


@pytest.mark.parametrize(
    ("keys", "hash_key", "expected"),
    [
        ([], "h" * 40, "members.E001"),
        (["DEV"], "h" * 40, "members.E002"),
        (["not-a-key"], "h" * 40, "members.E003"),
        (["NEW"], "DEV", "members.E004"),
        (["NEW"], "short", "members.E004"),
    ],
)
def test_check_deploy_refuses_development_or_missing_keys(settings, keys, hash_key, expected):
    fresh = Fernet.generate_key().decode()
    settings.ID_NUMBER_KEYS = [
        {"DEV": settings.DEV_ID_NUMBER_KEY, "NEW": fresh}.get(k, k) for k in keys
    ]
    settings.ID_NUMBER_HASH_KEY = {"DEV": settings.DEV_ID_NUMBER_HASH_KEY}.get(hash_key, hash_key)
    ids = [m.id for m in run_checks(include_deployment_checks=True, tags=["security"])]
    assert expected in ids


def test_check_deploy_accepts_keys_of_its_own(settings):
    settings.ID_NUMBER_KEYS = [Fernet.generate_key().decode()]
    settings.ID_NUMBER_HASH_KEY = "k" * 40
    ids = [m.id for m in run_checks(include_deployment_checks=True, tags=["security"])]
    assert not [i for i in ids if i.startswith("members.")]
