"""Many rooms (docs/rooms.md) in the activities app: two rooms' checks, duty, leave,
plans, records and tournaments side by side; main's users see main's rows only,
another room's id answers 404, a form naming another room's row is refused, and the
database refuses a row pointing across rooms (on PostgreSQL its row-level security
shows a raw query one room only)."""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction
from django.db.models import ForeignKey
from django.urls import reverse

from clubapp.activities.models import (
    ActivityPlan,
    ActivityRecord,
    CheckItem,
    Entrant,
    Format,
    Game,
    Leave,
    Pairing,
    PlannedActivity,
    PlanVersion,
    RecordPhoto,
    RoundTable,
    Tournament,
)
from clubapp.activities.services import checks as check_services
from clubapp.activities.services import duty as duty_services
from clubapp.activities.services import plans as plan_services
from clubapp.activities.services import records as record_services
from clubapp.activities.services import tournaments as tournament_services
from clubapp.activities.tests.plans_records import (
    a_record,
    activity,
    approved_plan,
    at,
    visitor,
    what_happened,
)
from clubapp.activities.tests.tournament_factories import tournament
from clubapp.core import roomguards
from clubapp.core.dbroles import app_role_grants
from clubapp.core.roles import Role
from clubapp.core.rooms import scope
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.tests.factories import CardFactory, MemberFactory, image_bytes

pytestmark = pytest.mark.django_db

NOV = dt.date(2026, 11, 1)


def nov(n: int) -> dt.date:
    return dt.date(2026, 11, n)


@dataclass
class Rooms:
    """One room's rows of every kind, written by the services."""

    room: Any
    manager: Any
    desk: Any
    approver: Any
    item: CheckItem
    leave: Leave
    plan: ActivityPlan
    draft: PlanVersion
    record: ActivityRecord
    photo: RecordPhoto
    swiss: Tournament
    mahjong: Tournament
    pairing: Pairing
    table: RoundTable


def _card_members(room: Any, name: str, count: int) -> list[Any]:
    members = [MemberFactory(room=room, name=f"{name}棋手{n}") for n in range(count)]
    for member in members:
        CardFactory(member=member)
    return members


def fill(room: Any, name: str) -> Rooms:
    """Every kind of row of the activities app in ``room``; names start with ``name``."""
    manager = UserFactory(
        username=f"{name}-manager",
        first_name=f"{name}经理",
        roles=[Role.MANAGER, Role.APPROVER],
        room=room,
    )
    desk = UserFactory(
        username=f"{name}-desk", first_name=f"{name}值班", roles=[Role.MANAGER], room=room
    )
    approver = UserFactory(
        username=f"{name}-approver", first_name=f"{name}主任", roles=[Role.APPROVER], room=room
    )
    # the day's checks, damage, violations
    check_services.check_items_ensure(room=room, since=NOV)
    item = check_services.check_item_add(
        room=room, phase="opening", text=f"{name}检查项", by=manager, now=at(1, 9, month=11)
    )
    check_services.check_tick(item=item, day=nov(30), by=manager, now=at(30, 9, month=11))
    culprit = MemberFactory(room=room, name=f"{name}会员")
    check_services.damage_record(
        room=room, day=nov(30), equipment=f"{name}棋盘", member=culprit, by=manager,
        now=at(30, 11, month=11),
    )  # fmt: skip
    check_services.violation_record(
        room=room, day=nov(30), member=culprit, kind="smoking", notes=f"{name}吸烟",
        by=manager, now=at(30, 11, month=11),
    )  # fmt: skip
    # duty and leave
    duty_services.roster_set(
        room=room, days={nov(30): [manager]}, by=manager, now=at(29, 9, month=11)
    )
    duty_services.duty_sign_on(room=room, by=manager, now=at(30, 9, month=11))
    leave = duty_services.leave_request(
        room=room, starts=nov(9), ends=nov(10), reason=f"{name}事假", cover=desk, by=manager,
        now=at(2, 9, month=11),
    )  # fmt: skip
    duty_services.leave_decide(leave=leave, approved=True, by=approver, now=at(2, 10, month=11))
    duty_services.leave_back(leave=leave, back_on=nov(11), by=manager, now=at(11, 9, month=11))
    # a plan approved, then a new version drafted
    plan = approved_plan(room, manager, approver, activity(5, title=f"{name}月赛"))
    draft = plan_services.version_new(plan=plan, reason="改期", by=manager, now=at(3, 9))
    # a record with an attendee and a photo
    came = visitor(room, manager, at(5, 13), name=f"{name}来宾")
    planned = PlannedActivity.objects.get(version__plan=plan)
    record = a_record(room, manager, attendees=[came], title=f"{name}记录", planned=planned)
    version = record_services.record_correct(
        record=record, data=what_happened(attendees=[came], title=f"{name}记录"),
        reason="补照片", photos=[io.BytesIO(image_bytes("JPEG", (60, 40)))], by=manager,
        now=at(6, 9),
    )  # fmt: skip
    # a Swiss tournament closed (entrants, a round, results, final standings) and a
    # 麻将 tournament with a round drawn (tables, seats)
    swiss = tournament(room, manager, rounds=1, name=f"{name}象棋赛", planned=planned)
    for member in _card_members(room, name, 4):
        tournament_services.entrant_add(tournament=swiss, member=member, by=manager)
    round_ = tournament_services.round_pair(tournament=swiss, by=manager)
    for pairing in round_.pairings.all():
        tournament_services.result_record(
            tournament=swiss, pairing=pairing, first_score=1, second_score=0, by=manager
        )
    tournament_services.tournament_close(tournament=swiss, by=manager)
    mahjong = tournament(room, manager, game=Game.MAHJONG, name=f"{name}麻将赛")
    for member in _card_members(room, f"{name}麻将", 4):
        tournament_services.entrant_add(tournament=mahjong, member=member, by=manager)
    drawn = tournament_services.round_draw(tournament=mahjong, seed=7, by=manager)
    return Rooms(
        room=room,
        manager=manager,
        desk=desk,
        approver=approver,
        item=item,
        leave=leave,
        plan=plan,
        draft=draft,
        record=record,
        photo=version.photos.get(),
        swiss=swiss,
        mahjong=mahjong,
        pairing=round_.pairings.first(),
        table=drawn.tables.get(),
    )


