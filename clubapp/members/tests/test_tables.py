from __future__ import annotations

import pytest
from django.urls import reverse

from clubapp.core.tests.factories import RoomFactory
from clubapp.members.selectors import tables_free
from clubapp.play.services import session_end
from clubapp.play.tests.factories import TableSessionFactory

pytestmark = pytest.mark.django_db
URL = reverse("members:table_list")


def test_free_tables_are_active_tables_not_marked_occupied(room, tables):
    tables[0].occupied = True
    tables[0].save()
    tables[1].active = False
    tables[1].save()
    assert list(tables_free(room=room)) == [tables[2]]


def test_a_table_with_an_open_session_is_not_free(room, tables):
    session = TableSessionFactory(room=room, table_number=tables[1].number)
    TableSessionFactory(room=RoomFactory(slug="other"), table_number=tables[2].number)
    assert list(tables_free(room=room)) == [tables[0], tables[2]]
    session_end(session=session)
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
