"""Table play in many rooms (docs/rooms.md): each room's pages show its own tables,
hands and rulesets only; another room's id answers 404 as a missing one; forms refuse
another room's table, player or ruleset; the database refuses a row pointing across
rooms; on PostgreSQL a query without a filter sees only its room's rows."""

from __future__ import annotations

import json
import uuid
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from clubapp.core.dbroles import app_role_grants
from clubapp.core.roles import Role
from clubapp.core.rooms import scope
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.tests.factories import MemberFactory, TableFactory, VisitFactory
from clubapp.play import selectors, services
from clubapp.play.models import (
    Hand,
    HandSignoff,
    LedgerLine,
    RulesetVersion,
    Seat,
    Settlement,
    TableSession,
    VoidRequest,
)
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, shipped

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row-level security is PostgreSQL's"
)

PLAY_MODELS = (TableSession, Seat, Hand, LedgerLine, Settlement, HandSignoff, VoidRequest)


@pytest.fixture
def east(db):
    return RoomFactory(slug="east", name="东区活动室")


@pytest.fixture
def east_manager(east):
    return UserFactory(username="east-manager", roles=[Role.MANAGER], room=east)


@pytest.fixture
def east_member(east):
    return UserFactory(username="east-member", roles=[Role.MEMBER], room=east)


def _own_ruleset(room, name: str) -> RulesetVersion:
    params = {**shipped().params, "id": "nanjing-own", "name": name, "penalty": {"amount": 8}}
    return services.ruleset_version_save(params=params, room=room)


def _night(room, manager, player, name: str) -> TableSession:
    """A table of ``room`` with ``player`` at 东, two hands (one voided after a
    player's request), a statement and a confirmation."""
    session = TableSessionFactory(room=room, seated=player, ruleset=_own_ruleset(room, name))
    first = book(session, discard_win("E", "S"))
    second = book(session, discard_win("S", "W"))
    services.hand_signoff(hand=first, by=player)
    services.settlement_make(session=session, by=manager)
    services.hand_void_request(hand=second, reason="记错了", by=player)
    return session


@pytest.fixture
def nights(room, east, manager, member, east_manager, east_member):
    """(main's session, east's session)."""
    return (
        _night(room, manager, member, "本室南京"),
        _night(east, east_manager, east_member, "东区南京"),
    )


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in PLAY_MODELS}


# ------------------------------------------------------------------ pages


def test_the_lists_show_only_the_rooms_tables(client, manager, nights):
    mine, theirs = nights
    client.force_login(manager)
    page = client.get(reverse("play:sessions")).content.decode()
    assert mine.get_absolute_url() in page
    assert theirs.get_absolute_url() not in page


def test_the_ruleset_list_shows_the_standard_ones_and_the_rooms_own(client, manager, nights):
    client.force_login(manager)
    page = client.get(reverse("play:rulesets")).content.decode()
    assert "本室南京" in page and shipped().name in page
    assert "东区南京" not in page


def test_a_members_history_and_home_show_only_their_rooms_tables(client, member, nights):
    mine, theirs = nights
    client.force_login(member)
    page = client.get(reverse("play:my_history")).content.decode()
    assert mine.get_absolute_url() in page
    assert theirs.get_absolute_url() not in page


def test_the_session_form_offers_only_the_rooms_tables_players_and_rulesets(
    client, room, east, manager
):
    TableFactory(room=room, number=7)
    TableFactory(room=east, number=8)
    VisitFactory(room=room, guest_name="本室客", checked_in_by=manager)
    VisitFactory(room=east, guest_name="东区客", checked_in_by=manager)
    _own_ruleset(room, "本室南京")
    _own_ruleset(east, "东区南京")
    client.force_login(manager)
    page = client.get(reverse("play:session_create")).content.decode()
    assert "本室客" in page and "本室南京" in page
    assert "东区客" not in page and "东区南京" not in page


# ------------------------------------------------------------------ another room's id


