"""Opening a table: the session_create service, its constraints, and its page (issue 11
item 1, issue 15 item 4): checked-in players only, one seat each, one open session per
table, by the database."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.models import Table
from clubapp.members.tests.factories import CardFactory, MemberFactory, VisitFactory
from clubapp.play import services
from clubapp.play.models import Seat, TableSession
from clubapp.play.tests.factories import TableSessionFactory, shipped

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(room):
    return Table.objects.create(room=room, number=5)


def guest(room, manager, name):
    return VisitFactory(room=room, guest_name=name, checked_in_by=manager)


def member_visit(room, manager, user, name="钱大伯"):
    person = MemberFactory(room=room, name=name, user=user)
    return VisitFactory(
        room=room, member=person, card=CardFactory(member=person), guest_name="",
        checked_in_by=manager,
    )  # fmt: skip


@pytest.fixture
def guests(room, manager):
    return [guest(room, manager, n) for n in ("甲", "乙", "丙", "丁")]


def seats(visits):
    return [services.SeatIn(wind=w, visit=v) for w, v in zip("ESWN", visits, strict=True)]


def open_table(room, table, players, by, **extra):
    return services.session_create(
        room=room, table=table, ruleset=shipped(), seats=players, by=by, **extra
    )


def test_it_creates_a_session_of_four_checked_in_players(room, table, guests, manager):
    session = open_table(room, table, seats(guests), manager)
    assert [(s.wind, s.name, s.visit) for s in session.seat_list()] == [
        ("E", "甲", guests[0]), ("S", "乙", guests[1]), ("W", "丙", guests[2]),
        ("N", "丁", guests[3]),
    ]  # fmt: skip
    assert (session.table, session.table_number) == (table, 5)
    assert session.settle_every == "quan" and session.created_by == manager
    table.refresh_from_db()
    assert table.in_play


def test_it_settles_worksite_tables_on_worksite_timing_by_default(room, table, guests, manager):
    session = services.session_create(
        room=room, table=table, ruleset=shipped("jiangsu-worksite"), seats=seats(guests),
        by=manager,
    )  # fmt: skip
    assert session.settle_every == "worksite"


def test_a_member_seat_takes_the_visit_its_name_and_account(room, table, guests, manager, member):
    visit = member_visit(room, manager, member)
    session = open_table(room, table, seats([visit, *guests[1:]]), member)
    east = session.seats.get(wind="E")
    assert (east.name, east.user, east.visit) == ("钱大伯", member, visit)


def test_it_refuses_a_missing_wind(room, table, guests, manager):
    with pytest.raises(ValidationError):
        open_table(room, table, seats(guests)[:3], manager)


def test_it_refuses_a_garden_without_size_or_on_worksite(room, table, guests, manager):
    with pytest.raises(ValidationError):
        open_table(room, table, seats(guests), manager, mode="garden")
    with pytest.raises(ValidationError):
        services.session_create(
            room=room, table=table, ruleset=shipped("jiangsu-worksite"), seats=seats(guests),
            by=manager, mode="garden", garden_size=100,
        )  # fmt: skip


def test_a_second_open_session_at_a_table_is_refused(room, table, guests, manager):
    open_table(room, table, seats(guests), manager)
    more = [guest(room, manager, n) for n in "戊己庚辛"]
    with pytest.raises(ValidationError) as busy:
        open_table(room, table, seats(more), manager)
    assert busy.value.code == "table_in_play"
    assert TableSession.objects.count() == 1


def test_the_database_refuses_a_second_open_session_at_one_table(room, table):
    TableSessionFactory(room=room, table=table, table_number=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSessionFactory(room=room, table=table, table_number=5)
    ended = TableSessionFactory(
        room=room,
        table_number=6,
        started_at=timezone.now() - datetime.timedelta(hours=2),
        ended_at=timezone.now(),
    )
    TableSessionFactory(room=room, table=ended.table, table_number=6)  # after the end: fine


def test_the_database_refuses_one_account_at_two_seats(member):
    session = TableSessionFactory(seated=member)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(session=session, wind="S").update(user=member)


def test_a_table_out_of_use_or_of_another_room_is_refused(room, table, guests, manager):
    other = Table.objects.create(room=RoomFactory(slug="other", name="别家"), number=9)
    with pytest.raises(ValidationError) as foreign:
        open_table(room, other, seats(guests), manager)
    table.active = False
    table.save()
    with pytest.raises(ValidationError) as inactive:
        open_table(room, table, seats(guests), manager)
    assert (foreign.value.code, inactive.value.code) == ("table_other_room", "table_inactive")


def test_an_account_is_seated_only_through_its_check_in(room, table, guests, manager, member):
    with pytest.raises(services.SeatError) as error:
        open_table(
            room, table, [services.SeatIn(wind="E", user=member), *seats(guests)[1:]], manager
        )
    assert (error.value.code, error.value.wind) == ("account_not_checked_in", "E")
    assert not TableSession.objects.exists()


def test_a_typed_name_is_a_managers_with_a_reason(room, table, guests, manager, member):
    typed = [*seats(guests)[:3], services.SeatIn(wind="N", name="老周")]
    with pytest.raises(services.SeatError) as by_member:
        open_table(room, table, typed, member)
    with pytest.raises(services.SeatError) as no_reason:
        open_table(room, table, typed, manager)
    assert (by_member.value.code, no_reason.value.code) == ("typed_name", "typed_name_reason")
    typed[3] = services.SeatIn(wind="N", name="老周", reason="前台电脑坏了，已收现金")
    session = open_table(room, table, typed, manager)
    north = session.seats.get(wind="N")
    assert (north.name, north.visit, north.guest_reason) == ("老周", None, "前台电脑坏了，已收现金")


def test_a_member_opens_only_a_table_where_they_sit(room, table, guests, manager, member):
    with pytest.raises(ValidationError) as error:
        open_table(room, table, seats(guests), member)
    assert error.value.code == "opener_not_seated"
    with pytest.raises(PermissionDenied):
        open_table(room, table, seats(guests), UserFactory(roles=[Role.ACCOUNTANT]))
    assert not TableSession.objects.exists()


def test_a_seat_refuses_a_visit_closed_at_a_table_or_taken_twice(room, manager, guests):
    gone = VisitFactory(
        room=room, checked_in_by=manager,
        checked_in_at=timezone.now() - datetime.timedelta(hours=1), checked_out_at=timezone.now(),
    )  # fmt: skip
    one, two, three = (Table.objects.create(room=room, number=n) for n in (1, 2, 3))
    with pytest.raises(services.SeatError) as closed:
        open_table(room, one, seats([gone, *guests[1:]]), manager)
    open_table(room, one, seats(guests), manager)
    with pytest.raises(services.SeatError) as seated:
        open_table(room, two, seats([guest(room, manager, "戊"), *guests[1:]]), manager)
    other = guest(room, manager, "己")
    with pytest.raises(services.SeatError) as twice:
        open_table(room, three, seats([other, other, guest(room, manager, "庚"),
                                       guest(room, manager, "辛")]), manager)  # fmt: skip
    assert (closed.value.code, seated.value.code, twice.value.code) == (
        "visit_closed", "visit_seated", "seated_twice",
    )  # fmt: skip
    assert (seated.value.wind, twice.value.wind) == ("S", "S")
    assert TableSession.objects.count() == 1


def test_an_account_already_at_an_open_table_is_refused(room, table, guests, manager, member):
    TableSessionFactory(room=room, seated=member)
    visit = member_visit(room, manager, member)
    with pytest.raises(services.SeatError) as error:
        open_table(room, table, seats([visit, *guests[1:]]), manager)
    assert error.value.code == "account_seated"


def test_the_database_refuses_a_second_seat_at_one_wind():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(room=session.room, session=session, wind="E", name="又一个")


def test_the_database_refuses_a_bad_wind_or_a_garden_without_size():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(session=session, wind="E").update(wind="X")
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSession.objects.filter(pk=session.pk).update(mode="garden")


def test_accountants_cannot_create_sessions(client, accountant):
    client.force_login(accountant)
    assert client.get(reverse("play:session_create")).status_code == 403


def _form(table, visits, **extra):
    data = {
        "table": str(table.pk),
        "ruleset": str(shipped().pk),
        "mode": "open",
        "end_when_out": "2",
        "settle_every": "",
        "jiang_count": "2",
        **{f"visit_{w}": str(v.pk) for w, v in zip("ESWN", visits, strict=False)},
    }
    data.update(extra)
    return data


def test_a_member_opens_a_table_from_the_form(client, room, table, guests, manager, member):
    mine = member_visit(room, manager, member)
    client.force_login(member)
    response = client.post(reverse("play:session_create"), _form(table, [mine, *guests[1:]]))
    session = TableSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == session.get_absolute_url()
    assert session.seats.get(wind="E").user == member and session.table == table


def test_the_form_offers_checked_in_players_by_name_and_free_tables(
    client, room, table, guests, manager, member
):
    busy = TableSessionFactory(room=room, table_number=6)
    at_a_table = guest(room, manager, "已在打")
    Seat.objects.filter(session=busy, wind="E").update(visit=at_a_table)
    client.force_login(member)
    page = client.get(reverse("play:session_create"))
    body = page.content.decode()
    offered = [value for value, _label in page.context["form"].fields["visit_E"].choices if value]
    assert "甲 (非会员)" in body and len(offered) == 4 and "已在打" not in body
    # no accounts, no login names, no staff
    assert 'name="user_' not in body and "王经理" not in body and ">manager<" not in body
    tables = [t for t, _label in page.context["form"].fields["table"].choices if t]
    assert [t.instance for t in tables] == [table]
    # a member types no names
    assert 'name="name_E"' not in body


def test_the_garden_fields_show_only_for_a_garden_without_inline_script(client, member, room):
    client.force_login(member)
    body = client.get(reverse("play:session_create")).content.decode()
    block = body.split('data-show-when-mode="garden"')[1].split("</div>\n    </div>")[0]
    assert 'name="garden_size"' in block and 'name="end_when_out"' in block
    assert "play/session_form.js" in body and "<script>" not in body


def test_errors_stand_beside_the_seat_at_fault(client, room, table, guests, manager):
    client.force_login(manager)
    data = _form(table, [guests[0], guests[0], guests[2]], name_N="老周")
    response = client.post(reverse("play:session_create"), data)
    form = response.context["form"]
    assert response.status_code == 200 and not TableSession.objects.exists()
    assert list(form.errors) == ["visit_S", "reason_N"]
    assert "甲 has a seat already" in str(form.errors["visit_S"]) or "已有座位" in str(
        form.errors["visit_S"]
    )


def test_a_manager_types_a_guest_name_with_a_reason(client, room, table, guests, manager):
    client.force_login(manager)
    data = _form(table, guests[:3], name_N="老周", reason_N="扫码枪坏了，已收现金")
    response = client.post(reverse("play:session_create"), data)
    assert response.status_code == 302
    north = TableSession.objects.get().seats.get(wind="N")
    assert (north.name, north.guest_reason) == ("老周", "扫码枪坏了，已收现金")


# issue 11 item 4: once a hand is booked, the seats and the session's rules are frozen
# in the database (raw SQL, around the models, on PostgreSQL and SQLite)


def _raw(sql, params):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.fixture
def booked():
    from clubapp.play.tests.factories import book, discard_win

    session = TableSessionFactory()
    book(session, discard_win("S", "E"))
    return session


@pytest.mark.parametrize(
    ("sql", "args"),
    [
        ("UPDATE play_seat SET name = %s WHERE session_id = %s AND wind = 'W'", ["换人"]),
        ("UPDATE play_seat SET wind = 'X' WHERE session_id = %s AND wind = 'W'", []),
        ("DELETE FROM play_seat WHERE session_id = %s AND wind = 'W'", []),
    ],
)
def test_the_database_refuses_to_change_the_seats_of_a_booked_session(booked, sql, args):
    with pytest.raises(IntegrityError, match="frozen"), transaction.atomic():
        _raw(sql, [*args, booked.pk])
    assert booked.seats.get(wind="W").name == "阿张"


def test_the_database_refuses_to_add_a_seat_to_a_booked_session(booked):
    with pytest.raises(IntegrityError, match="frozen"), transaction.atomic():
        _raw(
            "INSERT INTO play_seat (room_id, session_id, wind, name) VALUES (%s, %s, 'E', %s)",
            [booked.room_id, booked.pk, "第五人"],
        )
    assert booked.seats.count() == 4


def test_the_database_refuses_to_move_a_booked_seat_to_another_session(booked):
    other = TableSessionFactory()
    with pytest.raises(IntegrityError, match="frozen"), transaction.atomic():
        _raw(
            "UPDATE play_seat SET session_id = %s WHERE session_id = %s AND wind = 'W'",
            [other.pk, booked.pk],
        )


@pytest.mark.parametrize(
    "change",
    [
        "mode = 'garden', garden_size = 100",
        "settle_every = 'hand'",
        "jiang_count = 3",
        "end_when_out = 1",
    ],
)
def test_the_database_refuses_to_change_the_rules_of_a_booked_session(booked, change):
    with pytest.raises(IntegrityError, match="frozen"), transaction.atomic():
        _raw(f"UPDATE play_tablesession SET {change} WHERE id = %s", [booked.pk])
    booked.refresh_from_db()
    assert (booked.mode, booked.settle_every) == ("open", "quan")


def test_the_database_refuses_another_ruleset_for_a_booked_session(booked):
    other = shipped("nanjing-classic")
    with pytest.raises(IntegrityError, match="frozen"), transaction.atomic():
        _raw("UPDATE play_tablesession SET ruleset_id = %s WHERE id = %s", [other.pk, booked.pk])


def test_before_the_first_hand_seats_and_rules_may_change_and_the_end_always():
    session = TableSessionFactory()
    Seat.objects.filter(session=session, wind="W").update(name="换人")
    TableSession.objects.filter(pk=session.pk).update(settle_every="hand")
    from clubapp.play.tests.factories import book, discard_win

    book(session, discard_win("S", "E"))
    services.session_end(session=session)  # the end is not a rule
    session.refresh_from_db()
    assert session.ended_at is not None and session.seats.get(wind="W").name == "换人"
    session.save()  # saving the same values again changes nothing: allowed


def test_the_form_needs_a_garden_size_for_a_garden_table(client, room, table, guests, manager):
    client.force_login(manager)
    response = client.post(reverse("play:session_create"), _form(table, guests, mode="garden"))
    assert response.status_code == 200 and "garden_size" in response.context["form"].errors
    assert not TableSession.objects.exists()
