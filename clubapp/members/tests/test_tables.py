from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clubapp.core.tests.factories import RoomFactory
from clubapp.members import services
from clubapp.members.models import Table
from clubapp.members.selectors import tables_free
from clubapp.members.services import table_set_in_play

pytestmark = pytest.mark.django_db
URL = reverse("members:table_list")


def test_free_tables_are_active_tables_not_marked_occupied(room, tables):
    tables[0].occupied = True
    tables[0].save()
    tables[1].active = False
    tables[1].save()
    assert list(tables_free(room=room)) == [tables[2]]


def test_a_table_in_play_is_not_free(room, tables):
    # the play app marks a table in play while a session is open at it
    table_set_in_play(room=room, number=tables[1].number, in_play=True)
    assert table_set_in_play(room=RoomFactory(slug="other"), number=3, in_play=True) is None
    assert list(tables_free(room=room)) == [tables[0], tables[2]]
    table_set_in_play(room=room, number=tables[1].number, in_play=False)
    assert list(tables_free(room=room)) == tables


def test_the_manager_marks_a_table_occupied_and_free(client, manager, tables):
    client.force_login(manager)
    assert client.get(URL).status_code == 200
    client.post(reverse("members:table_toggle", args=[tables[0].pk]))
    tables[0].refresh_from_db()
    assert tables[0].occupied
    client.post(reverse("members:table_toggle", args=[tables[0].pk]))
    tables[0].refresh_from_db()
    assert not tables[0].occupied


def test_the_accountant_sees_tables_but_cannot_change_them(client, accountant, tables):
    client.force_login(accountant)
    assert client.get(URL).status_code == 200
    assert client.post(reverse("members:table_toggle", args=[tables[0].pk])).status_code == 403


def test_the_manager_adds_a_table(client, manager, room):
    client.force_login(manager)
    response = client.post(URL, {"number": "7", "name": "靠窗"})
    assert response.status_code == 302
    table = Table.objects.get(room=room, number=7)
    assert table.name == "靠窗" and table.active
    body = client.get(URL).content.decode()
    assert "7 号桌 靠窗" in body


def test_it_refuses_a_table_number_taken(client, manager, tables):
    client.force_login(manager)
    response = client.post(URL, {"number": "2", "name": ""})
    assert response.status_code == 200
    assert "2号桌已经存在" in response.content.decode()
    assert Table.objects.filter(number=2).count() == 1


def test_the_manager_renames_a_table(client, manager, tables):
    client.force_login(manager)
    url = reverse("members:table_edit", args=[tables[0].pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": "包间"}).status_code == 302
    tables[0].refresh_from_db()
    assert tables[0].name == "包间" and tables[0].number == 1


def test_the_manager_takes_a_table_out_of_use_and_back(client, manager, room, tables):
    client.force_login(manager)
    url = reverse("members:table_active", args=[tables[0].pk])
    client.post(url)
    tables[0].refresh_from_db()
    assert not tables[0].active
    assert tables[0] not in tables_free(room=room)
    assert "停用" in client.get(URL).content.decode()
    client.post(url)
    tables[0].refresh_from_db()
    assert tables[0].active


def test_a_table_in_play_cannot_be_taken_out_of_use(client, manager, room, tables):
    services.table_set_in_play(
        room=room, number=tables[1].number, in_play=True
    )  # the play app's mark
    client.force_login(manager)
    response = client.post(reverse("members:table_active", args=[tables[1].pk]), follow=True)
    assert "正在使用中" in response.content.decode()
    tables[1].refresh_from_db()
    assert tables[1].active


def test_only_a_manager_changes_tables(room, tables, accountant):
    with pytest.raises(PermissionDenied):
        services.table_create(room=room, number=9, by=accountant)
    with pytest.raises(PermissionDenied):
        services.table_rename(table=tables[0], name="x", by=accountant)
    with pytest.raises(PermissionDenied):
        services.table_set_active(table=tables[0], active=False, by=accountant)


def test_the_accountant_cannot_add_a_table(client, accountant, room):
    client.force_login(accountant)
    assert client.post(URL, {"number": "7"}).status_code == 403
    assert not Table.objects.filter(number=7).exists()
