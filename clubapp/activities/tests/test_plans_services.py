"""活动计划's services: drafting, submitting, deciding, new versions, and bad input."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubapp.activities.models import (
    ActivityPlan,
    DraftActivity,
    Game,
    PlannedActivity,
    PlanVersion,
    VersionDecision,
    VersionState,
)
from clubapp.activities.selectors import plans as selectors
from clubapp.activities.services import plans as services
from clubapp.activities.tests.plans_records import (
    DECEMBER,
    activity,
    approved_plan,
    at,
    draft_plan,
    submitted_plan,
)
from clubapp.books.models import PlanOutcome
from clubapp.books.services import plan_decide
from clubapp.books.tests.factories import approved, submitted
from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(db):
    """A manager who is also an approver."""
    return UserFactory(username="boss", roles=[Role.MANAGER, Role.APPROVER])


def _nothing_saved() -> None:
    assert not ActivityPlan.objects.exists()
    assert not PlanVersion.objects.exists()
    assert not DraftActivity.objects.exists()


def test_it_drafts_a_month_with_version_one(room, manager):
    plan = draft_plan(room, manager)
    version = plan.versions.get()
    assert version.number == 1 and selectors.version_state(version) == VersionState.DRAFT
    assert [d.date.day for d in version.drafts.order_by("position")] == [5, 12]
    assert selectors.plan_end(plan) == dt.date(2026, 12, 31)


def test_a_quarter_starts_on_a_quarter_month_and_runs_three_months(room, manager):
    with pytest.raises(ValidationError) as exc:
        draft_plan(room, manager, period="quarter", starts=dt.date(2026, 11, 1))
    assert exc.value.error_list[0].code == "starts"
    line = services.ActivityIn(
        date=dt.date(2027, 3, 31), kind="play", title="春季棋牌活动", games=["weiqi"]
    )
    plan = draft_plan(room, manager, line, period="quarter", starts=dt.date(2027, 1, 1))
    assert selectors.plan_end(plan) == dt.date(2027, 3, 31)


def test_a_plan_starts_on_the_first_of_a_month(room, manager):
    with pytest.raises(ValidationError) as exc:
        draft_plan(room, manager, starts=dt.date(2026, 12, 2))
    assert exc.value.error_list[0].code == "starts"
    _nothing_saved()


def test_only_a_manager_plans(room, approver):
    with pytest.raises(PermissionDenied):
        draft_plan(room, approver)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (services.ActivityIn(dt.date(2027, 1, 3), "play", "迎新", ["xiangqi"]), "date_outside"),
        (activity(games=()), "games"),
        (activity(games=("xiangqi", "bridge")), "games"),
        (activity(budget=Decimal("-1.00")), "budget_negative"),
        (activity(budget=Decimal("1.005")), "budget"),
        (activity(title="  "), "title"),
        (activity(kind="party"), "kind"),
        (activity(expected=-1), "expected"),
    ],
    ids=[
        "outside",
        "no_game",
        "unknown_game",
        "negative",
        "third_place",
        "title",
        "kind",
        "expected",
    ],
)
def test_a_bad_line_is_refused_and_nothing_saved(room, manager, line, code):
    with pytest.raises(ValidationError) as exc:
        draft_plan(room, manager, activity(5), line)
    assert exc.value.error_list[0].code == code
    assert exc.value.messages[0].startswith("第 2 项")  # the line is named
    _nothing_saved()


def test_a_period_with_a_plan_takes_no_second_one(room, manager):
    draft_plan(room, manager)
    with pytest.raises(ValidationError) as exc:
        draft_plan(room, manager)
    assert exc.value.error_list[0].code == "period_taken"
    # a quarter containing the month: the same days, refused too
    with pytest.raises(ValidationError):
        draft_plan(room, manager, period="quarter", starts=dt.date(2026, 10, 1))
    assert ActivityPlan.objects.count() == 1
    # another room's December is its own
    draft_plan(RoomFactory(slug="other"), manager)


def test_the_budget_links_a_purchase_plan_of_the_room_that_is_not_rejected(room, manager, approver):
    buying = approved(room, manager, approver)
    plan = draft_plan(room, manager, activity(5, purchase_plan=buying))
    assert plan.versions.get().drafts.get().purchase_plan == buying
    rejected = submitted(room, manager)
    plan_decide(plan=rejected, outcome=PlanOutcome.REJECTED, comment="贵", by=approver)
    version = plan.versions.get()
    for bad, code in [
        (rejected, "purchase_plan"),
        (approved(RoomFactory(slug="elsewhere"), manager, approver), "purchase_plan"),
    ]:
        with pytest.raises(ValidationError) as exc:
            services.draft_update(
                version=version, lines=[activity(5, purchase_plan=bad)], by=manager
            )
        assert exc.value.error_list[0].code == code
    with pytest.raises(ValidationError) as exc:
        services.draft_update(
            version=version,
            lines=[activity(5, purchase_plan=buying, budget=Decimal("0"))],
            by=manager,
        )
    assert exc.value.error_list[0].code == "purchase"
    assert version.drafts.get().purchase_plan == buying


def test_submitting_freezes_the_lines_and_deletes_the_drafts(room, manager):
    plan = draft_plan(room, manager)
    version = plan.versions.get()
    submission = services.version_submit(version=version, by=manager, now=at(1, 10))
    assert submission.budget == Decimal("240.00")
    assert not DraftActivity.objects.exists()
    assert PlannedActivity.objects.filter(version=version).count() == 2
    assert selectors.version_state(PlanVersion.objects.get()) == VersionState.SUBMITTED
    with pytest.raises(ValidationError) as exc:
        services.version_submit(version=version, by=manager)
    assert exc.value.error_list[0].code == "submitted"
    with pytest.raises(ValidationError) as exc:
        services.draft_update(version=version, lines=[activity(7)], by=manager)
    assert exc.value.error_list[0].code == "frozen"


def test_an_empty_draft_is_not_submitted(room, manager):
    plan = draft_plan(room, manager, activity(5))
    version = plan.versions.get()
    services.draft_update(version=version, lines=[], by=manager)
    with pytest.raises(ValidationError) as exc:
        services.version_submit(version=version, by=manager)
    assert exc.value.error_list[0].code == "no_lines"


def test_an_approver_who_did_not_draft_it_approves(room, manager, approver):
    plan = approved_plan(room, manager, approver)
    assert selectors.plan_approved_version(plan=plan) == plan.versions.get()
    lines = selectors.activities_in_force(room=room, first=DECEMBER, last=dt.date(2026, 12, 31))
    assert [a.date.day for a in lines] == [5, 12]


def test_one_cannot_approve_ones_own_plan(room, boss):
    plan = submitted_plan(room, boss)
    with pytest.raises(ValidationError) as exc:
        services.version_decide(version=plan.versions.get(), approved=True, by=boss)
    assert exc.value.error_list[0].code == "own_plan"
    assert not VersionDecision.objects.exists()


def test_only_an_approver_decides(room, manager):
    plan = submitted_plan(room, manager)
    with pytest.raises(PermissionDenied):
        services.version_decide(version=plan.versions.get(), approved=True, by=manager)


def test_a_version_is_decided_once(room, manager, approver):
    plan = approved_plan(room, manager, approver)
    with pytest.raises(ValidationError) as exc:
        services.version_decide(version=plan.versions.get(), approved=False, note="x", by=approver)
    assert exc.value.error_list[0].code == "decided"
    assert VersionDecision.objects.count() == 1


def test_a_draft_is_not_decided_and_a_rejection_says_why(room, manager, approver):
    plan = draft_plan(room, manager)
    version = plan.versions.get()
    with pytest.raises(ValidationError) as exc:
        services.version_decide(version=version, approved=True, by=approver)
    assert exc.value.error_list[0].code == "draft"
    services.version_submit(version=version, by=manager)
    with pytest.raises(ValidationError) as exc:
        services.version_decide(version=version, approved=False, by=approver)
    assert exc.value.error_list[0].code == "note"
    services.version_decide(version=version, approved=False, note="预算太高", by=approver)
    assert selectors.version_state(PlanVersion.objects.get()) == VersionState.REJECTED
    assert selectors.plan_approved_version(plan=plan) is None


def test_an_approved_plan_changes_only_by_a_new_version(room, manager, approver):
    plan = approved_plan(room, manager, approver)
    with pytest.raises(ValidationError) as exc:
        services.version_new(plan=plan, reason="", by=manager)
    assert exc.value.error_list[0].code == "reason"
    v2 = services.version_new(plan=plan, reason="加一场围棋辅导", by=manager, now=at(3))
    assert v2.number == 2 and v2.reason == "加一场围棋辅导"
    assert [d.title for d in v2.drafts.order_by("position")] == ["象棋月赛", "象棋月赛"]
    # one draft at a time
    with pytest.raises(ValidationError) as exc:
        services.version_new(plan=plan, reason="again", by=manager)
    assert exc.value.error_list[0].code == "open_version"
    services.draft_update(
        version=v2,
        lines=[activity(5), activity(19, title="围棋辅导", games=(Game.WEIQI,), kind="training")],
        by=manager,
    )
    # while version 2 waits, version 1 is in force
    services.version_submit(version=v2, by=manager)
    december = (DECEMBER, dt.date(2026, 12, 31))
    in_force = selectors.activities_in_force(room=room, first=december[0], last=december[1])
    assert [a.date.day for a in in_force] == [5, 12]
    services.version_decide(version=v2, approved=True, by=approver)
    in_force = selectors.activities_in_force(room=room, first=december[0], last=december[1])
    assert [(a.date.day, a.title) for a in in_force] == [(5, "象棋月赛"), (19, "围棋辅导")]


def test_a_rejected_version_leaves_the_last_approved_in_force(room, manager, approver):
    plan = approved_plan(room, manager, approver)
    v2 = services.version_new(plan=plan, reason="取消月赛", by=manager)
    services.draft_update(version=v2, lines=[activity(12)], by=manager)
    services.version_submit(version=v2, by=manager)
    services.version_decide(version=v2, approved=False, note="月赛照常", by=approver)
    assert selectors.plan_approved_version(plan=plan).number == 1
    rows = selectors.plan_list(room=room)
    assert [(r.number, r.state, r.in_force) for r in rows] == [(2, VersionState.REJECTED, True)]
    v3 = services.version_new(plan=plan, reason="再改", by=manager)
    assert v3.number == 3 and v3.drafts.count() == 1  # drafted from the rejected version 2
