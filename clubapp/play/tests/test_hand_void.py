"""Voiding: a reversing entry with a reason; the table's state is recomputed."""

from __future__ import annotations

import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.urls import reverse

from clubapp.play import services
from clubapp.play.models import Hand
from clubapp.play.tests.factories import (
    TableSessionFactory,
    book,
    discard_win,
    self_drawn,
    state_of,
)

pytestmark = pytest.mark.django_db


def test_it_writes_a_reversing_entry_with_negated_lines(manager):
    session = TableSessionFactory()
    hand = book(session, self_drawn("E"))
    entry = services.hand_void(hand=hand, reason="错记了自摸", by=manager)
    assert entry.number == 2 and entry.voids == hand and entry.void_reason == "错记了自摸"
    assert entry.recorded_by == manager
    assert sorted(entry.lines.values_list("seat", "points")) == [
        ("E", -50),
        ("E", -50),
        ("E", -50),
        ("N", 50),
        ("S", 50),
        ("W", 50),
    ]
    assert entry.lines.aggregate(t=Sum("points"))["t"] == 0
    assert state_of(session).balances == {"E": 0, "S": 0, "W": 0, "N": 0}
    # the hand itself is untouched
    assert Hand.objects.get(pk=hand.pk).lines.count() == 6


def test_voiding_the_last_hand_gives_back_the_state_before_it():
    session = TableSessionFactory()
    book(session, discard_win("S", "E"))  # the deal passes to S
    wrong = book(session, self_drawn("S"))  # dealer S wins: stays, 比下胡
    state = state_of(session)
    assert (state.dealer, state.doubled) == ("S", True)
    services.hand_void(hand=wrong, reason="不是自摸", by=None)
    state = state_of(session)
    assert (state.dealer, state.doubled) == ("S", False)
    assert state.balances == {"E": -28, "S": 28, "W": 0, "N": 0}
    nxt = book(session, discard_win("W", "S"))
    assert nxt.number == 4 and nxt.record["dealer"] == "S" and nxt.record["doubled"] is False


def test_voiding_recomputes_the_garden_balances():
    session = TableSessionFactory(mode="garden", garden_size=100)
    book(session, discard_win("S", "E"))
    wrong = book(session, discard_win("W", "S"))
    services.hand_void(hand=wrong, reason="记错人", by=None)
    assert state_of(session).garden_left == {"E": 72, "S": 128, "W": 100, "N": 100}


def test_voiding_a_hand_that_closed_a_garden_reopens_it():
    session = TableSessionFactory(mode="garden", garden_size=30)
    closing = book(session, self_drawn("E"))
    assert state_of(session).garden == 2
    services.hand_void(hand=closing, reason="错了", by=None)
    state = state_of(session)
    assert state.garden == 1
    assert state.garden_left == {"E": 30, "S": 30, "W": 30, "N": 30}


def test_voiding_an_earlier_garden_hand_that_a_later_one_paid_from_is_refused():
    """E's win put 150 in E's 园子 and E paid 120 of it in the next hand: without the
    win E would be 20 below zero, so the void is refused until the later hand is voided
    first; nothing is written, and the table goes on."""
    session = TableSessionFactory(mode="garden", garden_size=100)
    win = book(session, self_drawn("E"))
    later = book(session, discard_win("S", "E", hard=20))
    before = state_of(session)
    with pytest.raises(ValidationError) as err:
        services.hand_void(hand=win, reason="错了", by=None)
    assert err.value.code == "garden_below_zero"
    assert "先作废之后的各把" in err.value.messages[0] and "第 2 把" in err.value.messages[0]
    assert Hand.objects.filter(session=session).count() == 2 and state_of(session) == before
    nxt = book(session, discard_win("W", "N"))  # the table is still usable
    assert nxt.number == 3
    services.hand_void(hand=nxt, reason="x", by=None)
    services.hand_void(hand=later, reason="x", by=None)
    services.hand_void(hand=win, reason="x", by=None)
    assert state_of(session).garden_left == dict.fromkeys("ESWN", 100)


def test_a_hand_is_voided_once_and_a_reversal_never():
    session = TableSessionFactory()
    hand = book(session, discard_win())
    entry = services.hand_void(hand=hand, reason="x", by=None)
    with pytest.raises(ValidationError):
        services.hand_void(hand=hand, reason="again", by=None)
    with pytest.raises(ValidationError):
        services.hand_void(hand=entry, reason="undo", by=None)


