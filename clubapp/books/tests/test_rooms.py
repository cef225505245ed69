"""The books of two rooms in one deployment (docs/rooms.md): room "main" (the cast of
``clubapp/conftest.py`` and its ``books``) and room "east" with its own manager,
accountant and approver and a book in every state. Main's people see main's rows only;
east's ids answer 404, as missing ones; a form naming an east row is refused; the
database refuses a row pointing across rooms; each room counts its own numbers; on
PostgreSQL a raw query without a filter sees one room only."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from clubapp.books import selectors, services
from clubapp.books.models import (
    Expense,
    HandOverSlip,
    IncomeCategory,
    IncomeEntry,
    PlanDraftLine,
    PlanLine,
    PlanOutcome,
    PurchasePlan,
    Reversal,
)
from clubapp.books.tests.factories import (
    approved,
    at,
    day,
    draft,
    expense,
    fee,
    first_line,
    line,
    other_income,
    submitted,
)
from clubapp.core import roomguards
from clubapp.core.dbroles import app_role_grants
from clubapp.core.roles import Role
from clubapp.core.rooms import scope
from clubapp.core.tests.factories import RoomFactory, UserFactory

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row-level security is PostgreSQL's"
)

#: what east's rows say, so that a page of main that shows one is caught
EAST = "东区"


def book_models() -> list[type[models.Model]]:
    return [m for m in apps.get_app_config("books").get_models() if roomguards.room_keyed(m)]


def _counts() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for m in book_models()}


@pytest.fixture
def east(db):
    return RoomFactory(slug="east", name="朝阳活动室")


def east_people(east):
    def one(username, name, role):
        return UserFactory(username=username, first_name=name, roles=[role], room=east)

    return {
        "manager": one("east-manager", f"{EAST}经理", Role.MANAGER),
        "accountant": one("east-accountant", f"{EAST}会计", Role.ACCOUNTANT),
        "approver": one("east-approver", f"{EAST}负责人", Role.APPROVER),
    }


def east_book(east):
    """East's book in every state: receipts at the desk, on a slip, handed over and
    reversed; a confirmed and a reversed slip; plans drafted, approved, rejected,
    copied, supplemented and done; expenses confirmed and reversed."""
    people = east_people(east)
    m, a, p = people["manager"], people["accountant"], people["approver"]
    card = fee(east, m, "77.00", when=at(2, 10))
    donation = other_income(
        east,
        m,
        "777.00",
        category=IncomeCategory.DONATION,
        received_at=at(3),
        payer=f"{EAST}捐款人",
        description=f"{EAST}的捐款",
    )
    mistake = other_income(
        east, m, "7.00", received_at=at(3, 11), payer=f"{EAST}棋协", description=f"{EAST}记错"
    )
    at_desk = other_income(
        east, m, "70.00", received_at=at(3, 12), payer=f"{EAST}棋协", description=f"{EAST}报名"
    )
    slip = services.slip_create(
        room=east, incomes=[card], amount=Decimal("77.00"), by=m, now=at(3, 17)
    )
    services.slip_confirm(slip=slip, by=a, now=at(3, 18))
    wrong = services.slip_create(
        room=east, incomes=[donation], amount=Decimal("777.00"), by=m, now=at(3, 17, 30)
    )
    services.slip_confirm(slip=wrong, by=a, now=at(3, 18, 10))
    services.slip_reverse(slip=wrong, reason=f"{EAST}误确认", by=a, now=at(3, 18, 20))
    services.income_reverse(entry=mistake, reason=f"{EAST}记错了", by=a, now=at(3, 19))
    plan = approved(east, m, p, line(item=f"{EAST}象棋"), title=f"{EAST}器材")
    spent = expense(first_line(plan), m, "100.00", supplier=f"{EAST}文体商店", now=at(4, 9))
    services.expense_confirm(expense=spent, by=a, now=at(4, 10))
    undone = expense(first_line(plan), m, "10.00", supplier=f"{EAST}文体商店", now=at(4, 11))
    services.expense_reverse(expense=undone, reason=f"{EAST}买错", by=a, now=at(4, 12))
    supplement = services.plan_supplement(plan=plan, by=m, now=at(4, 13))
    services.plan_complete(plan=plan, by=m, now=at(4, 14))
    rejected = submitted(east, m, line(item=f"{EAST}扑克"), title=f"{EAST}扑克")
    services.plan_decide(
        plan=rejected, outcome=PlanOutcome.REJECTED, comment="先询价", by=p, now=at(4, 15)
    )
    copy = services.plan_copy(plan=rejected, by=m, now=at(4, 16))
    return {
        "card": card,
        "donation": donation,
        "at_desk": at_desk,
        "slip": slip,
        "wrong": wrong,
        "plan": plan,
        "expense": spent,
        "undone": undone,
        "supplement": supplement,
        "rejected": rejected,
        "copy": copy,
        "draft": draft(east, m, line(item=f"{EAST}草稿"), title=f"{EAST}草稿"),
        "line": first_line(plan),
        **people,
    }


@pytest.fixture
def east_books(east):
    return east_book(east)


@pytest.fixture
def chief(room):
    """Main's manager, accountant and approver in one: every page of the books opens."""
    return UserFactory(
        username="chief",
        first_name="总管",
        roles=[Role.MANAGER, Role.ACCOUNTANT, Role.APPROVER],
        room=room,
    )


