"""Opening a table: the session_create service, its constraints, and its page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from clubapp.play import services
from clubapp.play.models import Seat, TableSession
from clubapp.play.tests.factories import TableSessionFactory, shipped

pytestmark = pytest.mark.django_db

SEATS = [services.SeatIn(wind=w, name=n) for w, n in zip("ESWN", "甲乙丙丁", strict=True)]


def test_it_creates_a_session_with_four_seats(room, member):
    session = services.session_create(
        room=room, table_number=3, ruleset=shipped(), seats=SEATS, by=member
    )
    assert [(s.wind, s.name) for s in session.seats.order_by("id")] == [
        ("E", "甲"),
        ("S", "乙"),
        ("W", "丙"),
        ("N", "丁"),
    ]
    assert session.settle_every == "quan"
    assert session.created_by == member
    assert session.is_open


def test_it_settles_worksite_tables_on_worksite_timing_by_default(room, member):
    session = services.session_create(
        room=room, table_number=1, ruleset=shipped("jiangsu-worksite"), seats=SEATS, by=member
    )
    assert session.settle_every == "worksite"


def test_it_names_a_member_seat_after_the_account(room, member):
    seats = [*SEATS[:3], services.SeatIn(wind="N", user=member)]
    session = services.session_create(
        room=room, table_number=1, ruleset=shipped(), seats=seats, by=member
    )
    assert session.seats.get(wind="N").name == "赵会员"


def test_it_refuses_a_missing_wind(room, member):
    with pytest.raises(ValidationError):
        services.session_create(
            room=room, table_number=1, ruleset=shipped(), seats=SEATS[:3], by=member
        )


def test_it_refuses_a_garden_without_size_or_on_worksite(room, member):
    with pytest.raises(ValidationError):
        services.session_create(
            room=room, table_number=1, ruleset=shipped(), seats=SEATS, by=member, mode="garden"
        )
    with pytest.raises(ValidationError):
        services.session_create(
            room=room,
            table_number=1,
            ruleset=shipped("jiangsu-worksite"),
            seats=SEATS,
            by=member,
            mode="garden",
            garden_size=100,
        )


def test_the_database_refuses_a_second_seat_at_one_wind():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(session=session, wind="E", name="又一个")


def test_the_database_refuses_a_bad_wind_or_a_garden_without_size():
    session = TableSessionFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(session=session, wind="E").update(wind="X")
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSession.objects.filter(pk=session.pk).update(mode="garden")


def test_accountants_cannot_create_sessions(client, accountant):
    client.force_login(accountant)
    assert client.get(reverse("play:session_create")).status_code == 403


def _form(**extra):
    data = {
        "table_number": "5",
        "ruleset": str(shipped().pk),
        "mode": "open",
        "end_when_out": "2",
        "settle_every": "",
        "jiang_count": "2",
        "name_E": "老王",
        "name_S": "小李",
        "name_W": "阿张",
        "name_N": "",
    }
    data.update(extra)
    return data


def test_a_member_creates_a_session_from_the_form(client, member, room):
    client.force_login(member)
    response = client.post(reverse("play:session_create"), _form(user_N=str(member.pk)))
    session = TableSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == session.get_absolute_url()
    assert session.seats.get(wind="N").user == member


def test_the_form_shows_a_missing_player_beside_the_seat(client, member, room):
    client.force_login(member)
    response = client.post(reverse("play:session_create"), _form())
    assert response.status_code == 200
    assert not TableSession.objects.exists()
    assert "has-error" in response.content.decode()


def test_the_form_needs_a_garden_size_for_a_garden_table(client, member, room):
    client.force_login(member)
    response = client.post(reverse("play:session_create"), _form(mode="garden", name_N="赵姐"))
    assert response.status_code == 200
    assert not TableSession.objects.exists()


def test_a_seat_takes_the_players_visit_its_name_and_account(room, member, manager):
    from clubapp.members.tests.factories import CardFactory, MemberFactory, VisitFactory

    regular = MemberFactory(room=room, name="钱大伯", user=member)
    card = CardFactory(member=regular)
    visit = VisitFactory(room=room, member=regular, card=card, guest_name="", checked_in_by=manager)
    guest = VisitFactory(room=room, guest_name="散客孙", checked_in_by=manager)
    seats = [
        services.SeatIn(wind="E", visit=visit),
        services.SeatIn(wind="S", visit=guest),
        *SEATS[2:],
    ]
    session = services.session_create(
        room=room, table_number=2, ruleset=shipped(), seats=seats, by=manager
    )
    east, south = session.seats.get(wind="E"), session.seats.get(wind="S")
    assert (east.name, east.user, east.visit) == ("钱大伯", member, visit)
    assert (south.name, south.user, south.visit) == ("散客孙", None, guest)


def test_a_seat_refuses_a_visit_that_is_closed_or_already_at_a_table(room, manager):
    import datetime

    from django.utils import timezone

    from clubapp.members.tests.factories import VisitFactory

    gone = VisitFactory(
        room=room,
        checked_in_by=manager,
        checked_in_at=timezone.now() - datetime.timedelta(hours=1),
        checked_out_at=timezone.now(),
    )
    with pytest.raises(ValidationError) as closed:
        services.session_create(
            room=room, table_number=1, ruleset=shipped(), by=manager,
            seats=[services.SeatIn(wind="E", visit=gone), *SEATS[1:]],
        )  # fmt: skip
    here = VisitFactory(room=room, checked_in_by=manager)
    services.session_create(
        room=room, table_number=1, ruleset=shipped(), by=manager,
        seats=[services.SeatIn(wind="E", visit=here), *SEATS[1:]],
    )  # fmt: skip
    with pytest.raises(ValidationError) as seated:
        services.session_create(
            room=room, table_number=2, ruleset=shipped(), by=manager,
            seats=[services.SeatIn(wind="E", visit=here), *SEATS[1:]],
        )  # fmt: skip
    with pytest.raises(ValidationError) as twice:
        other = VisitFactory(room=room, checked_in_by=manager)
        services.session_create(
            room=room, table_number=3, ruleset=shipped(), by=manager,
            seats=[services.SeatIn(wind="E", visit=other), services.SeatIn(wind="S", visit=other),
                   *SEATS[2:]],
        )  # fmt: skip
    assert (closed.value.code, seated.value.code, twice.value.code) == (
        "visit_closed", "visit_seated", "visit_twice",
    )  # fmt: skip
    assert TableSession.objects.count() == 1


def test_the_form_offers_the_checked_in_players(client, member, room, manager):
    from clubapp.members.tests.factories import VisitFactory

    visit = VisitFactory(room=room, guest_name="散客周", checked_in_by=manager)
    client.force_login(member)
    assert "散客周" in client.get(reverse("play:session_create")).content.decode()
    response = client.post(reverse("play:session_create"), _form(visit_N=str(visit.pk)))
    assert response.status_code == 302
    assert TableSession.objects.get().seats.get(wind="N").visit == visit


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
            "INSERT INTO play_seat (session_id, wind, name) VALUES (%s, 'E', %s)",
            [booked.pk, "第五人"],
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
