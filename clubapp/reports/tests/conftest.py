"""Fixtures of the reports tests: November 2026 of a small room, booked through the
other apps' services (cards, 年审, visits and their fees, a table session with hands),
with a little of October and December around it."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.core.cache import cache

from clubapp.books import services as books
from clubapp.books.models import Expense, ExpenseCategory, IncomeCategory, IncomeEntry, PlanLine
from clubapp.books.tests.factories import approved, expense, line, other_income
from clubapp.core.tests.factories import UserFactory
from clubapp.members import services as members
from clubapp.members.models import Card, Member, Table, Visit
from clubapp.members.tests.factories import TableFactory, at, make_id_number
from clubapp.play import selectors as play_selectors
from clubapp.play import services as play
from clubapp.play.models import Hand, TableSession
from clubapp.play.tests.factories import discard_win, drawn_hand, self_drawn, shipped
from clubapp.reports.selectors import Month


@pytest.fixture(autouse=True)
def _fresh_play_state():
    """The play app keeps table states in the cache (and, until it no longer does,
    in its process): start every test without them."""
    forget = getattr(play_selectors, "table_states_forget", None)
    cache.clear()
    if forget is not None:
        forget()
    yield
    cache.clear()
    if forget is not None:
        forget()


@dataclass
class November:
    room: object
    desk: object
    chen: Member
    wang: Member
    li: Member
    tricky: Member
    session: TableSession
    hands: list[Hand]
    guest_visits: list[Visit]


def _book(session, record, user):
    import uuid

    return play.hand_record(session=session, record=record, idempotency_key=uuid.uuid4(), by=user)


@pytest.fixture
def november(room, manager, clock):
    """The room's November 2026 (a Monday is the 2nd, the 30th; Wednesdays are closed)."""
    room.renewal_fee = Decimal("10.00")
    room.save()
    TableFactory(room=room, number=1)
    TableFactory(room=room, number=2)

    def member(name: str, n: int, user: bool = False) -> Member:
        account = UserFactory(username=f"m{n}", first_name=name) if user else None
        return members.member_create(
            room=room,
            name=name,
            phone=f"1380000{n:04d}",
            id_number=make_id_number(n),
            by=manager,
            user=account,
        )

    # October: 李昇 gets a card (a fee outside November)
    clock.set(at(5, 10, month=10))
    li = member("李昇", 3, user=True)
    members.card_issue(member=li, by=manager, now=at(5, 10, month=10))

    clock.set(at(2, 9, 30))
    chen = member("陈喆", 1, user=True)
    members.card_issue(member=chen, by=manager, now=at(2, 9, 35))
    wang = member("王堃", 2, user=True)
    members.card_issue(member=wang, by=manager, now=at(3, 10, 0))
    tricky = member('=HYPERLINK("http://x")', 4)
    members.card_issue(member=tricky, by=manager, now=at(3, 10, 5))
    # 年审 of 王堃's card: 10.00 元 (a receipt, an income entry)
    card = Card.objects.get(member=wang)
    members.card_renew(card=card, by=manager, now=at(20, 10, 0), early=True)
    # 李昇's card is suspended on the 23rd
    members.card_suspend(
        card=Card.objects.get(member=li), reason="暂停", by=manager, now=at(23, 10)
    )

    # visits of 2 November: 陈喆 09:40–11:45, two non-members
    clock.set(at(2, 9, 40))
    chen_card = Card.objects.get(member=chen)
    visit = members.visit_check_in(room=room, card=chen_card, by=manager, now=at(2, 9, 40))
    members.visit_check_out(visit=visit, by=manager, now=at(2, 11, 45))
    g1 = members.visit_check_in(room=room, guest_name="过路客", by=manager, now=at(2, 10, 0))
    g1 = members.visit_check_out(visit=g1, by=manager, now=at(2, 11, 30))  # 2 h: 4.00
    g2 = members.visit_check_in(room=room, guest_name="-1+1", by=manager, now=at(3, 14, 0))
    g2 = members.visit_check_out(visit=g2, by=manager, now=at(3, 14, 20))  # 1 h: 2.00
    # December: a non-member's fee outside November
    g3 = members.visit_check_in(
        room=room, guest_name="十二月客", by=manager, now=at(7, 10, 0, month=12)
    )
    members.visit_check_out(visit=g3, by=manager, now=at(7, 10, 30, month=12))

    # a table on 2 November: 陈喆 (E), 王堃 (S), 李昇 (W) by their accounts, a guest (N)
    clock.set(at(2, 14, 0))
    # seated by their accounts without visits: the room's own code (by=None), not a desk
    session = play.session_create(
        room=room,
        table=Table.objects.get_or_create(room=room, number=1)[0],
        ruleset=shipped("nanjing"),
        seats=[
            play.SeatIn(wind="E", user=chen.user),
            play.SeatIn(wind="S", user=wang.user),
            play.SeatIn(wind="W", user=li.user),
            play.SeatIn(wind="N", name="散客老周"),
        ],
        by=None,
        started_at=at(2, 14, 0),
    )
    hands = [
        _book(session, discard_win("S", "E", hard=4), manager),
        _book(session, discard_win("W", "N", hard=4, features=["qingyise"]), manager),
        _book(session, self_drawn("E", hard=4), manager),
        _book(session, drawn_hand(), manager),
    ]
    play.hand_void(hand=hands[0], reason="记错了", by=manager)
    play.hand_signoff(hand=hands[1], by=chen.user)
    play.settlement_make(session=session, by=manager)
    clock.set(at(30, 10, 0))
    return November(
        room=room,
        desk=manager,
        chen=chen,
        wang=wang,
        li=li,
        tricky=tricky,
        session=session,
        hands=hands,
        guest_visits=[g1, g2],
    )