LISTS = [
    ("books:income_list", IncomeEntry),
    ("books:slip_list", HandOverSlip),
    ("books:plan_list", PurchasePlan),
    ("books:expense_list", Expense),
]
PAGES = [
    reverse("books:home"),
    reverse("books:day_list"),
    reverse("books:month_detail", args=[2026, 11]),
    *(reverse("books:day_detail", args=[day(n).isoformat()]) for n in (1, 2, 3, 4)),
]


def test_every_list_of_main_shows_only_mains_rows(client, books, east_books, chief, room):
    client.force_login(chief)
    for name, model in LISTS:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        shown = {row.record.pk for row in response.context["table"].paginated_rows}
        assert shown == set(model.objects.filter(room=room).values_list("pk", flat=True)), name
        assert EAST not in response.content.decode(), name  # nor east's people to filter by


def test_every_page_of_main_is_the_same_with_easts_books_beside_it(client, books, chief):
    client.force_login(chief)
    keys = ("summary", "rows", "days", "desk", "today", "fund", "income", "slips", "expenses")

    def figures():
        found = {}
        for path in PAGES:
            context = client.get(path).context
            found[path] = {k: _plain(context[k]) for k in keys if k in context}
        return found

    before = figures()
    east_book(RoomFactory(slug="east", name="朝阳活动室"))
    assert figures() == before
    for path in PAGES:
        assert EAST not in client.get(path).content.decode(), path


def _plain(value):
    """A page's figures comparable across two requests (querysets as their rows)."""
    if isinstance(value, models.QuerySet):
        return [(row.pk, getattr(row, "state", None)) for row in value]
    return value


#: every URL of the books that names a row, with east's row it is tried with
BY_ID = [
    ("books:income_detail", "donation"),
    ("books:income_reverse", "at_desk"),
    ("books:slip_detail", "slip"),
    ("books:slip_confirm", "slip"),
    ("books:slip_return", "slip"),
    ("books:slip_reverse", "slip"),
    ("books:plan_detail", "plan"),
    ("books:plan_edit", "draft"),
    ("books:plan_submit", "draft"),
    ("books:plan_decide", "copy"),
    ("books:plan_copy", "rejected"),
    ("books:plan_supplement", "plan"),
    ("books:plan_complete", "plan"),
    ("books:expense_detail", "expense"),
    ("books:expense_confirm", "undone"),
    ("books:expense_reverse", "expense"),
]


def test_every_url_with_an_east_id_answers_404_and_changes_nothing(client, east_books, chief):
    client.force_login(chief)
    before = _counts()
    for name, key in BY_ID:
        url = reverse(name, args=[east_books[key].pk])
        missing = client.get(reverse(name, args=[999999])).status_code
        assert client.get(url).status_code == missing, name  # 404, or 405 for a POST's URL
        post = {"reason": "试试", "confirm": "yes", "outcome": "approved", "comment": "好"}
        assert client.post(url, post).status_code == 404, name
    assert _counts() == before


def test_a_missing_id_answers_the_same_404(client, chief):
    client.force_login(chief)
    for name, _key in BY_ID:
        assert client.post(reverse(name, args=[999999])).status_code == 404, name