@pytest.fixture
def east(db):
    return RoomFactory(slug="east", name="东区活动室")


@pytest.fixture
def main(room):
    return fill(room, "主")


@pytest.fixture
def other(east):
    return fill(east, "东")


def _models() -> list[Any]:
    return list(apps.get_app_config("activities").get_models())


def _counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in _models()}


def test_every_row_of_both_rooms_is_in_its_room(main, other):
    for model in _models():
        rooms = set(model.objects.values_list("room_id", flat=True))
        assert rooms == {main.room.pk, other.room.pk}, model.__name__


def _pages(mine: Rooms) -> list[str]:
    return [
        reverse("activities:home") + "?month=2026-12",
        reverse("activities:plan_list"),
        reverse("activities:plan_detail", args=[mine.plan.pk]),
        reverse("activities:plan_create"),
        reverse("activities:record_list"),
        reverse("activities:record_detail", args=[mine.record.pk]),
        reverse("activities:record_create") + "?date=2026-12-05",
        reverse("activities:tournament_list"),
        reverse("activities:tournament_create"),
        reverse("activities:tournament_detail", args=[mine.swiss.pk]),
        reverse("activities:tournament_detail", args=[mine.mahjong.pk]),
        reverse("activities:duty"),
        reverse("activities:duty_roster") + "?week=2026-11-30",
        reverse("activities:duty_month") + "?month=2026-11",
        reverse("activities:leave_list"),
        reverse("activities:leave_create"),
        reverse("activities:leave_detail", args=[mine.leave.pk]),
        reverse("activities:checks") + "?day=2026-11-30",
        reverse("activities:check_items"),
        reverse("activities:damage_list"),
        reverse("activities:damage_create"),
        reverse("activities:violation_list"),
        reverse("activities:violation_create"),
    ]


def test_every_page_shows_only_the_rooms_own_rows(client, main, other):
    client.force_login(main.manager)
    for path in _pages(main):
        response = client.get(path)
        assert response.status_code == 200, path
        page = response.content.decode()
        assert "东" + "经理" not in page and "东值班" not in page, path
        for word in ("东月赛", "东记录", "东象棋赛", "东麻将赛", "东事假", "东检查项", "东会员"):
            assert word not in page, (path, word)
    seen = "".join(client.get(path).content.decode() for path in _pages(main))
    for word in ("主月赛", "主记录", "主象棋赛", "主麻将赛", "主事假", "主检查项", "主会员"):
        assert word in seen, word


