"""Many rooms (docs/rooms.md) in the members app: two rooms' members, cards, visits,
receipts, tables and opening hours; main's users see main's rows only, an id of east
answers as a missing one does, the database refuses a row pointing across rooms, and
each room counts its own card and receipt numbers."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from clubapp.core.dbroles import app_role_grants
from clubapp.core.roles import Role
from clubapp.core.rooms import scope
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members import services
from clubapp.members.models import (
    Card,
    ExceptionKind,
    IdNumberReveal,
    Member,
    OpeningException,
    OpeningPeriod,
    Receipt,
    ReceiptKind,
    Table,
    Visit,
)
from clubapp.members.tests.factories import (
    CardFactory,
    MemberFactory,
    TableFactory,
    VisitFactory,
    image_bytes,
    make_id_number,
)

pytestmark = pytest.mark.django_db

MODELS = (Member, Card, Table, Visit, Receipt, IdNumberReveal, OpeningPeriod, OpeningException)
MISSING = 999_999


@pytest.fixture
def east(db):
    return RoomFactory(slug="east", name="东区活动室")


@pytest.fixture
def east_manager(east):
    return UserFactory(
        username="east-manager", first_name="东经理", roles=[Role.MANAGER], room=east
    )


def _rows(room, prefix, by):
    """A room's members rows, every model of the app, each named after the room."""
    member = MemberFactory(room=room, name=f"{prefix}会员", phone="13900000001")
    member.photo.save("photo.jpg", ContentFile(image_bytes()))  # its page would serve it
    card = CardFactory(member=member, number=f"2026-{prefix}1")
    visit = VisitFactory(room=room, guest_name=f"{prefix}散客", checked_in_by=by)
    member_visit = VisitFactory(
        room=room, member=member, card=card, guest_name="", checked_in_by=by
    )
    receipt = Receipt.objects.create(
        room=room,
        number=f"R2026-{prefix}",
        kind=ReceiptKind.CARD,
        amount=Decimal("50.00"),
        payer=member.name,
        member=member,
        card=card,
        paid_at=timezone.now(),
        received_by=by,
    )
    reveal = IdNumberReveal.objects.create(room=room, member=member, by=by, at=timezone.now())
    table = TableFactory(room=room, number=1, name=f"{prefix}桌")
    period = OpeningPeriod.objects.create(
        room=room, weekday=0, opens=dt.time(9), closes=dt.time(12)
    )
    exception = OpeningException.objects.create(
        room=room,
        date=timezone.localdate() + dt.timedelta(days=3),
        kind=ExceptionKind.CLOSED,
        note=f"{prefix}检修",
    )
    return {
        "member": member,
        "card": card,
        "visit": visit,
        "member_visit": member_visit,
        "receipt": receipt,
        "reveal": reveal,
        "table": table,
        "period": period,
        "exception": exception,
    }


@pytest.fixture
def main_rows(room, manager):
    return _rows(room, "主", manager)


@pytest.fixture
def east_rows(east, east_manager):
    return _rows(east, "东", east_manager)


def _counts():
    return {model: model.objects.count() for model in MODELS}


# ------------------------------------------------------------- what main sees


@pytest.mark.parametrize(
    "name",
    ["members:member_list", "members:visit_list", "members:table_list", "members:room_settings"],
)
def test_every_list_of_main_shows_only_mains_rows(client, manager, main_rows, east_rows, name):
    client.force_login(manager)
    page = client.get(reverse(name)).content.decode()
    assert "东会员" not in page and "东散客" not in page and "东桌" not in page
    assert "东检修" not in page and "2026-东1" not in page


def test_mains_pages_show_mains_own_rows(client, manager, main_rows, east_rows):
    client.force_login(manager)
    assert "主会员" in client.get(reverse("members:member_list")).content.decode()
    assert "主散客" in client.get(reverse("members:visit_list")).content.decode()
    assert "主桌" in client.get(reverse("members:table_list")).content.decode()
    assert "主检修" in client.get(reverse("members:room_settings")).content.decode()