def _table_urls(session: TableSession) -> list[tuple[str, str]]:
    """(method, url) of every page of one table and of its first hand and statement."""
    pk = session.pk
    return [
        ("get", reverse("play:session", args=[pk])),
        ("get", reverse("play:session_hands", args=[pk])),
        ("get", reverse("play:session_tip", args=[pk])),
        ("get", reverse("play:hand_entry", args=[pk])),
        ("post", reverse("play:hand_preview", args=[pk])),
        ("post", reverse("play:hand_book", args=[pk])),
        ("post", reverse("play:session_end", args=[pk])),
        ("post", reverse("play:session_reopen", args=[pk])),
        ("post", reverse("play:settlement_create", args=[pk])),
        ("get", reverse("play:hand", args=[pk, 1])),
        ("post", reverse("play:hand_signoff", args=[pk, 1])),
        ("get", reverse("play:hand_compare", args=[pk, 1])),
        ("get", reverse("play:hand_void", args=[pk, 1])),
        ("post", reverse("play:hand_void", args=[pk, 1])),
        ("get", reverse("play:settlement", args=[pk, 1])),
    ]


@pytest.mark.parametrize("who", ["manager", "member"])
def test_every_table_url_with_another_rooms_id_answers_404(client, request, nights, who):
    _mine, theirs = nights
    client.force_login(request.getfixturevalue(who))
    before = _counts()
    for method, url in _table_urls(theirs):
        if who == "member" and "/reopen/" in url:
            continue  # a manager's page: 403 for a member whatever the id
        data = {"confirm": "yes", "reason": "x", "key": str(uuid.uuid4())}
        response = getattr(client, method)(url, data if method == "post" else None)
        assert response.status_code == 404, (method, url)
    assert _counts() == before
    theirs.refresh_from_db()
    assert theirs.is_open


def test_a_get_of_a_post_only_url_answers_as_for_a_missing_id(client, manager, nights):
    _mine, theirs = nights
    client.force_login(manager)
    for name in ("session_end", "settlement_create", "hand_preview", "hand_book"):
        east_status = client.get(reverse(f"play:{name}", args=[theirs.pk])).status_code
        missing = client.get(reverse(f"play:{name}", args=[999999])).status_code
        assert east_status == missing, name


def test_another_rooms_member_account_or_ruleset_answers_404(client, manager, east_member, nights):
    _mine, theirs = nights
    client.force_login(manager)
    east_person = MemberFactory(room=theirs.room, user=east_member)
    east_ruleset = theirs.ruleset
    assert client.get(reverse("play:member_history", args=[east_member.pk])).status_code == 404
    assert client.get(reverse("play:member_points", args=[east_person.pk])).status_code == 404
    url = reverse("play:ruleset_edit", args=[east_ruleset.pk])
    assert client.get(url).status_code == 404
    before = RulesetVersion.objects.count()
    params = {**east_ruleset.params, "penalty": {"amount": 9}}
    assert client.post(url, {"params": json.dumps(params)}).status_code == 404
    assert RulesetVersion.objects.count() == before


def test_a_standard_ruleset_is_edited_into_a_copy_of_the_room(client, room, manager):
    client.force_login(manager)
    standard = shipped()
    params = {**standard.params, "penalty": {"amount": 9}}
    url = reverse("play:ruleset_edit", args=[standard.pk])
    assert client.post(url, {"params": json.dumps(params)}).status_code == 302
    saved = RulesetVersion.objects.exclude(pk=standard.pk).get(ruleset_id=standard.ruleset_id)
    assert saved.room == room and not saved.is_standard
    assert RulesetVersion.objects.get(pk=standard.pk).room is None


# ------------------------------------------------------------------ forms


def test_the_session_form_refuses_another_rooms_table_player_or_ruleset(
    client, room, east, manager
):
    mine = TableFactory(room=room, number=7)
    theirs = TableFactory(room=east, number=7)
    players = [VisitFactory(room=room, guest_name=n, checked_in_by=manager) for n in "甲乙丙丁"]
    stranger = VisitFactory(room=east, guest_name="东区客", checked_in_by=manager)
    east_ruleset = _own_ruleset(east, "东区南京")

    def form(table, ruleset, visits):
        return {
            "table": str(table.pk),
            "ruleset": str(ruleset.pk),
            "mode": "open",
            "end_when_out": "2",
            "settle_every": "",
            "jiang_count": "2",
            **{f"visit_{w}": str(v.pk) for w, v in zip("ESWN", visits, strict=True)},
        }

    client.force_login(manager)
    url = reverse("play:session_create")
    for data, field in (
        (form(theirs, shipped(), players), "table"),
        (form(mine, east_ruleset, players), "ruleset"),
        (form(mine, shipped(), [stranger, *players[1:]]), "visit_E"),
    ):
        response = client.post(url, data)
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert field in errors, errors
        assert "choice" in str(errors[field]) or "选择" in str(errors[field])
    assert not TableSession.objects.exists()


