"""A night at one table: the state after each row of the journal, stepped by
``after`` (what a booking stores) and recomputed by ``replay`` (what a check does)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.night import Row, State, Table, after, distance, replay, start
from scoring.record import SEATS, next_seat


def win(number: int, dealer: str, winner: str, points: int, **extra: object) -> Row:
    """``winner`` takes ``points`` from each other seat; the deal passes unless the
    dealer won."""
    net = {seat: points * 3 if seat == winner else -points for seat in SEATS}
    nxt = dealer if winner == dealer else next_seat(dealer)
    return Row(number, net, dealer=dealer, next_dealer=nxt, **extra)  # type: ignore[arg-type]


def void(number: int, hand: Row) -> Row:
    return Row(number, {s: -p for s, p in hand.net.items()}, voids=hand.number)


def book(table: Table, rows: list[Row], statements: set[int] = frozenset()) -> list[State]:  # type: ignore[assignment]
    """Each row's state as the bookings step it (a void rebuilds from the standing hands)."""
    state, out = start(table), []
    for i, row in enumerate(rows):
        voided = {r.voids for r in rows[: i + 1] if r.voids is not None}
        standing = [r for r in rows[: i + 1] if r.voids is None and r.number not in voided]
        settled = max((s for s in statements if s < row.number), default=0)
        state = after(table, state, row, settled_through=settled, standing=standing)
        out.append(state)
    return out


def test_a_new_table_starts_with_east_in_the_first_quan() -> None:
    state = start(Table())
    assert (state.dealer, state.doubled, state.balances, state.garden) == (
        "E",
        False,
        dict.fromkeys(SEATS, 0),
        None,
    )
    assert (state.position.jiang, state.position.quan, state.position.hand) == (1, 1, 1)
    assert start(Table(garden_size=30)).garden_left == dict.fromkeys(SEATS, 30)


def test_four_passes_make_a_quan_and_the_night_ends_after_its_jiang() -> None:
    table = Table()
    rows, dealer = [], "E"
    for n in range(1, 33):
        rows.append(win(n, dealer, next_seat(dealer), 1))
        dealer = next_seat(dealer)
    states = book(table, rows)
    assert (states[3].position.jiang, states[3].position.quan) == (1, 2)
    assert (states[15].position.jiang, states[15].position.quan) == (2, 1)
    assert not states[30].night_over(table) and states[31].night_over(table)
    assert not states[31].night_over(Table(jiang_count=3))
    assert states == replay(table, rows, set())


def test_balances_and_the_unsettled_window_sum_the_rows_since_the_statement() -> None:
    table = Table(settle_every="hand")
    rows = [win(1, "E", "S", 2), win(2, "S", "W", 3), win(3, "W", "W", 1)]
    states = book(table, rows, {1})
    assert states[2].balances == {"E": -6, "S": 2, "W": 10, "N": -6}
    assert states[2].unsettled == {"E": -4, "S": -4, "W": 12, "N": -4}
    assert states[0].due and states[2].due
    assert states == replay(table, rows, {1})


def test_voiding_the_last_hand_gives_back_the_chain_before_it() -> None:
    table = Table()
    first = win(1, "E", "S", 2, next_doubled=True)
    second = win(2, "S", "W", 3)
    rows = [first, second, void(3, second)]
    states = book(table, rows)
    assert (states[2].dealer, states[2].doubled, states[2].passes) == ("S", True, 1)
    assert states[2].balances == states[0].balances
    assert states == replay(table, rows, set())


def test_a_void_that_breaks_the_chain_counts_how_far_the_deal_moved() -> None:
    table = Table()
    first = win(1, "E", "S", 1)  # E → S
    rows = [first, win(2, "S", "W", 1), void(3, first)]
    states = book(table, rows)
    # standing: only hand 2, dealt by S: the deal moved E → S → W
    assert states[2].passes == distance("E", "S") + distance("S", "W") == 2
    assert states[2].hands == 1 and states[2].dealer == "W"