def test_the_expense_form_refuses_a_line_of_east(client, books, east_books, chief):
    client.force_login(chief)
    before = _counts()
    response = client.post(
        reverse("books:expense_create"),
        {
            "line": east_books["line"].pk,
            "amount": "5.00",
            "supplier": "商店",
            "invoice_number": "No.9",
            "purchased_on": "2026-11-04",
            "paid_by": "finance",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["line"] == [_("Choose the line of an approved plan.")]
    assert _counts() == before


def test_the_slip_form_refuses_a_receipt_of_east(client, books, east_books, chief):
    client.force_login(chief)
    before = _counts()
    response = client.post(
        reverse("books:slip_create"),
        {"receipts": [east_books["at_desk"].pk], "amount": "70.00"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["receipts"] == [
        _("A receipt chosen is no longer at the desk.")
    ]
    assert _counts() == before


def test_the_services_refuse_easts_rows_in_main(books, east_books, room, manager):
    with pytest.raises(ValidationError) as refused:
        services.slip_create(
            room=room, incomes=[east_books["at_desk"]], amount=Decimal("70.00"), by=manager
        )
    assert refused.value.messages == [_("A receipt is not in this room's books.")]
    with pytest.raises(ValidationError) as refused:
        expense(east_books["line"], manager, "5.00", room=room)
    assert refused.value.messages == [_("Choose the line of an approved plan.")]
    with pytest.raises(ValidationError) as refused:
        services.plan_create(room=room, title="抄", by=manager, copied_from=east_books["rejected"])
    assert refused.value.messages == [_("That plan is not in this room's books.")]
    assert not Expense.objects.filter(room=room, amount=Decimal("5.00")).exists()


def _references() -> list[tuple[type[models.Model], models.ForeignKey]]:
    return [
        (model, field)
        for model in book_models()
        for field in model._meta.fields
        if isinstance(field, models.ForeignKey)
        and field.name != "room"
        and roomguards.room_keyed(field.related_model)
    ]


def _mains(model, room):
    """A row of main for a reference to point at (a plan still drafted, so that no
    other guard of a submitted plan answers first)."""
    rows = model.objects.filter(room=room)
    if model is PurchasePlan:
        rows = rows.filter(submission__isnull=True)
    return rows.order_by("pk").first()


def test_the_database_refuses_every_reference_across_rooms(books, east_books, room, east):
    refs = _references()
    assert len(refs) == 15  # every reference of the books is tried
    for model, field in refs:
        template = model.objects.filter(room=east, **{f"{field.name}__isnull": False}).first()
        assert template is not None, (model, field.name)
        target = _mains(field.related_model, room)
        row = model.objects.get(pk=template.pk)
        row.pk = None
        setattr(row, field.attname, target.pk)
        with pytest.raises(IntegrityError, match="another room"), transaction.atomic():
            model.objects.bulk_create([row])


def test_a_draft_line_never_moves_to_another_rooms_plan(books, east_books, room):
    drafted = PlanDraftLine.objects.get(plan=east_books["draft"])
    with pytest.raises(IntegrityError, match="another room"), transaction.atomic():
        PlanDraftLine.objects.filter(pk=drafted.pk).update(plan=books["draft"])


def test_a_plan_never_moves_to_another_room(books, east):
    with pytest.raises(IntegrityError), transaction.atomic():
        PurchasePlan.objects.filter(pk=books["draft"].pk).update(room=east)


def test_each_room_counts_its_own_numbers(books, east_books, room, east, accountant):
    services.income_reverse(entry=books["donation"], reason="记错", by=accountant, now=at(4))
    for r in (room, east):
        assert HandOverSlip.objects.filter(room=r, number="JK2026-0001").exists()
        assert PurchasePlan.objects.filter(room=r, number="JH2026-0001").exists()
        assert Expense.objects.filter(room=r, number="ZC2026-0001").exists()
        assert Reversal.objects.filter(room=r, number="CZ2026-0001").exists()
        assert IncomeEntry.objects.filter(room=r, reference="R2026-00001").exists()


def test_a_number_is_never_twice_in_one_room(books, room):
    copy = IncomeEntry.objects.get(pk=books["donation"].pk)
    copy.pk, copy.request_key = None, None
    with pytest.raises(IntegrityError), transaction.atomic():
        IncomeEntry.objects.bulk_create([copy])


def test_the_filters_offer_main_people_only(client, books, east_books, chief, manager):
    client.force_login(chief)
    choices = dict(
        client.get(reverse("books:income_list"))
        .context["filter"]
        .form.fields["recorded_by"]
        .choices
    )
    assert manager.pk in choices and east_books["manager"].pk not in choices


def test_the_selectors_read_one_room(books, east_books, room, east):
    assert set(selectors.plan_lines(room=room)) == set(PlanLine.objects.filter(room=room))
    assert east_books["line"] not in selectors.lines_open_for_expenses(room=room)
    assert {e.room_id for e in selectors.receipts_to_hand_over(room=east)} == {east.pk}
    assert selectors.day_summary(room=room, day=day(3)) != selectors.day_summary(
        room=east, day=day(3)
    )


def test_the_admin_lists_the_rooms_rows_only(client, books, east_books, room):
    boss = UserFactory(username="boss", is_superuser=True, is_staff=True, room=room)
    client.force_login(boss)
    response = client.get(reverse("admin:books_incomeentry_changelist"))
    assert response.status_code == 200
    assert {e.pk for e in response.context["cl"].result_list} == set(
        IncomeEntry.objects.filter(room=room).values_list("pk", flat=True)
    )
    url = reverse("admin:books_incomeentry_change", args=[east_books["donation"].pk])
    assert client.get(url).status_code in (302, 404)  # not found in main


@on_postgresql
def test_a_raw_query_without_a_filter_sees_only_its_rooms_books(books, east_books, room, east):
    tables = [m._meta.db_table for m in book_models()]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
        cursor.execute("CREATE ROLE club_rls_probe NOLOGIN")  # rolled back with the test
        for statement in app_role_grants(role="club_rls_probe", owner=owner):
            cursor.execute(statement)
        cursor.execute("SET LOCAL ROLE club_rls_probe")
        for r in (room, east):
            with scope(r):
                for table in tables:
                    cursor.execute(f'SELECT DISTINCT room_id FROM "{table}"')
                    assert {rid for (rid,) in cursor.fetchall()} <= {r.pk}, table
                cursor.execute('SELECT count(*) FROM "books_planline"')
                assert cursor.fetchone()[0] > 0
        cursor.execute("RESET ROLE")
