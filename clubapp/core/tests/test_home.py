from __future__ import annotations

import ast
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

import clubapp.core
from clubapp.books import selectors as books
from clubapp.books.models import PlanState
from clubapp.core.home import SHOWN, offered_panels
from clubapp.core.models import Room
from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory
from clubapp.members.models import Member
from clubapp.members.tests.factories import MemberFactory
from clubapp.play import selectors as play

pytestmark = pytest.mark.django_db


def test_it_requires_login(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_shows_the_managers_role_and_admin_link(client, manager):
    client.force_login(manager)
    body = client.get(reverse("home")).content.decode()
    assert "王经理" in body
    assert '<li class="role">管理员</li>' in body
    assert reverse("admin:index") in body


@pytest.mark.parametrize(
    ("cast", "role_name"),
    [("accountant", "会计"), ("approver", "负责人"), ("member", "会员")],
)
def test_it_shows_each_role(client, request, cast, role_name):
    client.force_login(request.getfixturevalue(cast))
    body = client.get(reverse("home")).content.decode()
    assert f'<li class="role">{role_name}</li>' in body
    assert reverse("admin:index") not in body


def test_it_tells_an_outsider_they_have_no_role(client, outsider):
    client.force_login(outsider)
    body = client.get(reverse("home")).content.decode()
    assert 'class="role"' not in body
    assert "还没有角色" in body


def test_it_shows_role_labels_in_english(client, manager):
    client.force_login(manager)
    client.cookies["django_language"] = "en"
    body = client.get(reverse("home")).content.decode()
    assert '<li class="role">Manager</li>' in body


def test_it_shows_the_room_name(client, manager, room):
    client.force_login(manager)
    assert room.name in client.get(reverse("home")).content.decode()


def test_it_switches_language(client, manager):
    client.force_login(manager)
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Your roles" in client.get(reverse("home")).content.decode()


# ------------------------------------------------ each role's section (issue 21)


@pytest.fixture
def demo(db):
    """The demo room: every role has something waiting (``manage.py demo``)."""
    call_command("demo", stdout=StringIO())
    return {u.username: u for u in get_user_model().objects.all()}


def _section(client, user, name: str) -> str:
    """The home page's section of one role ("" when the page has none)."""
    client.force_login(user)
    body = client.get(reverse("home")).content.decode()
    if f'class="card home-{name}"' not in body:
        return ""
    return body.split(f'class="card home-{name}"', 1)[1].split("</section>", 1)[0]


def test_it_shows_the_approver_the_plans_waiting_for_a_decision(client, demo):
    room = Room.objects.get()
    section = _section(client, demo["approver"], "approver")
    waiting = list(books.plans_awaiting_approval(room=room))
    assert waiting
    for plan in waiting:
        assert f'href="{reverse("books:plan_detail", args=[plan.pk])}"' in section
        assert plan.number in section
    decided = books.plan_list(room=room).exclude(state=PlanState.SUBMITTED)
    assert decided
    for plan in decided:
        assert plan.number not in section
    assert _section(client, demo["approver"], "accountant") == ""


def test_it_shows_the_accountant_slips_expenses_days_and_cash_at_the_desk(client, demo):
    room = Room.objects.get()
    section = _section(client, demo["accountant"], "accountant")
    slips = list(books.pending_slips(room=room))
    expenses = list(books.unconfirmed_expenses(room=room))
    days = books.days_to_close(room=room, today=timezone.localdate())
    receipts = list(books.receipts_to_hand_over(room=room))
    assert slips and expenses and days and receipts
    for slip in slips:
        assert f'href="{slip.get_absolute_url()}"' in section and slip.number in section
    for expense in expenses:
        assert f'href="{expense.get_absolute_url()}"' in section
    for day in days:
        assert f'href="{reverse("books:day_detail", args=[day.isoformat()])}"' in section
    for entry in receipts[:SHOWN]:  # the first ten; a link to the rest
        assert f'href="{entry.get_absolute_url()}"' in section and entry.reference in section
    if len(receipts) > SHOWN:
        assert f"还有 {len(receipts) - SHOWN} 项" in section
    assert f"未缴款的收入: {books.desk_cash(room=room).cash_on_hand}" in section
    # a confirmed slip is done: not listed
    confirmed = books.slip_list(room=room).filter(decision__isnull=False).first()
    assert confirmed is not None and confirmed.number not in section


def test_it_shows_the_member_their_card_tables_hands_and_points(client, demo):
    user = demo["member"]
    section = _section(client, user, "member")
    member = Member.objects.get(user=user)
    card = member.cards.exclude(status="void").order_by("-issued_on").first()
    assert f'href="{reverse("members:my_card")}">{card.number}</a>' in section
    assert f"有效期至 {card.valid_until:%Y-%m-%d}" in section
    seated = list(play.sessions_seated(room=RoomFactory(), user=user))
    assert seated
    for session in seated:
        assert f'href="{session.get_absolute_url()}"' in section
    awaiting = play.hands_awaiting(room=RoomFactory(), user=user, count=10)
    assert awaiting
    for hand in awaiting:
        assert f'href="{reverse("play:hand", args=[hand.session_id, hand.number])}"' in section
    # the link to all of them shows when there are more than the ten listed
    more = len(play.hands_awaiting(room=RoomFactory(), user=user, count=11)) > 10
    assert ("全部待确认的牌" in section) == more
    points = play.member_stats(room=RoomFactory(), user=user).points
    assert f"我的积分: {points:+d}" in section
    assert f'href="{reverse("play:my_history")}"' in section


def test_it_shows_the_manager_today_and_no_other_roles_section(client, demo):
    client.force_login(demo["manager"])
    body = client.get(reverse("home")).content.decode()
    assert 'class="card report today"' in body
    assert "home-approver" not in body and "home-accountant" not in body
    assert "home-member" not in body


def test_it_says_plainly_when_nothing_waits(client, room, approver, accountant, member):
    assert "没有待你审批的购置计划。" in _section(client, approver, "approver")
    section = _section(client, accountant, "accountant")
    assert "没有待你确认的缴款单。" in section
    assert "没有待你确认的支出。" in section
    assert "有记账的日子都已日结。" in section
    assert "收到的现金已全部缴款。" in section
    section = _section(client, member, "member")
    assert "你的账号还没有关联会员，请到前台办理。" in section
    assert "你目前没有在进行中的牌桌入座。" in section
    assert "没有待你确认的牌。" in section
    assert "你还没有打过牌。" in section


def test_it_tells_a_member_without_a_card_so(client, room, member):
    MemberFactory(room=room, user=member)
    section = _section(client, member, "member")
    assert "你还没有会员证。" in section
    assert f'href="{reverse("members:my_card")}"' in section


def test_it_shows_each_section_to_a_user_with_several_roles(client, room):
    user = UserFactory(roles=[Role.APPROVER, Role.ACCOUNTANT, Role.MEMBER])
    client.force_login(user)
    body = client.get(reverse("home")).content.decode()
    sections = [body.index(f"home-{name}") for name in ("approver", "accountant", "member")]
    assert sections == sorted(sections)
    assert 'class="card report today"' not in body


def test_it_shows_an_outsider_no_section(client, room, outsider):
    client.force_login(outsider)
    assert "home-" not in client.get(reverse("home")).content.decode()


def test_the_reports_app_offers_the_managers_panel():
    panels = [(p.role, p.name, p.template) for p in offered_panels()]
    assert (Role.MANAGER, "today", "reports/_today.html") in panels


def test_core_imports_no_report():
    """Reports read every app; core is read by every app: the home page gets today's
    page from the panel the reports app offers (``home_panels``), not by an import."""
    core = Path(clubapp.core.__file__).parent
    found = []
    for path in sorted(core.rglob("*.py")):
        if "tests" in path.relative_to(core).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found += [f"{path.name}: {n}" for n in names if n.startswith("clubapp.reports")]
    assert found == []