def test_a_garden_closes_and_the_next_starts_full() -> None:
    table = Table(settle_every="garden", garden_size=10)
    closing = win(2, "S", "S", 3, garden_over=True)
    rows = [win(1, "E", "S", 2), closing, win(3, "S", "W", 1)]
    states = book(table, rows)
    assert states[0].garden_left == {"E": 8, "S": 16, "W": 8, "N": 8}
    assert (states[1].garden, states[1].garden_left) == (2, dict.fromkeys(SEATS, 10))
    assert states[1].due and states[2].garden_left == {"E": 9, "S": 9, "W": 13, "N": 9}
    # voiding the closing hand reopens the first 园子 with every later hand in it
    reopened = book(table, [*rows, void(4, closing)])[-1]
    assert reopened.garden == 1 and reopened.garden_left == {"E": 7, "S": 15, "W": 11, "N": 7}
    assert not reopened.due


def test_voiding_an_earlier_hand_under_a_capped_later_one_is_refused() -> None:
    """E won the first hand and then paid the second from what that win put in E's
    园子; without the first hand E would end below zero: refused, in stepping and
    replaying alike, until the later hand is voided first."""
    table = Table(settle_every="garden", garden_size=10)
    first = win(1, "E", "E", 6)
    later = Row(2, {"E": -20, "S": 20, "W": 0, "N": 0}, dealer="E", next_dealer="S")
    rows = [first, later]
    assert book(table, rows)[-1].garden_left == {"E": 8, "S": 24, "W": 4, "N": 4}
    for check in (book, replay):
        with pytest.raises(ScoringError) as err:
            check(table, [*rows, void(3, first)], set())
        assert err.value.code == "garden_below_zero" and "先作废之后的各把" in err.value.zh
    last_first = book(table, [*rows, void(3, later), void(4, first)])
    assert last_first[-1].garden_left == dict.fromkeys(SEATS, 10)


def test_a_void_after_a_statement_counts_in_the_new_window() -> None:
    table = Table(settle_every="session")
    hand = win(1, "E", "S", 2)
    states = book(table, [hand, void(2, hand)], {1})
    assert states[1].unsettled == {s: -p for s, p in hand.net.items()}
    assert states[1].balances == dict.fromkeys(SEATS, 0) and not states[1].due


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(["quan", "worksite", "garden", "jiang"]),
)
def test_stepping_agrees_with_replaying_from_scratch(seed: int, option: str) -> None:
    rng = random.Random(seed)
    # a 园子 deep enough that no random void takes a later hand's balance below zero
    table = Table(settle_every=option, garden_size=1000 if option == "garden" else None)
    rows: list[Row] = []
    statements: set[int] = set()
    state = start(table)
    for number in range(1, 30):
        standing = [r for r in rows if r.voids is None and r.number not in {x.voids for x in rows}]
        if standing and rng.random() < 0.15:
            rows.append(void(number, rng.choice(standing)))
        else:
            rows.append(
                win(
                    number,
                    state.dealer,
                    rng.choice(SEATS),
                    rng.randint(1, 5),
                    next_doubled=rng.random() < 0.3,
                    garden_over=option == "garden" and rng.random() < 0.2,
                )
            )
        if rng.random() < 0.2:
            statements.add(number)
        state = book(table, rows, statements)[-1]
    assert book(table, rows, statements) == replay(table, rows, statements)


def test_a_row_is_read_from_its_record_and_result() -> None:
    """``Row.read``: the result's net and ``next``, the record's dealer; a reversal's
    result names the hand it voids."""
    net = {"E": -30, "S": 30, "W": 0, "N": 0}
    row = Row.read(3, {"dealer": "E"}, {"net": net, "next": {"dealer": "S", "doubled": True}})
    assert row == Row(3, net, dealer="E", next_dealer="S", next_doubled=True)
    back = Row.read(4, {}, {"net": {s: -p for s, p in net.items()}, "voids": 3})
    assert back.is_reversal and back.voids == 3 and back.dealer is None
    assert not back.next_doubled and not back.garden_over
    over = Row.read(5, {"dealer": "S"}, {"net": net, "garden_over": True})
    assert over.garden_over and over.next_dealer is None