def _east_urls(mine: Rooms, theirs: Rooms) -> list[str]:
    """Every URL of the app naming one of east's rows."""
    t = theirs.swiss.pk
    return [
        reverse("activities:check_tick", args=[theirs.item.pk]),
        reverse("activities:check_item_edit", args=[theirs.item.pk]),
        reverse("activities:leave_detail", args=[theirs.leave.pk]),
        reverse("activities:leave_decide", args=[theirs.leave.pk]),
        reverse("activities:leave_back", args=[theirs.leave.pk]),
        reverse("activities:plan_detail", args=[theirs.plan.pk]),
        reverse("activities:version_new", args=[theirs.plan.pk]),
        reverse("activities:version_edit", args=[theirs.draft.pk]),
        reverse("activities:version_submit", args=[theirs.draft.pk]),
        reverse("activities:version_decide", args=[theirs.draft.pk]),
        reverse("activities:record_detail", args=[theirs.record.pk]),
        reverse("activities:record_correct", args=[theirs.record.pk]),
        reverse("activities:record_photo", args=[theirs.photo.pk]),
        reverse("activities:tournament_detail", args=[t]),
        reverse("activities:tournament_pdf", args=[t]),
        reverse("activities:tournament_entrant_add", args=[t]),
        reverse("activities:tournament_round_next", args=[t]),
        reverse("activities:tournament_round_set", args=[theirs.mahjong.pk]),
        reverse("activities:tournament_close", args=[t]),
        reverse("activities:tournament_result", args=[t, theirs.pairing.pk]),
        # main's own tournament with east's pairing or table
        reverse("activities:tournament_result", args=[mine.swiss.pk, theirs.pairing.pk]),
        reverse("activities:tournament_table_open", args=[mine.mahjong.pk, theirs.table.pk]),
        reverse("activities:tournament_table_open", args=[theirs.mahjong.pk, theirs.table.pk]),
    ]


def test_another_rooms_id_answers_404_and_a_post_changes_nothing(client, main, other):
    client.force_login(main.manager)
    before = _counts()
    for path in _east_urls(main, other):
        # a POST-only page answers GET with 405 (allowed: POST) before it looks anything up
        assert client.get(path).status_code in (404, 405), path
        data = {"confirm": "yes", "approved": "yes", "reason": "x", "back_on": "2026-11-11"}
        # and a GET-only page answers POST with 405: never the row
        assert client.post(path, data).status_code in (404, 405), path
        assert 404 in (client.get(path).status_code, client.post(path, data).status_code), path
    assert _counts() == before


def test_the_rooms_own_ids_are_found(client, main, other):
    client.force_login(other.manager)
    assert client.get(reverse("activities:plan_detail", args=[other.plan.pk])).status_code == 200
    assert client.get(reverse("activities:plan_detail", args=[main.plan.pk])).status_code == 404


def _choice_refused(response: Any, field: str) -> None:
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert "选择一个有效的选项" in errors[field][0] or "valid choice" in errors[field][0]


def test_a_form_naming_another_rooms_row_is_refused(client, main, other):
    client.force_login(main.manager)
    east_member = Entrant.objects.filter(tournament=other.swiss).first().member
    before = _counts()
    response = client.post(
        reverse("activities:damage_create"),
        {"day": "2026-11-30", "equipment": "棋子", "member": east_member.pk, "compensation": "0"},
    )
    _choice_refused(response, "member")
    response = client.post(
        reverse("activities:violation_create"),
        {"day": "2026-11-30", "member": east_member.pk, "kind": "smoking", "notes": "吸烟"},
    )
    _choice_refused(response, "member")
    response = client.post(
        reverse("activities:leave_create"),
        {"starts": "2026-12-20", "ends": "2026-12-21", "reason": "事假", "cover": other.desk.pk},
    )
    _choice_refused(response, "cover")
    east_planned = PlannedActivity.objects.filter(room=other.room).first()
    response = client.post(
        reverse("activities:tournament_create"),
        {
            "name": "跨室赛", "game": Game.XIANGQI, "format": Format.SWISS,
            "starts": "2026-12-05", "ends": "2026-12-05", "rounds_planned": 3,
            "entry_fee": "0", "rank_by": "points", "placings": "4,2,1,0",
            "planned": east_planned.pk,
        },
    )  # fmt: skip
    _choice_refused(response, "planned")
    # entering east's member in main's tournament: the page says so, nobody is entered
    swiss = tournament(main.room, main.manager, name="主新赛")
    before = _counts()
    response = client.post(
        reverse("activities:tournament_entrant_add", args=[swiss.pk]),
        {"member": east_member.pk},
        follow=True,
    )
    assert "请选择要报名的会员" in response.content.decode() or "Choose the member" in (
        response.content.decode()
    )
    assert _counts() == before


