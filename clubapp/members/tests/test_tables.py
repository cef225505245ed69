from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.core.tests.factories import RoomFactory
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
