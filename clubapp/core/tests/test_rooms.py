"""Many rooms in one deployment (docs/rooms.md): the room of a request, the no-room
page, the superuser's switch, the room triggers, deleting a room, and on PostgreSQL
the row-level security that shows the app's plain role one room only."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.urls import reverse

from clubapp.core import roomguards
from clubapp.core.dbroles import app_role_grants
from clubapp.core.models import Room, UserRoom
from clubapp.core.roles import Role
from clubapp.core.rooms import SESSION_ROOM, scope
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.models import Table
from clubapp.members.tests.factories import TableFactory

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row-level security is PostgreSQL's"
)


@pytest.fixture
def east(db):
    return RoomFactory(slug="east", name="东区活动室")


def _room_of_page(client, path="/") -> str:
    return client.get(path).context["room"].name


def test_a_user_works_in_their_own_room(client, room, east):
    client.force_login(UserFactory(username="e", roles=[Role.MANAGER], room=east))
    assert _room_of_page(client) == "东区活动室"
    client.force_login(UserFactory(username="m", roles=[Role.MANAGER], room=room))
    assert _room_of_page(client) == room.name


def test_a_host_name_serves_its_room_alone(client, settings, room, east):
    settings.ALLOWED_HOSTS = ["testserver", "east.example"]
    east.host = "east.example"
    east.save()
    assert client.get("/accounts/login/", HTTP_HOST="east.example").context["room"] == east
    assert client.get("/accounts/login/").context["room"] == room  # the default room
    client.force_login(UserFactory(username="m", roles=[Role.MANAGER], room=room))
    response = client.get("/", HTTP_HOST="east.example")
    assert response.status_code == 403
    assert "这个账号不属于此处的任何活动室" in response.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("zh-hans", "请活动室的管理员把您的账号加入活动室"), ("en", "Ask your room's manager")],
)
def test_a_user_without_a_room_gets_a_clear_page(client, room, language, words):
    client.cookies["django_language"] = language
    client.force_login(UserFactory(username="lost", roles=[Role.MANAGER], room=False))
    for path in ("/", reverse("members:member_list"), reverse("play:sessions")):
        response = client.get(path)
        assert response.status_code == 403, path
        assert words in response.content.decode()
    assert client.post(reverse("logout")).status_code == 302  # signing out still works


def test_a_district_reader_has_no_room_but_reads_every_rooms_totals(client, room, east):
    client.force_login(UserFactory(username="d", roles=[Role.DISTRICT], room=False))
    assert client.get("/").status_code == 403
    page = client.get(reverse("reports:district")).content.decode()
    assert room.name in page and "东区活动室" in page
    assert client.get(reverse("reports:district_xlsx")).status_code == 200


def test_the_district_page_is_not_for_a_rooms_manager(client, room):
    client.force_login(UserFactory(username="m", roles=[Role.MANAGER], room=room))
    assert client.get(reverse("reports:district")).status_code == 403


def test_a_superuser_switches_room_and_nobody_else_may(client, room, east):
    boss = UserFactory(username="boss", is_superuser=True, is_staff=True, room=room)
    client.force_login(boss)
    assert _room_of_page(client) == room.name
    client.post(reverse("room_switch"), {"room": east.pk})
    assert client.session[SESSION_ROOM] == east.pk
    assert _room_of_page(client) == "东区活动室"
    assert client.post(reverse("room_switch"), {"room": 999999}).status_code == 404
    client.force_login(UserFactory(username="m", roles=[Role.MANAGER], room=room))
    assert client.post(reverse("room_switch"), {"room": east.pk}).status_code == 403


def test_a_row_never_moves_to_another_room(room, east):
    table = TableFactory(room=room)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(room=east)


def test_every_room_keyed_table_has_its_room_triggers():
    tables = {t.table for t in roomguards.triggers() if t.name.endswith("_room_fixed")}
    assert tables == {m._meta.db_table for m in roomguards.room_keyed_models()}
    assert "core_room" not in tables and "core_userroom" not in tables


def test_a_room_with_rows_is_never_deleted_and_an_empty_one_may_be(room, east):
    TableFactory(room=room)
    with pytest.raises(ProtectedError):
        room.delete()
    east.delete()
    assert not Room.objects.filter(slug="east").exists()


def test_the_admin_refuses_to_delete_a_room_with_rows(client, room, east):
    TableFactory(room=room)
    client.force_login(UserFactory(username="boss", is_superuser=True, is_staff=True, room=room))
    url = reverse("admin:core_room_delete", args=[room.pk])
    page = client.post(url, {"post": "yes"}).content.decode()
    assert Room.objects.filter(pk=room.pk).exists()
    assert "protected" in page.lower() or "受保护" in page


def test_a_managers_admin_shows_only_their_room(client, room, east):
    client.force_login(UserFactory(username="m", roles=[Role.MANAGER], is_staff=True, room=room))
    page = client.get(reverse("admin:core_room_changelist")).content.decode()
    assert room.name in page and "东区活动室" not in page
    assert client.get(reverse("admin:core_userroom_changelist")).status_code == 403


@on_postgresql
def test_every_room_keyed_table_has_the_room_policy():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_policy p ON p.polrelid = c.oid "
            "WHERE c.relrowsecurity AND p.polname = %s",
            [roomguards.POLICY],
        )
        guarded = {name for (name,) in cursor.fetchall()}
    assert guarded == {m._meta.db_table for m in roomguards.room_keyed_models()}


@on_postgresql
def test_a_raw_query_without_a_filter_sees_only_its_room(room, east):
    TableFactory(room=room, number=1, name="main-1")
    TableFactory(room=east, number=1, name="east-1")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
        cursor.execute("CREATE ROLE club_rls_probe NOLOGIN")  # rolled back with the test
        for statement in app_role_grants(role="club_rls_probe", owner=owner):
            cursor.execute(statement)
        cursor.execute("SET LOCAL ROLE club_rls_probe")
        with scope(room):
            cursor.execute("SELECT name FROM members_table")
            assert [name for (name,) in cursor.fetchall()] == ["main-1"]
            with scope(east):
                cursor.execute("SELECT name FROM members_table")
                assert [name for (name,) in cursor.fetchall()] == ["east-1"]
            cursor.execute("SELECT name FROM members_table")  # back in the first room
            assert [name for (name,) in cursor.fetchall()] == ["main-1"]
        with scope(None):
            cursor.execute("SELECT count(*) FROM members_table")
            assert cursor.fetchone()[0] == 0  # no room: no room's rows
        with scope(room):
            with pytest.raises(Exception, match="row-level security"), transaction.atomic():
                cursor.execute(
                    "INSERT INTO members_table (room_id, number, name, active, occupied, in_play)"
                    " VALUES (%s, 9, 'x', true, false, false)",
                    [east.pk],
                )
        cursor.execute("RESET ROLE")
        cursor.execute("SELECT count(*) FROM members_table")
        assert cursor.fetchone()[0] == 2  # the owner is not subject to it


def test_an_account_made_for_a_member_belongs_to_the_members_room(east):
    from clubapp.members.services import member_account_create
    from clubapp.members.tests.factories import MemberFactory

    member = MemberFactory(room=east)
    manager = UserFactory(username="m", roles=[Role.MANAGER], room=east)
    user, _path = member_account_create(member=member, username="east-member", by=manager)
    assert UserRoom.objects.get(user=user).room == east