def test_a_search_of_main_never_finds_an_east_member(client, manager, main_rows, east_rows):
    client.force_login(manager)
    page = client.post(reverse("members:member_list"), {"q": "会员"}).content.decode()
    assert "主会员" in page and "东会员" not in page
    same_id = east_rows["member"].id_number
    page = client.post(reverse("members:member_list"), {"q": same_id}).content.decode()
    assert "东会员" not in page


def test_the_desk_lookup_of_main_never_finds_an_east_card(client, manager, main_rows, east_rows):
    client.force_login(manager)
    page = client.post(reverse("members:visit_check_in"), {"q": "东会员"}).content.decode()
    assert "东会员" not in page.replace('value="东会员"', "")


def test_a_members_own_card_page_is_of_their_room(client, east, main_rows, east_rows):
    account = UserFactory(username="east-member", roles=[Role.MEMBER], room=east)
    east_rows["member"].user = account
    east_rows["member"].save()
    client.force_login(account)
    page = client.get(reverse("members:my_card")).content.decode()
    assert "2026-东1" in page and "2026-主1" not in page


def test_the_admin_lists_only_the_rooms_rows(client, room, main_rows, east_rows):
    boss = UserFactory(username="boss", is_superuser=True, is_staff=True, room=room)
    client.force_login(boss)
    for model in ("member", "card", "visit", "receipt", "table", "openingexception"):
        page = client.get(reverse(f"admin:members_{model}_changelist")).content.decode()
        assert "东" not in page.replace("东区活动室", ""), model
    url = reverse("admin:members_member_change", args=[east_rows["member"].pk])
    assert client.get(url).status_code in (302, 404)  # not found in this room


# ------------------------------------------------- another room's id: a 404


def _east_urls(rows):
    member, card = rows["member"].pk, rows["card"].pk
    visit, table, exception = rows["visit"].pk, rows["table"].pk, rows["exception"].pk
    return [
        ("members:member_detail", member, {}),
        ("members:member_id_number_show", member, {}),
        ("members:member_edit", member, {"name": "改", "phone": "1"}),
        ("members:member_photo", member, {}),
        ("members:member_account", member, {"username": "taken-over"}),
        ("members:member_account_reset", member, {}),
        ("members:member_account_active", member, {"active": "0"}),
        ("members:card_issue", member, {}),
        ("members:card_renew", card, {"confirm": "1"}),
        ("members:card_reissue", card, {"confirm": "1"}),
        ("members:card_revoke", card, {"reason": "赌博"}),
        ("members:card_suspend", card, {"reason": "暂停"}),
        ("members:card_resume", card, {}),
        ("members:visit_detail", visit, {}),
        ("members:visit_check_out", visit, {"fee": "2.00", "left_at": "10:00"}),
        ("members:table_toggle", table, {}),
        ("members:table_edit", table, {"name": "改名"}),
        ("members:table_active", table, {"active": "0"}),
        ("members:exception_delete", exception, {}),
    ]


def test_every_url_with_an_east_id_answers_as_a_missing_one(client, manager, main_rows, east_rows):
    client.force_login(manager)
    before = _counts()
    east_card = east_rows["card"]
    for name, pk, data in _east_urls(east_rows):
        url, missing = reverse(name, args=[pk]), reverse(name, args=[MISSING])
        assert client.post(url, data).status_code == 404, name
        get = client.get(url).status_code
        assert get == client.get(missing).status_code and get in (404, 405), name
    receipt = reverse("members:receipt_detail", args=[east_rows["receipt"].number])
    assert client.get(receipt).status_code == 404
    check_in = reverse("members:visit_check_in")
    assert client.get(check_in, {"card": east_card.pk}).status_code == 404
    assert client.post(check_in, {"card_id": east_card.pk, "confirm": "1"}).status_code == 404
    assert _counts() == before
    east_card.refresh_from_db()
    assert east_card.status == "active" and east_rows["visit"].is_open
    table = Table.objects.get(pk=east_rows["table"].pk)
    assert table.name == "东桌" and table.active and not table.occupied