def test_the_service_refuses_another_rooms_table_player_or_ruleset(room, east, manager):
    mine = TableFactory(room=room, number=7)
    players = [VisitFactory(room=room, guest_name=n, checked_in_by=manager) for n in "甲乙丙丁"]
    stranger = VisitFactory(room=east, guest_name="东区客", checked_in_by=manager)

    def seats(visits):
        return [services.SeatIn(wind=w, visit=v) for w, v in zip("ESWN", visits, strict=True)]

    cases = [
        (TableFactory(room=east, number=7), shipped(), seats(players), "table_other_room"),
        (mine, _own_ruleset(east, "东区南京"), seats(players), "ruleset_other_room"),
        (mine, shipped(), seats([stranger, *players[1:]]), "visit_closed"),
    ]
    for table, ruleset, chosen, code in cases:
        with pytest.raises(services.SeatError if code == "visit_closed" else Exception) as info:
            services.session_create(
                room=room, table=table, ruleset=ruleset, seats=chosen, by=manager
            )
        assert getattr(info.value, "code", "") == code
    assert not TableSession.objects.exists()


def test_the_rooms_default_ruleset_is_a_standard_one_or_the_rooms_own(client, room, east, manager):
    _own_ruleset(east, "东区南京")
    theirs = services.ruleset_version_save(
        params={**shipped().params, "id": "east-only", "name": "东区专用"}, room=east
    )
    client.force_login(manager)
    data = {
        "card_fee": "20",
        "renewal_fee": "10",
        "guest_hourly_fee": "5",
        "renewal_window_days": "30",
        "notice": "",
    }
    response = client.post(
        reverse("members:room_settings"), {**data, "default_ruleset": theirs.ruleset_id}
    )
    assert response.status_code == 200
    assert "default_ruleset" in response.context["form"].errors
    room.refresh_from_db()
    assert room.default_ruleset == ""
    ours = services.ruleset_version_save(
        params={**shipped().params, "id": "main-only", "name": "本室专用"}, room=room
    )
    response = client.post(
        reverse("members:room_settings"), {**data, "default_ruleset": ours.ruleset_id}
    )
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.default_ruleset == "main-only"


# ------------------------------------------------------------------ the database


def _refused(make) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def test_the_database_refuses_a_row_pointing_into_another_room(room, east, nights):
    mine, theirs = nights
    east_hand = theirs.hands.get(number=1)
    east_visit = VisitFactory(room=east, guest_name="东区客")
    state = Hand.state_fields(east_hand.state())
    _refused(lambda: Seat.objects.create(room=room, session=theirs, wind="E", name="x"))
    _refused(lambda: Seat.objects.filter(session=mine, wind="S").update(visit=east_visit))
    _refused(lambda: TableSessionFactory(room=room, table=TableFactory(room=east, number=50)))
    _refused(lambda: TableSessionFactory(room=room, ruleset=theirs.ruleset))

    def hand(**fields):
        return Hand.objects.create(
            **{
                "room": room,
                "session": mine,
                "number": 50,
                "record": {},
                "result": {},
                "ruleset": mine.ruleset,
                "idempotency_key": uuid.uuid4(),
                "line_count": 0,
                **state,
                **fields,
            }
        )

    _refused(lambda: hand(session=theirs))
    _refused(lambda: hand(ruleset=theirs.ruleset))
    _refused(lambda: hand(voids=east_hand, void_reason="x"))
    line = {"seat": "E", "counterparty": "S", "points": 1, "reason": "win"}
    _refused(lambda: LedgerLine.objects.create(room=room, hand=east_hand, **line))
    _refused(
        lambda: Settlement.objects.create(
            room=room, session=theirs, number=9, first_number=1, last_number=1, statement={}
        )
    )
    user = UserFactory(username="someone")
    _refused(lambda: HandSignoff.objects.create(room=room, hand=east_hand, seat="W", user=user))
    _refused(
        lambda: VoidRequest.objects.create(
            room=room, hand=east_hand, reason="x", seat="W", requested_by=user
        )
    )
    pending = VoidRequest.objects.get(room=room)
    _refused(lambda: VoidRequest.objects.filter(pk=pending.pk).update(reversal=east_hand))
    _refused(lambda: Seat.objects.filter(session=mine).update(room=east))


