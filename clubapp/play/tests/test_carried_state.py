"""A booking carries the table's state forward (selectors.table_state_after) instead
of reading the night again: after every hand of long nights (敞开头, 进园子 with
园子 closing, 工地, with statements and voids between), the carried state must be
exactly the state a fresh read of the database gives."""

from __future__ import annotations

import random
from dataclasses import asdict

import pytest

import scoring
from clubapp.play import selectors, services
from clubapp.play.tests.factories import TableSessionFactory, book, shipped
from scoring.generate import random_hands

pytestmark = pytest.mark.django_db


def _comparable(state):
    out = asdict(state)
    out.pop("cache_key")
    return out


def _night(session, family, hands, seed, django_capture_on_commit_callbacks):
    rng = random.Random(seed)
    pool = random_hands(seed, hands * 3, family)
    booked = carried = 0
    for record in pool:
        if booked == hands:
            break
        marks = selectors.session_marks(session)
        # the session page was shown before this hand: its state is held too
        page = selectors.table_state_cached(session, detail=selectors.RECENT_ENTRIES, marks=marks)
        page_before = _comparable(page)
        # states read with no entry in full, or all of them, carry the same way
        others = {detail: selectors.table_state(session, detail=detail) for detail in (0, None)}
        try:
            with django_capture_on_commit_callbacks(execute=True):
                hand = book(session, record)
        except scoring.ScoringError:
            continue  # 天胡 by a seat that is not dealing, say
        booked += 1
        # the state carried from is shared with whoever still reads it: unchanged
        assert _comparable(page) == page_before
        after = (hand.number, marks[1])
        key = selectors._state_key(session, after, selectors.RECENT_ENTRIES)
        held = selectors._recent.get(key)  # the state the page, preview and booking share
        assert held is not None, hand.number
        fresh = selectors.table_state(session, detail=selectors.RECENT_ENTRIES)
        assert _comparable(held) == _comparable(fresh), hand.number
        carried += 1
        for detail, before in others.items():
            moved = selectors.table_state_after(session, before, hand, hand.result)
            fresh = selectors.table_state(session, detail=detail)
            assert _comparable(moved) == _comparable(fresh), (hand.number, detail)
        roll = rng.random()
        if roll < 0.1:
            services.hand_void(hand=hand, reason="记错了", user=None)
        elif roll < 0.2 and selectors.settlement_pending(session, selectors.table_state(session)):
            services.settlement_make(session=session, user=None)
    assert booked == hands
    return carried


def test_a_long_open_nanjing_night_carries_its_state_exactly(django_capture_on_commit_callbacks):
    session = TableSessionFactory(settle_every="hand")
    assert _night(session, "nanjing", 40, 11, django_capture_on_commit_callbacks) == 40


def test_a_garden_night_carries_its_gardens_exactly(django_capture_on_commit_callbacks):
    # a small 园子 closes often: the sums restart, the numbering moves on
    session = TableSessionFactory(mode="garden", garden_size=40, settle_every="garden")
    _night(session, "nanjing", 40, 12, django_capture_on_commit_callbacks)
    assert selectors.table_state(session).garden_number > 2


def test_a_classic_night_carries_its_state_exactly(django_capture_on_commit_callbacks):
    session = TableSessionFactory(ruleset=shipped("nanjing-classic"), settle_every="quan")
    _night(session, "nanjing-classic", 30, 13, django_capture_on_commit_callbacks)


def test_a_worksite_night_carries_its_state_exactly(django_capture_on_commit_callbacks):
    session = TableSessionFactory(ruleset=shipped("jiangsu-worksite"), settle_every="worksite")
    _night(session, "jiangsu-worksite", 30, 14, django_capture_on_commit_callbacks)


def test_nothing_is_carried_when_the_booking_rolls_back(django_capture_on_commit_callbacks):
    from django.db import transaction

    session = TableSessionFactory()
    marks = selectors.session_marks(session)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                book(session, random_hands(5, 1, "nanjing")[0])
                raise RuntimeError("the commit fails")
        except RuntimeError:
            pass
    assert callbacks == []
    key = selectors._state_key(session, (marks[0] + 1, marks[1]), selectors.RECENT_ENTRIES)
    assert selectors._recent.get(key) is None
