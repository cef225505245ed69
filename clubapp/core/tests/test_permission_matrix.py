"""Who may open what: every URL of the URLconf × every role, for GET and POST (issue 11.9).

One line per URL name in ``EXPECTED``: what each role gets for GET, what for POST,
and the URL's arguments from the ``world`` (one of everything). A URL added without a
line fails ``test_every_url_has_an_entry``. The admin (``admin:``) is Django's own,
tested in ``test_admin_accounts.py``.

Outcomes, in the order of ``ROLES``:
    ok   allowed (any 2xx, or a redirect that is not to the login page)
    L    sent to the login page
    403  refused
    405  method not allowed (a POST-only action opened by GET, or the reverse)

Where today's behaviour is wrong, the line holds the right value and the role is in
``WRONG_TODAY`` (strict xfail): those tests flip to passing when it is fixed.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubapp.activities.models import RecordPhoto
from clubapp.activities.services import records as record_services
from clubapp.activities.services import tournaments as tournament_services
from clubapp.activities.services.checks import check_items_ensure
from clubapp.activities.services.duty import leave_request
from clubapp.activities.tests.plans_records import activity as activity_in
from clubapp.activities.tests.plans_records import draft_plan, submitted_plan, what_happened
from clubapp.activities.tests.tournament_factories import card_member
from clubapp.activities.tests.tournament_factories import tournament as tournament_make
from clubapp.books import services as book_services
from clubapp.books.models import IncomeCategory, IncomeEntry, PlanOutcome
from clubapp.books.tests.factories import approved, draft, expense, first_line, submitted
from clubapp.core.roles import Role
from clubapp.core.tests.factories import UserFactory
from clubapp.members import services as member_services
from clubapp.members.models import ExceptionKind, Table, Visit
from clubapp.members.tests.factories import MONDAY_10, image_bytes, make_id_number
from clubapp.play.models import RulesetVersion, Seat
from clubapp.play.services import settlement_make
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "seated", "unseated", "accountant", "approver", "manager", "superuser")

# Rows used by many URLs, in the order of ROLES.
#                  anon seated unseated acct approver manager super
ANYONE = "          ok   ok     ok       ok   ok       ok      ok"
LOGGED_IN = "       L    ok     ok       ok   ok       ok      ok"
NOT_ALLOWED = "     405  405    405      405  405      405     405"
LOGGED_IN_405 = "   L    405    405      405  405      405     405"
DESK_READ = "       L    403    403      ok   403      ok      403"  # managers, accountants
MANAGER = "         L    403    403      403  403      ok      403"
PLAYERS = "         L    ok     ok       ok   403      ok      403"  # who plays or reads play
TABLE_OPEN = "      L    ok     ok       403  403      ok      403"  # who may open a table
TABLE_READ = "      L    ok     403      ok   403      ok      403"  # seated, accountant, manager
TABLE_ACT = "       L    ok     403      403  403      ok      403"  # seated, manager
TABLE_POST_ONLY = " L    405    405      403  403      405     403"  # recorder check, then 405
TABLE_ACT_405 = "   L    405    403      403  403      405     403"  # seated, manager; wrong method
SEATED_ONLY = "     L    ok     403      403  403      403     403"
MANAGER_405 = "     L    403    403      403  403      405     403"  # a manager's POST-only action
BOOKS_READ = "      L    403    403      ok   ok       ok      403"  # the office and the approver
BOOKS_CHECK = "     L    403    403      ok   403      403     403"  # the accountant
BOOKS_APPROVE = "   L    403    403      403  ok       403     403"  # the approver
# Reversing an expense: the accountant, or a manager while it is not confirmed.
BOOKS_UNDO = "      L    403    403      ok   403      ok      403"
OWN_CARD = "        L    ok     403      403  403      ok      403"  # the seated member's own card
# The activities app: anyone with a role reads the calendar and the standings.
ROLE_HOLDERS = "    L    ok     ok       ok   ok       ok      403"
ROLE_HOLDERS_405 = "L    405    405      405  405      405     403"
DISTRICT = "      L    403    403      403  403      403     ok"  # every room's totals
SWITCH = "        L    403    403      403  403      403     404"  # the superuser's: no room named
LEAVE_BACK = (
    "      L    403    403      403  ok       ok      403"  # the person on leave, approvers
)


def _k(**names: str):
    """URL arguments read off the world: _k(pk="card") -> {"pk": world.card}."""
    return lambda world: {arg: getattr(world, attr) for arg, attr in names.items()}


NONE = _k()

# url name: (GET, POST, arguments)
EXPECTED: dict[str, tuple[str, str, Any]] = {
    "home": (LOGGED_IN, LOGGED_IN, NONE),
    "healthz": (ANYONE, NOT_ALLOWED, NONE),
    # The table app's manifest and service worker, and its offline page: no one's data.
    "manifest": (ANYONE, NOT_ALLOWED, NONE),
    "service_worker": (ANYONE, NOT_ALLOWED, NONE),
    "play:offline": (ANYONE, NOT_ALLOWED, NONE),
    "login": (ANYONE, ANYONE, NONE),
    # Logging out ends on the login page, whoever asks.
    "logout": (NOT_ALLOWED, "L L L L L L L", NONE),
    "password_change": (LOGGED_IN, LOGGED_IN, NONE),
    "password_change_done": (LOGGED_IN, LOGGED_IN_405, NONE),
    "password_reset_confirm": (ANYONE, ANYONE, _k(uidb64="uidb64", token="token")),
    "password_reset_complete": (ANYONE, NOT_ALLOWED, NONE),
    "set_language": (ANYONE, ANYONE, NONE),
    "members:member_list": (DESK_READ, DESK_READ, NONE),
    "members:member_create": (MANAGER, MANAGER, NONE),
    "members:my_card": (LOGGED_IN, LOGGED_IN, NONE),
    "members:member_detail": (DESK_READ, DESK_READ, _k(pk="person")),
    "members:member_edit": (MANAGER, MANAGER, _k(pk="person")),
    # The full ID number, shown and recorded: the roles that may see ID numbers.
    "members:member_id_number_show": (NOT_ALLOWED, MANAGER, _k(pk="person")),
    # The seated player is this member: their own photo.
    "members:member_photo": (TABLE_READ, TABLE_READ, _k(pk="person")),
    "members:member_account": (MANAGER, MANAGER, _k(pk="other_person")),
    "members:member_account_reset": (NOT_ALLOWED, MANAGER, _k(pk="person")),
    "members:member_account_active": (NOT_ALLOWED, MANAGER, _k(pk="person")),
    "members:card_issue": (NOT_ALLOWED, MANAGER, _k(pk="other_person")),
    "members:card_renew": (MANAGER, MANAGER, _k(pk="card")),
    "members:card_reissue": (MANAGER, MANAGER, _k(pk="card")),
    "members:card_revoke": (MANAGER, MANAGER, _k(pk="card")),
    "members:card_suspend": (MANAGER, MANAGER, _k(pk="card")),
    "members:card_resume": (NOT_ALLOWED, MANAGER, _k(pk="card")),
    "members:receipt_detail": (DESK_READ, DESK_READ, _k(number="receipt")),
    "members:visit_list": (DESK_READ, DESK_READ, NONE),
    "members:visit_check_in": (MANAGER, MANAGER, NONE),
    "members:visit_guest_check_in": (NOT_ALLOWED, MANAGER, NONE),
    "members:visit_detail": (DESK_READ, DESK_READ, _k(pk="visit")),
    "members:visit_check_out": (MANAGER, MANAGER, _k(pk="visit")),
    "members:table_list": (DESK_READ, MANAGER, NONE),
    "members:table_toggle": (NOT_ALLOWED, MANAGER, _k(pk="table")),
    "members:table_edit": (MANAGER, MANAGER, _k(pk="table")),
    "members:table_active": (NOT_ALLOWED, MANAGER, _k(pk="spare_table")),
    "members:room_settings": (DESK_READ, MANAGER, NONE),
    "members:hours_update": (NOT_ALLOWED, MANAGER, NONE),
    "members:exception_create": (NOT_ALLOWED, MANAGER, NONE),
    "members:exception_delete": (NOT_ALLOWED, MANAGER, _k(pk="exception")),
    "play:sessions": (PLAYERS, PLAYERS, NONE),
    "play:session_create": (TABLE_OPEN, TABLE_OPEN, NONE),
    "play:session": (TABLE_READ, TABLE_READ, _k(pk="session")),
    "play:session_end": (TABLE_POST_ONLY, TABLE_ACT, _k(pk="session")),
    # Reopening a session ended by mistake: a manager's (the world's session is open,
    # so the manager is told so and sent back).
    "play:session_reopen": (MANAGER_405, MANAGER, _k(pk="session")),
    "play:session_hands": (TABLE_READ, TABLE_READ, _k(pk="session")),
    # The journal's end, polled by the table's pages: the seated and the office read it.
    "play:session_tip": (
        TABLE_READ,
        "L    405    403      405  403      405     403",
        _k(pk="session"),
    ),
    "play:hand_entry": (TABLE_ACT, TABLE_ACT_405, _k(pk="session")),
    "play:hand_preview": (TABLE_ACT_405, TABLE_ACT, _k(pk="session")),
    "play:hand_book": (TABLE_ACT_405, TABLE_ACT, _k(pk="session")),
    "play:hand": (TABLE_READ, TABLE_READ, _k(pk="session", number="hand")),
    "play:hand_signoff": (LOGGED_IN_405, SEATED_ONLY, _k(pk="session", number="hand")),
    "play:hand_compare": (TABLE_READ, TABLE_READ, _k(pk="session", number="hand")),
    "play:hand_void": (TABLE_ACT, TABLE_ACT, _k(pk="session", number="hand")),
    "play:settlement_create": (TABLE_POST_ONLY, TABLE_ACT, _k(pk="session")),
    "play:settlement": (TABLE_READ, TABLE_READ, _k(pk="session", number="settlement")),
    "play:my_history": (PLAYERS, PLAYERS, NONE),
    # The history of the seated player: their own, or read by the desk.
    "play:member_history": (TABLE_READ, TABLE_READ, _k(user_id="seated_id")),
    # A member's points history, login or not: their own, or read by the desk.
    "play:member_points": (TABLE_READ, TABLE_READ, _k(pk="person")),
    "play:rulesets": (PLAYERS, PLAYERS, NONE),
    "play:ruleset_edit": (MANAGER, MANAGER, _k(pk="ruleset")),
    "reports:today": (DESK_READ, NOT_ALLOWED, NONE),
    "reports:monthly": (BOOKS_READ, NOT_ALLOWED, NONE),
    "reports:monthly_xlsx": (BOOKS_READ, NOT_ALLOWED, NONE),
    "reports:monthly_pdf": (BOOKS_READ, NOT_ALLOWED, NONE),
    "reports:list": (DESK_READ, NOT_ALLOWED, _k(slug="list_slug")),
    "reports:list_xlsx": (DESK_READ, NOT_ALLOWED, _k(slug="list_slug")),
    "reports:list_csv": (DESK_READ, NOT_ALLOWED, _k(slug="list_slug")),
    "reports:sheet": (TABLE_READ, NOT_ALLOWED, _k(pk="session")),
    "reports:sheet_pdf": (TABLE_READ, NOT_ALLOWED, _k(pk="session")),
    "reports:sheet_xlsx": (TABLE_READ, NOT_ALLOWED, _k(pk="session")),
    "reports:cards": (MANAGER, NOT_ALLOWED, NONE),
    # Many rooms (issue 24, docs/rooms.md): the district reads, the superuser switches.
    "reports:district": (DISTRICT, NOT_ALLOWED, NONE),
    "reports:district_xlsx": (DISTRICT, NOT_ALLOWED, NONE),
    "room_switch": (NOT_ALLOWED, SWITCH, NONE),
    "reports:card_sheet_pdf": (MANAGER, NOT_ALLOWED, NONE),
    "reports:card_pdf": (OWN_CARD, NOT_ALLOWED, _k(pk="card")),
    "reports:receipt_pdf": (DESK_READ, NOT_ALLOWED, _k(number="receipt")),
    # The cash book (issue 12 item 9, docs/books.md Roles): managers record income,
    # hand over and draft plans; approvers approve; the accountant confirms slips and
    # expenses, reverses and closes days; the three read the books; members see nothing.
    "books:home": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:home": (ROLE_HOLDERS, ROLE_HOLDERS_405, NONE),
    # Tournaments: anyone with a role reads the standings (page, PDF); managers run them.
    "activities:tournament_list": (ROLE_HOLDERS, ROLE_HOLDERS_405, NONE),
    "activities:tournament_create": (MANAGER, MANAGER, NONE),
    "activities:tournament_detail": (ROLE_HOLDERS, ROLE_HOLDERS_405, _k(pk="tournament")),
    "activities:tournament_pdf": (ROLE_HOLDERS, ROLE_HOLDERS_405, _k(pk="tournament")),
    "activities:tournament_entrant_add": (NOT_ALLOWED, MANAGER, _k(pk="tournament")),
    "activities:tournament_round_next": (NOT_ALLOWED, MANAGER, _k(pk="tournament")),
    "activities:tournament_round_set": (MANAGER, MANAGER, _k(pk="mahjong")),
    "activities:tournament_result": (
        NOT_ALLOWED,
        MANAGER,
        _k(pk="tournament", pairing="pairing"),
    ),
    "activities:tournament_table_open": (
        NOT_ALLOWED,
        MANAGER,
        _k(pk="mahjong", table="round_table"),
    ),
    "activities:tournament_close": (NOT_ALLOWED, MANAGER, _k(pk="tournament")),
    # duty and leave: the staff read; managers sign on and off, set the roster, ask for leave
    "activities:duty": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:duty_sign_on": (NOT_ALLOWED, MANAGER, NONE),
    "activities:duty_sign_off": (NOT_ALLOWED, MANAGER, NONE),
    "activities:duty_roster": (BOOKS_READ, MANAGER, NONE),
    "activities:duty_month": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:leave_list": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:leave_create": (MANAGER, MANAGER, NONE),
    "activities:leave_detail": (BOOKS_READ, BOOKS_READ, _k(pk="leave")),
    "activities:leave_decide": (NOT_ALLOWED, BOOKS_APPROVE, _k(pk="leave")),
    "activities:leave_back": (NOT_ALLOWED, LEAVE_BACK, _k(pk="leave")),
    # the day's checks, damage, violations: the staff read; managers write
    "activities:checks": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:check_tick": (NOT_ALLOWED, MANAGER, _k(pk="check_item")),
    "activities:check_items": (BOOKS_READ, MANAGER, NONE),
    "activities:check_item_edit": (NOT_ALLOWED, MANAGER, _k(pk="check_item")),
    "activities:damage_list": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:damage_create": (MANAGER, MANAGER, NONE),
    "activities:violation_list": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:violation_create": (MANAGER, MANAGER, NONE),
    # Activity plans and records: managers plan and record, approvers decide, the staff
    # read; members see only the calendar (docs/activities.md, Plans and records).
    "activities:plan_list": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:plan_create": (MANAGER, MANAGER, NONE),
    "activities:plan_detail": (BOOKS_READ, BOOKS_READ, _k(pk="activity_plan")),
    "activities:version_new": (MANAGER, MANAGER, _k(pk="activity_plan")),
    "activities:version_edit": (MANAGER, MANAGER, _k(pk="draft_version")),
    "activities:version_submit": (NOT_ALLOWED, MANAGER, _k(pk="draft_version")),
    "activities:version_decide": (NOT_ALLOWED, BOOKS_APPROVE, _k(pk="submitted_version")),
    "activities:record_list": (BOOKS_READ, BOOKS_READ, NONE),
    "activities:record_create": (MANAGER, MANAGER, NONE),
    "activities:record_detail": (BOOKS_READ, BOOKS_READ, _k(pk="activity_record")),
    "activities:record_correct": (MANAGER, MANAGER, _k(pk="activity_record")),
    "activities:record_photo": (BOOKS_READ, BOOKS_READ, _k(pk="record_photo")),
    "books:income_list": (BOOKS_READ, BOOKS_READ, NONE),
    "books:income_create": (MANAGER, MANAGER, NONE),
    "books:income_detail": (BOOKS_READ, BOOKS_READ, _k(pk="income")),
    "books:income_reverse": (NOT_ALLOWED, BOOKS_CHECK, _k(pk="income")),
    "books:slip_list": (BOOKS_READ, BOOKS_READ, NONE),
    "books:slip_create": (MANAGER, MANAGER, NONE),
    "books:slip_detail": (BOOKS_READ, BOOKS_READ, _k(pk="slip")),
    "books:slip_confirm": (NOT_ALLOWED, BOOKS_CHECK, _k(pk="slip")),
    "books:slip_return": (NOT_ALLOWED, BOOKS_CHECK, _k(pk="slip")),
    "books:slip_reverse": (BOOKS_CHECK, BOOKS_CHECK, _k(pk="slip")),  # GET: the confirm page
    "books:plan_list": (BOOKS_READ, BOOKS_READ, NONE),
    "books:plan_create": (MANAGER, MANAGER, NONE),
    "books:plan_detail": (BOOKS_READ, BOOKS_READ, _k(pk="plan")),
    "books:plan_edit": (MANAGER, MANAGER, _k(pk="draft_plan")),
    "books:plan_submit": (NOT_ALLOWED, MANAGER, _k(pk="draft_plan")),
    "books:plan_decide": (NOT_ALLOWED, BOOKS_APPROVE, _k(pk="submitted_plan")),
    "books:plan_copy": (NOT_ALLOWED, MANAGER, _k(pk="rejected_plan")),
    "books:plan_supplement": (NOT_ALLOWED, MANAGER, _k(pk="plan")),
    "books:plan_complete": (NOT_ALLOWED, MANAGER, _k(pk="plan")),
    "books:expense_list": (BOOKS_READ, BOOKS_READ, NONE),
    "books:expense_create": (MANAGER, MANAGER, NONE),
    "books:expense_detail": (BOOKS_READ, BOOKS_READ, _k(pk="expense")),
    "books:expense_confirm": (NOT_ALLOWED, BOOKS_CHECK, _k(pk="expense")),
    "books:expense_reverse": (BOOKS_UNDO, BOOKS_UNDO, _k(pk="expense")),
    "books:day_list": (BOOKS_READ, BOOKS_READ, NONE),
    "books:day_detail": (BOOKS_READ, BOOKS_READ, _k(day="book_day")),
    "books:day_close": (NOT_ALLOWED, BOOKS_CHECK, _k(day="book_day")),
    "books:month_current": (BOOKS_READ, BOOKS_READ, NONE),
    "books:month_detail": (BOOKS_READ, BOOKS_READ, _k(year="book_year", month="book_month")),
}

# Where today's behaviour is wrong: (url name, role) -> the issue that fixes it.
WRONG_TODAY: dict[tuple[str, str], str] = {}


@dataclass
class World:
    users: dict[str, AbstractBaseUser | None]
    person: int
    other_person: int
    card: int
    receipt: str
    visit: int
    table: int
    spare_table: int
    exception: int
    session: int
    hand: int
    settlement: int
    seated_id: int
    ruleset: int
    income: int
    slip: int
    plan: int
    draft_plan: int
    submitted_plan: int
    rejected_plan: int
    expense: int
    leave: int = 0
    check_item: int = 0
    # activity plans and records
    activity_plan: int = 0
    draft_version: int = 0
    submitted_version: int = 0
    activity_record: int = 0
    record_photo: int = 0
    book_day: str = "2026-11-29"
    book_year: int = 2026
    book_month: int = 11
    list_slug: str = "members"
    uidb64: str = "MQ"
    token: str = "abc-0123456789abcdef"
    # tournaments: a Swiss with round 1 paired, a 麻将 one with round 1 seated
    tournament: int = 0
    pairing: int = 0
    mahjong: int = 0
    round_table: int = 0


@pytest.fixture
def world(room, manager, accountant, approver, member, django_user_model, monkeypatch) -> World:
    monkeypatch.setattr("django.utils.timezone.now", lambda: MONDAY_10)
    unseated = UserFactory(username="unseated", roles=[Role.MEMBER])
    superuser = django_user_model.objects.create_superuser("root", password="x")
    photo = SimpleUploadedFile("me.jpg", image_bytes("JPEG"), content_type="image/jpeg")
    person = member_services.member_create(
        room=room,
        name="赵会员",
        phone="13800000001",
        id_number=make_id_number(1),
        photo=photo,
        user=member,
        by=manager,
    )
    other = member_services.member_create(
        room=room, name="钱大伯", phone="13800000002", id_number=make_id_number(2), by=manager
    )
    card = member_services.card_issue(member=person, by=manager)
    tables = [Table.objects.create(room=room, number=n) for n in (1, 2, 3)]
    visit = Visit.objects.create(
        room=room, guest_name="散客", checked_in_at=MONDAY_10, checked_in_by=manager
    )
    exception = member_services.opening_exception_create(
        room=room, date=MONDAY_10.date(), kind=ExceptionKind.CLOSED
    )
    session = TableSessionFactory(
        room=room, table_number=1, started_at=MONDAY_10 - timedelta(hours=1)
    )
    Seat.objects.filter(session=session, wind="E").update(user=member, name="赵会员")
    hand = book(session, discard_win(), by=manager)
    settlement = settlement_make(session=session, by=manager)
    # The cash book: the card's fee handed over, a donation at the desk, a plan in each
    # state, an expense not yet confirmed; no day closed.
    fee = IncomeEntry.objects.get(reference=card.receipts.get().number)
    slip = book_services.slip_create(room=room, incomes=[fee], amount=fee.amount, by=manager)
    donation = book_services.income_other_record(
        room=room,
        category=IncomeCategory.DONATION,
        amount=Decimal("500.00"),
        payer="象棋协会",
        description="捐赠",
        received_at=MONDAY_10,
        by=manager,
    )
    plan = approved(room, manager, approver)
    rejected = submitted(room, manager)
    book_services.plan_decide(
        plan=rejected, outcome=PlanOutcome.REJECTED, comment="先询价", by=approver
    )
    spent = expense(first_line(plan), manager, "100.00")
    swiss = tournament_make(room, manager)
    players = [card_member(room, manager, n) for n in range(4)]
    for player in players[:2]:
        tournament_services.entrant_add(tournament=swiss, member=player, by=manager)
    pairing = tournament_services.round_pair(tournament=swiss, by=manager).pairings.get()
    mahjong = tournament_make(room, manager, game="mahjong", name="麻将赛")
    seated = [
        tournament_services.entrant_add(tournament=mahjong, member=p, by=manager) for p in players
    ]
    round_table = tournament_services.round_set(
        tournament=mahjong, tables=[seated], by=manager
    ).tables.get()
    # duty and the day's checks: a manager's leave waiting for a decision, the first items
    leave = leave_request(
        room=room, starts=MONDAY_10.date(), ends=MONDAY_10.date(), reason="事假", cover=None,
        by=manager,
    )  # fmt: skip
    check_item = check_items_ensure(room=room)[0]
    # Activities: a plan with its draft, another waiting for approval, a record with a photo.
    activity_plan = draft_plan(room, manager)
    waiting_plan = submitted_plan(
        room, manager, activity_in(5, month=1, year=2027), starts=dt.date(2027, 1, 1)
    )
    activity_record = record_services.record_create(
        room=room,
        data=what_happened(day=30, month=11),
        photos=[SimpleUploadedFile("a.jpg", image_bytes("JPEG", (60, 40)))],
        by=manager,
    )
    return World(
        users={
            "anonymous": None,
            "seated": member,
            "unseated": unseated,
            "accountant": accountant,
            "approver": approver,
            "manager": manager,
            "superuser": superuser,
        },
        person=person.pk,
        other_person=other.pk,
        card=card.pk,
        receipt=card.receipts.get().number,
        visit=visit.pk,
        table=tables[0].pk,
        spare_table=tables[2].pk,
        exception=exception.pk,
        session=session.pk,
        hand=hand.number,
        settlement=settlement.number,
        seated_id=member.pk,
        ruleset=RulesetVersion.objects.order_by("pk").first().pk,
        income=donation.pk,
        slip=slip.pk,
        plan=plan.pk,
        draft_plan=draft(room, manager).pk,
        submitted_plan=submitted(room, manager).pk,
        rejected_plan=rejected.pk,
        expense=spent.pk,
        tournament=swiss.pk,
        pairing=pairing.pk,
        mahjong=mahjong.pk,
        round_table=round_table.pk,
        leave=leave.pk,
        check_item=check_item.pk,
        activity_plan=activity_plan.pk,
        draft_version=activity_plan.versions.get().pk,
        submitted_version=waiting_plan.versions.get().pk,
        activity_record=activity_record.pk,
        record_photo=RecordPhoto.objects.get(version__record=activity_record).pk,
    )


def _outcome(response) -> str:
    status = response.status_code
    if status in (301, 302) and response.url.split("?")[0] == reverse("login"):
        return "L"
    if status < 400:
        return "ok"
    return str(status)


def _url_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue
                inner = pattern.namespace or ""
                joined = f"{namespace}:{inner}" if namespace and inner else namespace or inner
                walk(pattern.url_patterns, joined)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver().url_patterns, "")
    return names


def test_every_url_has_an_entry():
    assert sorted(_url_names() - set(EXPECTED)) == []  # add a line to EXPECTED
    assert sorted(set(EXPECTED) - _url_names()) == []  # a line for a URL that is gone


def test_every_entry_names_every_role():
    for name, (get, post, _args) in EXPECTED.items():
        assert len(get.split()) == len(ROLES) == len(post.split()), name


def _cases():
    for name in EXPECTED:
        for index, role in enumerate(ROLES):
            marks = []
            if (name, role) in WRONG_TODAY:
                marks.append(pytest.mark.xfail(strict=True, reason=WRONG_TODAY[(name, role)]))
            yield pytest.param(name, index, role, marks=marks, id=f"{name}-{role}")


@pytest.mark.parametrize(("name", "index", "role"), list(_cases()))
def test_it_lets_each_role_in_or_not(client, world, name, index, role):
    get, post, args = EXPECTED[name]
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    url = reverse(name, kwargs=args(world))
    seen = (_outcome(client.get(url)), _outcome(client.post(url, {"request_key": uuid.uuid4()})))
    assert seen == (get.split()[index], post.split()[index])