def test_a_void_needs_a_reason():
    hand = book(TableSessionFactory(), discard_win())
    with pytest.raises(ValidationError):
        services.hand_void(hand=hand, reason="  ", by=None)


def test_the_same_key_voids_once():
    hand = book(TableSessionFactory(), discard_win())
    key = uuid.uuid4()
    one = services.hand_void(hand=hand, reason="x", by=None, idempotency_key=key)
    with pytest.raises(services.AlreadyVoidedError) as again:
        services.hand_void(hand=hand, reason="x", by=None, idempotency_key=key)
    assert again.value.reversal.pk == one.pk
    assert Hand.objects.filter(voids=hand).count() == 1


def test_voiding_a_middle_hand_keeps_counting_the_deal():
    session = TableSessionFactory()
    first = book(session, discard_win("S", "E"))  # E deals, passes to S
    book(session, discard_win("W", "N"))  # S deals, passes to W
    services.hand_void(hand=first, reason="错", by=None)
    state = state_of(session)
    assert state.dealer == "W"
    assert (state.position.quan, state.position.turn) == (1, 3)


# pages


def test_a_manager_voids_a_hand_from_its_page(client, manager):
    session = TableSessionFactory()
    hand = book(session, discard_win("S", "E"))
    client.force_login(manager)
    url = reverse("play:hand_void", args=[session.pk, hand.number])
    page = client.get(url)
    assert page.status_code == 200
    key = page.context["form"]["key"].value()
    response = client.post(url, {"reason": "记错了", "key": key})
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    again = client.post(url, {"reason": "记错了", "key": key})
    assert again.status_code == 302
    assert Hand.objects.filter(voids=hand).count() == 1
    body = client.get(session.get_absolute_url()).content.decode()
    assert "记错了" in body


def test_the_void_page_says_a_second_void_voided_nothing(client, member):
    session = TableSessionFactory(seated=member)
    hand = book(session, discard_win("S", "E"))
    services.hand_void(hand=hand, reason="x", by=None)
    client.force_login(member)
    url = reverse("play:hand_void", args=[session.pk, hand.number])
    response = client.post(url, {"reason": "y", "key": str(uuid.uuid4())}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "第 1 把已经由 #2 作废，这次没有改动。"
    ]
    assert Hand.objects.filter(voids=hand).count() == 1


def test_accountants_cannot_void(client, accountant):
    session = TableSessionFactory()
    hand = book(session, discard_win())
    client.force_login(accountant)
    url = reverse("play:hand_void", args=[session.pk, hand.number])
    assert client.post(url, {"reason": "x", "key": str(uuid.uuid4())}).status_code == 403


# issue 11 item 3: after the end, a void needs a manager and a reason, in a final statement


def _ended_with_a_hand(seated=None):
    session = TableSessionFactory(settle_every="session", seated=seated)
    hand = book(session, discard_win("S", "E"))
    services.session_end(session=session)
    return session, hand


def test_after_the_end_a_member_cannot_void(member):
    session, hand = _ended_with_a_hand()
    with pytest.raises(ValidationError, match="管理员"):
        services.hand_void(hand=hand, reason="记错了", by=member)
    assert not Hand.objects.filter(voids=hand).exists()


def test_after_the_end_a_manager_voids_with_a_reason_into_a_final_statement(manager):
    session, hand = _ended_with_a_hand()
    with pytest.raises(ValidationError):
        services.hand_void(hand=hand, reason=" ", by=manager)
    reversal = services.hand_void(hand=hand, reason="散场后发现记错", by=manager)
    statements = list(session.settlements.order_by("number"))
    assert [(s.first_number, s.last_number) for s in statements] == [(1, 1), (2, 2)]
    assert statements[-1].statement["net"] == {"E": 28, "S": -28, "W": 0, "N": 0}
    assert statements[-1].last_number == reversal.number


def test_after_the_end_the_void_page_refuses_a_member_and_says_why(client, member):
    session, hand = _ended_with_a_hand(seated=member)
    client.force_login(member)
    url = reverse("play:hand_void", args=[session.pk, hand.number])
    response = client.post(url, {"reason": "记错了", "key": str(uuid.uuid4())})
    assert response.status_code == 200
    assert "管理员" in response.content.decode()
    assert not Hand.objects.filter(voids=hand).exists()


