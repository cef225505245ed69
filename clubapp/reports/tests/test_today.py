"""Today's page: the home page of the manager and the accountant."""

from __future__ import annotations

from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubapp.books.selectors import desk_cash
from clubapp.members import services as members
from clubapp.members.models import Card
from clubapp.members.tests.factories import at
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win
from clubapp.reports.selectors import today_desk


def test_it_is_the_managers_home_page(client, manager, november, clock):
    clock.set(at(2, 15, 0))
    members.visit_check_in(
        room=november.room,
        card=Card.objects.get(member=november.wang),
        by=manager,
        now=at(2, 14, 0),
    )
    client.force_login(manager)
    body = client.get("/").content.decode()
    assert "今天" in body
    assert "王堃" in body and "1 小时" in body  # inside for an hour
    assert "1 号桌" in body and "东 陈喆" in body  # the table still in play, its players
    assert "54.00" in body  # the takings of 2 November: a card 50.00, a guest 4.00


def test_it_shows_cash_on_hand_and_the_oldest_receipt(client, accountant, november, clock):
    clock.set(at(8, 10, month=12))  # after December's fee of the 7th
    client.force_login(accountant)
    body = client.get("/reports/today/").content.decode()
    # nothing handed over: October's card 50.00, November's 166.00, December's 2.00
    assert desk_cash(room=november.room).cash_on_hand == Decimal("218.00")
    assert "218.00" in body
    assert "R2026-00001" in body  # October's card fee, the oldest receipt


def test_it_takes_off_what_was_handed_over(client, manager, november, november_books, clock):
    clock.set(at(8, 10, month=12))
    client.force_login(manager)
    body = client.get("/").content.decode()
    # the three card fees (150.00) handed over and confirmed, the donation's slip sent
    # back (its 500.00 is at the desk again), a 2.00 fee reversed
    cash = desk_cash(room=november.room)
    assert cash.cash_on_hand == Decimal("218.00") - 150 - 2 + 500 == Decimal("566.00")
    assert "566.00" in body
    assert cash.oldest.reference == "R2026-00001" and cash.late
    assert "R2026-00001" in body and "逾期" in body  # older than the 7-day hand-over limit


def test_it_books_todays_takings_net_of_reversals(client, accountant, november_books, clock):
    clock.set(at(4, 22))
    client.force_login(accountant)
    today = client.get("/reports/today/").context["today"]
    takings = {label: (n, amount) for label, n, amount in today.takings}
    assert takings["捐赠"] == (1, Decimal("500.00"))
    assert takings["非会员器材损耗费"] == (0, Decimal("-2.00"))  # the 3rd's fee reversed today
    assert today.takings_total == Decimal("498.00")


def _reminders(client, user):
    client.force_login(user)
    body = client.get("/reports/today/").content.decode()
    return body.split("待年审的会员证")[-1]


def test_it_lists_cards_ending_within_30_days_and_expired_ones(client, manager, november, clock):
    clock.set(at(20, 10, month=10).replace(year=2027))  # 2027-10-20
    soon = _reminders(client, manager)
    assert "陈喆" in soon and "还有 12 天" in soon  # valid until 2027-11-01
    assert "王堃" not in soon  # renewed to 2028-11-02
    assert "李昇" not in soon  # suspended: not the desk's reminder
    clock.set(at(10, 10, month=11).replace(year=2027))  # 2027-11-10
    later = _reminders(client, manager)
    assert "已过期 9 天" in later


def test_it_refuses_a_member(client, member, november):
    client.force_login(member)
    assert client.get("/reports/today/").status_code == 403
    assert "今天" not in client.get("/").content.decode()


def test_it_reads_the_desk_in_the_same_queries_however_many_tables(november, clock):
    def queries() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            desk = today_desk(room=november.room)
        return len(captured), len(desk.tables)

    count, tables = queries()
    for number in (3, 4):
        session = TableSessionFactory(room=november.room, table_number=number)
        book(session, discard_win("S", "E"))
    assert queries() == (count, tables + 2)