def test_a_service_refuses_another_rooms_member_or_table(main, other):
    from django.core.exceptions import ValidationError

    east_member = MemberFactory(room=other.room)
    CardFactory(member=east_member)
    swiss = tournament(main.room, main.manager, name="主新赛")
    with pytest.raises(ValidationError) as exc:
        tournament_services.entrant_add(tournament=swiss, member=east_member, by=main.manager)
    assert exc.value.error_list[0].code == "member_room"
    with pytest.raises(ValidationError) as exc:
        check_services.violation_record(
            room=main.room, day=nov(30), member=east_member, kind="smoking", notes="x",
            by=main.manager, now=at(30, 11, month=11),
        )  # fmt: skip
    assert exc.value.error_list[0].code == "member"
    with pytest.raises(ValidationError) as exc:
        duty_services.leave_request(
            room=main.room, starts=nov(16), ends=nov(17), reason="事假", cover=other.desk,
            by=main.manager, now=at(12, 9, month=11),
        )  # fmt: skip
    assert exc.value.error_list[0].code == "not_staff"


def _references() -> list[tuple[Any, ForeignKey[Any, Any]]]:
    return [
        (model, field)
        for model in _models()
        for field in model._meta.fields
        if isinstance(field, ForeignKey)
        and field.name != "room"
        and roomguards.room_keyed(field.related_model)
    ]


def test_the_database_refuses_a_row_pointing_into_another_room(main, other):
    checked = set()
    for model, field in _references():
        row = model.objects.filter(room=main.room, **{f"{field.name}__isnull": False}).first()
        target = field.related_model.objects.filter(room=other.room).first()
        if row is None or target is None:
            continue  # no such pair in the data (a books income, a play session)
        row.pk = None
        setattr(row, field.attname, target.pk)
        with pytest.raises(IntegrityError, match="another room"), transaction.atomic():
            model.objects.bulk_create([row])
        checked.add(f"{model.__name__}.{field.name}")
    inside = {
        f"{m.__name__}.{f.name}"
        for m, f in _references()
        if f.related_model._meta.app_label == "activities"
    }
    assert inside <= checked, inside - checked
    assert {"Damage.member", "Violation.member", "RecordAttendee.visit"} <= checked


def test_the_database_refuses_a_reference_moved_into_another_room(main, other):
    with pytest.raises(IntegrityError, match="another room"), transaction.atomic():
        PlanVersion.objects.filter(pk=main.draft.pk).update(plan=other.plan)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=main.swiss.pk).update(room=other.room)


def test_numbers_are_counted_in_each_room(main, other):
    for mine in (main, other):
        assert mine.plan.versions.order_by("number").first().number == 1
        assert mine.swiss.entrants.order_by("number").first().number == 1
        assert mine.swiss.rounds.get().number == 1


on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row-level security is PostgreSQL's"
)


@on_postgresql
def test_a_raw_query_without_a_filter_sees_only_its_rooms_rows(main, other):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
        cursor.execute("CREATE ROLE club_rls_probe NOLOGIN")  # rolled back with the test
        for statement in app_role_grants(role="club_rls_probe", owner=owner):
            cursor.execute(statement)
        cursor.execute("SET LOCAL ROLE club_rls_probe")
        for mine in (main, other):
            with scope(mine.room):
                for model in _models():
                    table = model._meta.db_table
                    cursor.execute(f'SELECT DISTINCT room_id FROM "{table}"')
                    assert [r for (r,) in cursor.fetchall()] == [mine.room.pk], table
        cursor.execute("RESET ROLE")