def test_a_form_naming_an_east_account_is_refused(client, manager, east, main_rows, east_rows):
    account = UserFactory(username="east-member", roles=[Role.MEMBER], room=east)
    client.force_login(manager)
    member = main_rows["member"]
    response = client.post(
        reverse("members:member_edit", args=[member.pk]),
        {"name": member.name, "phone": member.phone, "user": account.pk},
    )
    assert response.status_code == 200
    assert "请选择本室的会员账号" in response.content.decode()
    member.refresh_from_db()
    assert member.user_id is None


def test_the_service_refuses_an_account_of_another_room(manager, east, main_rows):
    account = UserFactory(username="east-member", roles=[Role.MEMBER], room=east)
    member = main_rows["member"]
    with pytest.raises(ValidationError, match="该账号不属于本室"):
        services.member_update(
            member=member, name=member.name, phone=member.phone, user=account, by=manager
        )


def test_a_check_in_with_an_east_card_is_refused(room, manager, main_rows, east_rows, clock):
    with pytest.raises(ValidationError, match="该会员证不属于本室"):
        services.visit_check_in(room=room, card=east_rows["card"], by=manager)
    assert Visit.objects.filter(room=room).count() == 2


# ------------------------------------------- the database refuses a crossing


def _crossing(rows, east_rows, by):
    """Per reference: a main row saved pointing at the east row."""
    main, east = rows, east_rows
    room = main["member"].room
    day = dt.date(2026, 1, 1)
    card = {"issued_on": day, "valid_until": day, "room": room}
    visit = {"room": room, "checked_in_at": timezone.now(), "checked_in_by": by}
    receipt = {
        "room": room,
        "kind": ReceiptKind.GUEST,
        "amount": Decimal("2.00"),
        "payer": "x",
        "paid_at": timezone.now(),
        "received_by": by,
    }
    return {
        "card.member": lambda: Card.objects.create(member=east["member"], number="X1", **card),
        "card.replaces": lambda: Card.objects.create(
            member=main["member"], number="X2", replaces=east["card"], status="void", **card
        ),
        "visit.member": lambda: Visit.objects.create(
            member=east["member"], card=main["card"], **visit
        ),
        "visit.card": lambda: Visit.objects.create(
            member=main["member"], card=east["card"], **visit
        ),
        "receipt.member": lambda: Receipt.objects.create(
            number="X3", member=east["member"], **receipt
        ),
        "receipt.card": lambda: Receipt.objects.create(number="X4", card=east["card"], **receipt),
        "receipt.visit": lambda: Receipt.objects.create(
            number="X5", visit=east["visit"], **receipt
        ),
        "idnumberreveal.member": lambda: IdNumberReveal.objects.create(
            room=room, member=east["member"], by=by, at=timezone.now()
        ),
    }


@pytest.mark.parametrize(
    "reference",
    [
        "card.member",
        "card.replaces",
        "visit.member",
        "visit.card",
        "receipt.member",
        "receipt.card",
        "receipt.visit",
        "idnumberreveal.member",
    ],
)
def test_the_database_refuses_a_row_pointing_across_rooms(manager, main_rows, east_rows, reference):
    main_rows["member_visit"].checked_out_at = timezone.now()  # room for another visit
    main_rows["member_visit"].save()
    make = _crossing(main_rows, east_rows, manager)[reference]
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def test_a_card_never_moves_to_another_room(east, main_rows):
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(pk=main_rows["card"].pk).update(room=east)


# ---------------------------------------------------- each room its numbers


def test_card_numbers_are_counted_per_room(room, east, manager, east_manager):
    for r in (room, east):
        r.card_fee = Decimal("0.00")  # no fee: no receipt (see the receipts' test)
        r.save()
    here = services.card_issue(member=MemberFactory(room=room), by=manager)
    there = services.card_issue(member=MemberFactory(room=east), by=east_manager)
    year = timezone.localdate().year
    assert here.number == there.number == f"{year}-0001"
    assert (here.room, there.room) == (room, east)