def test_a_standard_ruleset_is_every_rooms(room, east):
    standard = shipped()
    assert standard.room is None
    TableSessionFactory(room=room, ruleset=standard)
    TableSessionFactory(room=east, ruleset=standard)
    assert TableSession.objects.filter(ruleset=standard).count() == 2


def test_numbers_and_ruleset_versions_are_counted_per_room(room, east, nights):
    mine, theirs = nights
    assert mine.hands.filter(number=1).exists() and theirs.hands.filter(number=1).exists()
    assert Settlement.objects.filter(number=1, room=room).exists()
    assert Settlement.objects.filter(number=1, room=east).exists()
    # one version once per room, and once among the standard ones
    assert mine.ruleset.version == theirs.ruleset.version
    assert mine.ruleset.pk != theirs.ruleset.pk
    again = services.ruleset_version_save(params=mine.ruleset.params, room=room)
    assert again.pk == mine.ruleset.pk
    standard = shipped()
    assert services.ruleset_version_save(params=standard.params, room=east).pk == standard.pk
    _refused(
        lambda: RulesetVersion.objects.create(
            ruleset_id=standard.ruleset_id,
            name="x",
            family="nanjing",
            version=standard.version,
            params=standard.params,
        )
    )


def test_a_rooms_ruleset_keeps_a_natural_key(room, east, nights):
    mine, theirs = nights
    assert mine.ruleset.natural_key() == (mine.ruleset.ruleset_id, mine.ruleset.version, "main")
    found = RulesetVersion.objects.get_by_natural_key(*theirs.ruleset.natural_key())
    assert found == theirs.ruleset
    standard = shipped()
    assert RulesetVersion.objects.get_by_natural_key(*standard.natural_key()) == standard


def test_the_selectors_read_the_room_given(room, east, member, east_member, nights):
    mine, theirs = nights
    assert list(selectors.session_list(room=room)) == [mine]
    assert list(selectors.sessions_seated(room=east, user=east_member)) == [theirs]
    assert selectors.member_stats(room=east, user=member).hands == 0
    assert [h.session_id for h in selectors.hands_awaiting(room=room, user=member)] == [mine.pk]
    assert theirs.ruleset not in selectors.ruleset_versions_latest(room=room)


def test_play_check_checks_one_room(nights):
    from clubapp.members.models import Table

    # (the factory opens tables around the service, which marks them in play)
    Table.objects.filter(sessions__ended_at__isnull=True).update(in_play=True)
    out = StringIO()
    call_command("play_check", "--room", "east", stdout=out)
    assert "1 sessions checked, 0 differences" in out.getvalue()


def test_the_admin_lists_only_the_rooms_rows(client, room, nights):
    mine, theirs = nights
    boss = UserFactory(username="boss", is_superuser=True, is_staff=True, room=room)
    client.force_login(boss)
    page = client.get(reverse("admin:play_tablesession_changelist")).content.decode()
    assert f"/play/tablesession/{mine.pk}/" in page
    assert f"/play/tablesession/{theirs.pk}/" not in page
    page = client.get(reverse("admin:play_rulesetversion_changelist")).content.decode()
    assert "本室南京" in page and "东区南京" not in page


@on_postgresql
def test_a_raw_query_without_a_filter_sees_only_its_rooms_play(room, east, nights):
    mine, theirs = nights
    tables = [model._meta.db_table for model in PLAY_MODELS]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
        cursor.execute("CREATE ROLE club_rls_probe NOLOGIN")  # rolled back with the test
        for statement in app_role_grants(role="club_rls_probe", owner=owner):
            cursor.execute(statement)
        cursor.execute("SET LOCAL ROLE club_rls_probe")
        with scope(room):
            for table in tables:
                cursor.execute(f"SELECT DISTINCT room_id FROM {table}")
                assert [r for (r,) in cursor.fetchall()] == [room.pk], table
            cursor.execute("SELECT DISTINCT room_id FROM play_rulesetversion")
            assert {r for (r,) in cursor.fetchall()} == {None, room.pk}
            cursor.execute("SELECT id FROM play_tablesession")
            assert [pk for (pk,) in cursor.fetchall()] == [mine.pk]
        with scope(east):
            cursor.execute("SELECT id FROM play_tablesession")
            assert [pk for (pk,) in cursor.fetchall()] == [theirs.pk]
        cursor.execute("RESET ROLE")
