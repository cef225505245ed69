from __future__ import annotations

import logging

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubapp.members.models import Member
from clubapp.members.tests.factories import MemberFactory, image_bytes, make_id_number

pytestmark = pytest.mark.django_db
URL = reverse("members:member_create")


def _post(client, **kwargs):
    data = {"name": "钱大伯", "phone": "13800000002", "id_number": make_id_number(21)}
    data.update(kwargs)
    return client.post(URL, data)


def test_it_registers_a_member_with_a_photo(client, manager, room):
    client.force_login(manager)
    photo = SimpleUploadedFile("me.png", image_bytes("PNG"), content_type="image/png")
    response = _post(client, photo=photo)
    member = Member.objects.get()
    assert response.status_code == 302 and response.url == member.get_absolute_url()
    assert member.photo.name.startswith("members/photos/")


def test_it_shows_the_form(client, manager, room):
    client.force_login(manager)
    assert client.get(URL).status_code == 200


@pytest.mark.parametrize(
    ("number", "message"),
    [("110105194912310021", "校验位"), ("110105194902300020", "出生日期"), ("12345", "18位")],
)
def test_it_refuses_an_invalid_id_number_with_a_message(client, manager, room, number, message):
    client.force_login(manager)
    response = _post(client, id_number=number)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Member.objects.count() == 0


def test_in_english_the_messages_are_english(client, manager, room):
    MemberFactory(room=room, id_number=make_id_number(21))
    client.force_login(manager)
    client.cookies["django_language"] = "en"
    assert "already registered" in _post(client).content.decode()
    assert "check digit" in _post(client, id_number="110105194912310021").content.decode()


def test_it_refuses_a_duplicate_id_number_with_a_message(client, manager, room):
    MemberFactory(room=room, id_number=make_id_number(21))
    client.force_login(manager)
    response = _post(client)
    assert "已登记" in response.content.decode()
    assert Member.objects.count() == 1


def test_it_refuses_a_file_that_is_not_an_image(client, manager, room):
    client.force_login(manager)
    fake = SimpleUploadedFile("photo.jpg", b"MZ\x90\x00 not a photo", content_type="image/jpeg")
    response = _post(client, photo=fake)
    assert "不是有效的JPEG或PNG图片" in response.content.decode()
    assert Member.objects.count() == 0


def test_it_refuses_a_photo_over_5_mb(client, manager, room):
    client.force_login(manager)
    big = SimpleUploadedFile(
        "big.jpg", b"\xff\xd8" + b"0" * (5 * 1024 * 1024), content_type="image/jpeg"
    )
    response = _post(client, photo=big)
    assert "5 MB" in response.content.decode()
    assert Member.objects.count() == 0


def test_it_warns_about_a_region_code_missing_from_the_table(client, manager, room):
    client.force_login(manager)
    response = _post(client, id_number=make_id_number(22, region="320199"), follow=False)
    assert Member.objects.count() == 1
    page = client.get(response.url).content.decode()
    assert "地区码不在任何一版行政区划代码表" in page


def test_it_says_an_old_region_code_is_a_former_one_never_new(client, manager, room):
    client.force_login(manager)
    response = _post(client, id_number=make_id_number(24, region="132733"), follow=False)
    assert Member.objects.count() == 1
    page = client.get(response.url).content.decode()
    assert "旧行政区划代码：河北省唐山地区唐海县，1983 年起停用" in page
    assert "新设" not in page


def test_the_id_number_is_not_logged_even_when_the_page_fails(client, manager, room, caplog):
    client.force_login(manager)
    number = make_id_number(23)
    with caplog.at_level(logging.DEBUG):
        _post(client, id_number=number)
        _post(client, id_number=number)
    assert number not in caplog.text


@pytest.mark.parametrize("who", ["accountant", "member", "outsider"])
def test_only_managers_register_members(client, request, who, room):
    client.force_login(request.getfixturevalue(who))
    assert _post(client).status_code == 403
    assert Member.objects.count() == 0


def test_the_manager_edits_name_and_phone(client, manager, room):
    member = MemberFactory(room=room)
    client.force_login(manager)
    url = reverse("members:member_edit", args=[member.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "新名字", "phone": "139"})
    assert response.status_code == 302
    member.refresh_from_db()
    assert (member.name, member.phone) == ("新名字", "139")


def test_the_manager_links_a_member_to_an_account_once(client, manager, member, room):
    first, second = MemberFactory(room=room), MemberFactory(room=room)
    client.force_login(manager)
    data = {"name": "赵会员", "phone": "1", "user": member.pk}
    assert client.post(reverse("members:member_edit", args=[first.pk]), data).status_code == 302
    first.refresh_from_db()
    assert first.user == member
    response = client.post(reverse("members:member_edit", args=[second.pk]), data)
    assert "已关联其他会员" in response.content.decode()
    second.refresh_from_db()
    assert second.user is None