@pytest.fixture
def clock(monkeypatch):
    """Freeze django.utils.timezone.now; ``clock.set(moment)`` moves it."""

    class Clock:
        now = at(30, 10)

        def set(self, moment) -> None:
            self.now = moment

    c = Clock()
    monkeypatch.setattr("django.utils.timezone.now", lambda: c.now)
    return c


@dataclass
class Books:
    donation: IncomeEntry
    mahjong: Expense
    water: Expense


@pytest.fixture
def november_books(november, manager, accountant, approver, clock):
    """November's fees (166.00) and, on the 4th in the cash book: a donation of
    500.00; a 2.00 guest fee reversed; a slip of the three card fees confirmed, one
    of the donation sent back; an approved plan with a 麻将 expense (paid from the
    equipment fund) and a 纯净水 expense, both confirmed."""
    room = november.room
    clock.set(at(4, 9))
    donation = other_income(
        room, manager, "500.00", category=IncomeCategory.DONATION, received_at=at(4, 9)
    )
    cards = list(
        IncomeEntry.objects.filter(
            room=room, category=IncomeCategory.CARD_FEE, received_at__gte=Month(2026, 11).start
        )
    )
    assert len(cards) == 3
    clock.set(at(4, 17))
    slip = books.slip_create(
        room=room, incomes=cards, amount=Decimal("150.00"), by=manager, now=at(4, 17)
    )
    books.slip_confirm(slip=slip, by=accountant, now=at(4, 18))
    back = books.slip_create(
        room=room, incomes=[donation], amount=Decimal("500.00"), by=manager, now=at(4, 17, 30)
    )
    books.slip_return(slip=back, reason="缺少捐赠协议", by=accountant, now=at(4, 18, 30))
    guest = IncomeEntry.objects.get(
        room=room, category=IncomeCategory.GUEST_FEE, amount=2, received_at__lt=Month(2026, 11).end
    )
    books.income_reverse(entry=guest, reason="收错了", by=accountant, now=at(4, 19))
    plan = approved(
        room,
        manager,
        approver,
        line(),
        line(ExpenseCategory.CONSUMABLES, "纯净水", "10", "桶", "18.00", "饮水"),
    )
    lines = list(PlanLine.objects.filter(submission__plan=plan).order_by("position"))
    mahjong = expense(lines[0], manager, "280.00", now=at(4, 20))
    water = expense(lines[1], manager, "175.50", now=at(4, 20, 30), supplier="+纯净水站")
    books.expense_confirm(expense=mahjong, by=accountant, now=at(4, 21))
    books.expense_confirm(expense=water, by=accountant, now=at(4, 21))
    clock.set(at(30, 10))
    return Books(donation=donation, mahjong=mahjong, water=water)