def test_receipt_numbers_are_counted_per_room(room, east, manager, east_manager):
    here = services.card_issue(member=MemberFactory(room=room), by=manager)
    there = services.card_issue(member=MemberFactory(room=east), by=east_manager)
    year = timezone.localdate().year
    numbers = {r.room_id: r.number for r in Receipt.objects.filter(card__in=[here, there])}
    assert numbers == {room.pk: f"R{year}-00001", east.pk: f"R{year}-00001"}


def test_a_number_is_never_twice_in_one_room(room, main_rows):
    with pytest.raises(IntegrityError), transaction.atomic():
        CardFactory(member=main_rows["member"], number=main_rows["card"].number, status="void")


def test_one_person_may_be_a_member_of_two_rooms_but_once_in_each(room, east, manager):
    number = make_id_number(4242)
    services.member_create(
        room=room, name="两室人", phone="13900000042", id_number=number, by=manager
    )
    east_manager = UserFactory(username="east-manager", roles=[Role.MANAGER], room=east)
    services.member_create(
        room=east, name="两室人", phone="13900000042", id_number=number, by=east_manager
    )
    with pytest.raises(ValidationError):
        services.member_create(
            room=east, name="两室人", phone="13900000042", id_number=number, by=east_manager
        )
    assert Member.objects.filter(name="两室人").count() == 2


def test_table_names_are_the_rooms_own(room, east, manager, east_manager):
    services.table_create(room=room, number=1, name="包间", by=manager)
    services.table_create(room=east, number=1, name="包间", by=east_manager)
    with pytest.raises(ValidationError, match="本室已有名为包间的桌子"):
        services.table_create(room=room, number=2, name="包间", by=manager)
    other = services.table_create(room=room, number=3, name="靠窗", by=manager)
    with pytest.raises(ValidationError, match="本室已有名为包间的桌子"):
        services.table_rename(table=other, name="包间", by=manager)
    assert Table.objects.filter(room=room).count() == 2


def test_each_room_keeps_its_own_opening_hours(room, east):
    services.opening_hours_set(room=east, periods=[(0, dt.time(8), dt.time(20))])
    assert OpeningPeriod.objects.filter(room=room).count() == 0
    services.opening_hours_set(room=room, periods=[(1, dt.time(9), dt.time(11))])
    assert list(OpeningPeriod.objects.filter(room=east).values_list("weekday", flat=True)) == [0]


def test_the_key_rotation_re_encrypts_every_rooms_members(main_rows, east_rows):
    call_command("id_numbers_rotate", stdout=open("/dev/null", "w"))
    for rows in (main_rows, east_rows):
        member = Member.objects.get(pk=rows["member"].pk)
        assert member.id_number == rows["member"].id_number


# ------------------------------------------ PostgreSQL: row-level security

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row-level security is PostgreSQL's"
)


@on_postgresql
def test_a_raw_query_without_a_filter_sees_only_mains_rows(room, main_rows, east_rows):
    tables = [model._meta.db_table for model in MODELS]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
        cursor.execute("CREATE ROLE club_rls_probe NOLOGIN")  # rolled back with the test
        for statement in app_role_grants(role="club_rls_probe", owner=owner):
            cursor.execute(statement)
        cursor.execute("SET LOCAL ROLE club_rls_probe")
        with scope(room):
            for table in tables:
                cursor.execute(f'SELECT DISTINCT room_id FROM "{table}"')
                assert [r for (r,) in cursor.fetchall()] == [room.pk], table
        cursor.execute("RESET ROLE")
        for table in tables:
            cursor.execute(f'SELECT COUNT(DISTINCT room_id) FROM "{table}"')
            assert cursor.fetchone()[0] == 2, table  # the owner sees both rooms