# issue 11 item 8: a void replayed says what happened


def test_a_replayed_void_says_the_hand_was_already_voided(client, manager):
    session = TableSessionFactory()
    hand = book(session, discard_win("S", "E"))
    client.force_login(manager)
    url = reverse("play:hand_void", args=[session.pk, hand.number])
    key = client.get(url).context["form"]["key"].value()
    first = client.post(url, {"reason": "记错了", "key": key}, follow=True)
    assert [str(m) for m in first.context["messages"]] == ["第 1 把已作废。"]
    again = client.post(url, {"reason": "记错了", "key": key}, follow=True)
    assert [str(m) for m in again.context["messages"]] == ["第 1 把已经由 #2 作废，这次没有改动。"]
    assert Hand.objects.filter(voids=hand).count() == 1


# who voids: a manager, or a seated player's request confirmed by a second seated player


@pytest.fixture
def table_of_two(member):
    """A table where ``member`` sits at 东 and another member at 南."""
    from clubapp.core.roles import Role
    from clubapp.core.tests.factories import UserFactory
    from clubapp.play.models import Seat

    other = UserFactory(username="second", roles=[Role.MEMBER])
    session = TableSessionFactory(seated=member)
    Seat.objects.filter(session=session, wind="S").update(user=other)
    return session, other


def test_a_players_void_waits_for_a_second_player(member, table_of_two):
    session, other = table_of_two
    hand = book(session, discard_win("S", "E"))
    with pytest.raises(services.VoidConfirmationNeeded):
        services.hand_void(hand=hand, reason="记错了", by=member)
    asked = services.hand_void_request(hand=hand, reason="记错了", by=member)
    assert not Hand.objects.filter(voids=hand).exists()
    with pytest.raises(services.VoidConfirmationNeeded):
        services.hand_void(hand=hand, reason="记错了", by=member)  # not their own request
    reversal = services.hand_void(hand=hand, reason=asked.reason, by=other)
    asked.refresh_from_db()
    assert reversal.voids == hand and asked.reversal == reversal and reversal.recorded_by == other


def test_a_player_not_at_the_table_can_neither_ask_nor_confirm(member, manager):
    from django.core.exceptions import PermissionDenied

    session = TableSessionFactory()
    hand = book(session, discard_win("S", "E"))
    with pytest.raises(PermissionDenied):
        services.hand_void_request(hand=hand, reason="x", by=member)
    with pytest.raises(PermissionDenied):
        services.hand_void_request(hand=hand, reason="x", by=manager)  # a manager voids
    assert not Hand.objects.filter(voids=hand).exists()


def test_a_manager_voids_directly_and_answers_a_pending_request(member, manager, table_of_two):
    session, _other = table_of_two
    hand = book(session, discard_win("S", "E"))
    asked = services.hand_void_request(hand=hand, reason="记错了", by=member)
    reversal = services.hand_void(hand=hand, reason="经理核实", by=manager)
    asked.refresh_from_db()
    assert asked.reversal == reversal


def test_the_void_page_asks_then_the_second_player_confirms(client, member, table_of_two):
    session, other = table_of_two
    hand = book(session, discard_win("S", "E"))
    url = reverse("play:hand_void", args=[session.pk, hand.number])
    client.force_login(member)
    page = client.get(url)
    assert "申请作废" in page.content.decode()
    client.post(url, {"reason": "花数记错了", "key": page.context["form"]["key"].value()})
    assert not Hand.objects.filter(voids=hand).exists()
    detail = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert "申请作废这一把：花数记错了" in detail
    client.force_login(other)
    page = client.get(url)
    assert page.context["form"]["reason"].value() == "花数记错了"
    assert "确认作废" in page.content.decode()
    response = client.post(
        url, {"reason": "花数记错了", "key": page.context["form"]["key"].value()}
    )
    assert response.status_code == 302
    assert Hand.objects.get(voids=hand).void_reason == "花数记错了"


def test_a_member_not_at_the_table_cannot_open_the_void_page(client, member):
    session = TableSessionFactory()
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    assert client.get(reverse("play:hand_void", args=[session.pk, hand.number])).status_code == 403
