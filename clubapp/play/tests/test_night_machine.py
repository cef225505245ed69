"""A night at a table as random sequences of what happens at it — hands booked, voids
(the last hand or an earlier one), statements, the end — through the services; after
every step the invariants hold: every hand and every statement sums to zero, each
seat's balance is the sum of its ledger lines, and the stored state equals its
recomputation (``selectors.state_differences``, what ``manage.py play_check`` runs).
Hands are scoring's generated ones (``scoring.generate``), under 南京 敞开头, 南京
进园子 and 工地."""

from __future__ import annotations

import random
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from clubapp.play import selectors, services
from clubapp.play.models import Hand, LedgerLine, Settlement
from clubapp.play.tests.factories import TableSessionFactory, shipped, state_of
from scoring import ScoringError
from scoring.generate import random_hand

#: the tables drawn: ruleset, mode, 园子 size (a small 园子 so that it closes and caps)
TABLES = [("nanjing", "open", None), ("nanjing", "garden", 60), ("jiangsu-worksite", "open", None)]


class Night(RuleBasedStateMachine):
    @initialize(table=st.sampled_from(TABLES))
    def start(self, table: tuple[str, str, int | None]) -> None:
        ruleset, mode, size = table
        self.ruleset = ruleset
        extra = {"mode": mode, "garden_size": size} if size else {}
        self.session = TableSessionFactory(ruleset=shipped(ruleset), **extra)
        self.ended = False

    def _standing(self) -> list[Hand]:
        return list(
            Hand.objects.filter(
                session=self.session, voids__isnull=True, voided_by__isnull=True
            ).order_by("number")
        )

    @precondition(lambda self: not self.ended)
    @rule(seed=st.integers(min_value=0, max_value=10**6))
    def book(self, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(4):  # a generated hand may not fit the table (天胡 by a non-dealer)
            try:
                services.hand_record(
                    session=self.session,
                    record=random_hand(rng, self.ruleset),
                    idempotency_key=uuid.uuid4(),
                    by=None,
                )
            except (ScoringError, ValidationError):
                continue
            return

    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        standing = self._standing()
        if not standing:
            return
        hand = data.draw(st.sampled_from(standing))
        before = Hand.objects.filter(session=self.session).count()
        try:
            services.hand_void(hand=hand, reason="记错了", by=None)
        except ValidationError as err:
            # only an earlier 进园子 hand under a later one may be refused, and then
            # nothing is written
            assert err.code == "garden_below_zero" and hand != standing[-1]
            assert Hand.objects.filter(session=self.session).count() == before

    @precondition(lambda self: not self.ended)
    @rule()
    def settle(self) -> None:
        try:
            services.settlement_make(session=self.session, by=None)
        except ValidationError:
            pass  # nothing to settle since the last statement

    @precondition(lambda self: not self.ended)
    @rule()
    def end(self) -> None:
        services.session_end(session=self.session, by=None)
        self.ended = True

    @invariant()
    def zero_sum_hands_and_statements(self) -> None:
        for total in (
            LedgerLine.objects.filter(hand__session=self.session)
            .values("hand")
            .annotate(t=Sum("points"))
            .values_list("t", flat=True)
        ):
            assert total == 0
        for statement in Settlement.objects.filter(session=self.session):
            assert sum(statement.statement["net"].values()) == 0

    @invariant()
    def balances_are_the_sums_of_lines(self) -> None:
        lines = dict.fromkeys("ESWN", 0)
        for seat, total in (
            LedgerLine.objects.filter(hand__session=self.session)
            .values("seat")
            .annotate(t=Sum("points"))
            .values_list("seat", "t")
        ):
            lines[seat] = total
        assert dict(state_of(self.session).balances) == lines

    @invariant()
    def stored_state_equals_its_recomputation(self) -> None:
        assert selectors.state_differences(session=self.session) == []
        left = state_of(self.session).garden_left
        assert left is None or min(left.values()) >= 0


@pytest.mark.django_db
def test_a_night_keeps_every_invariant() -> None:
    run_state_machine_as_test(
        Night,
        settings=settings(
            max_examples=15,
            stateful_step_count=12,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
