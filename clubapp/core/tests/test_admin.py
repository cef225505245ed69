from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin

pytestmark = pytest.mark.django_db


def test_it_registers_every_model_of_our_apps():
    ours = [m for m in apps.get_models() if m.__module__.startswith("clubapp.")]
    assert ours
    assert [m for m in ours if m not in admin.site._registry] == []


def test_it_shows_a_chinese_admin(client, django_user_model, room):
    boss = django_user_model.objects.create_superuser("boss", password="x")
    client.force_login(boss)
    body = client.get("/admin/").content.decode()
    assert "棋牌室管理后台" in body
    assert "房间与账户" in body
    assert "房间" in body
    body = client.get("/admin/core/room/").content.decode()
    assert room.name in body
    assert "名称" in body


def test_it_lets_a_manager_edit_the_room(client, manager, room):
    client.force_login(manager)
    response = client.get(f"/admin/core/room/{room.pk}/change/")
    assert response.status_code == 200


def test_it_keeps_others_out_of_the_admin(client, accountant):
    client.force_login(accountant)
    assert client.get("/admin/").status_code == 302
