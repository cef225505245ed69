"""What the home page shows each role: one section per role the user has, each read
through the owning app's selectors (docs/foundation.md "Home page").

- the panels other apps offer (an app config's ``home_panels()``): the manager's
  today's page, offered by the reports app, which core does not import;
- approver (负责人): the purchase plans waiting for a decision;
- accountant (会计): slips to confirm, expenses to confirm, days to close, and the
  income still at the desk (not handed over);
- member: their card, the open tables where they sit, the hands waiting for their
  confirmation, their latest sessions' points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.utils import timezone

from clubapp.books import selectors as books
from clubapp.core.models import Room
from clubapp.core.roles import Role
from clubapp.members import selectors as members
from clubapp.play import selectors as play

#: the rows a section lists before it sends the reader to the full page
SHOWN = 10


@dataclass(frozen=True)
class Panel:
    """A section an app offers the home page, shown above the roles' sections to a user
    with ``role``: ``template`` rendered with ``read(room=room, user=user)`` as ``name``."""

    role: Role
    name: str
    template: str
    read: Callable[..., Any]


def offered_panels() -> list[Panel]:
    """The panels the installed apps offer, in ``INSTALLED_APPS`` order: each app
    config with a ``home_panels()`` method says its own (the reports app: today's
    page), so the home page reads them without importing those apps."""
    panels: list[Panel] = []
    for config in apps.get_app_configs():
        offer = getattr(config, "home_panels", None)
        if offer is not None:
            panels.extend(offer())
    return panels


@dataclass(frozen=True)
class ApproverHome:
    plans: list[Any]
    more: int


@dataclass(frozen=True)
class AccountantHome:
    slips: list[Any]
    expenses: list[Any]
    days: list[Any]
    more_days: int
    receipts: list[Any]
    more_receipts: int
    desk: books.DeskCash


@dataclass(frozen=True)
class MemberHome:
    member: Any
    card: Any
    card_state: Any
    sessions: list[Any]
    awaiting: list[Any]
    more_awaiting: bool
    history: list[dict[str, Any]]
    points: int


def _first(rows: list[Any]) -> tuple[list[Any], int]:
    return rows[:SHOWN], max(len(rows) - SHOWN, 0)


def approver_home(*, room: Room) -> ApproverHome:
    waiting = books.plans_awaiting_approval(room=room)
    plans = list(waiting[:SHOWN])
    return ApproverHome(plans=plans, more=waiting.count() - len(plans) if plans else 0)


def accountant_home(*, room: Room) -> AccountantHome:
    today = timezone.localdate()
    days, more_days = _first(books.days_to_close(room=room, today=today))
    desk = books.desk_cash(room=room)
    receipts = list(books.receipts_to_hand_over(room=room)[:SHOWN])
    return AccountantHome(
        slips=list(books.pending_slips(room=room)),
        expenses=list(books.unconfirmed_expenses(room=room).select_related("line")),
        days=days,
        more_days=more_days,
        receipts=receipts,
        more_receipts=desk.receipts - len(receipts),
        desk=desk,
    )


def member_home(*, room: Room, user: Any) -> MemberHome:
    member = members.member_for_user(room=room, user=user)
    card = members.member_current_card(member=member) if member is not None else None
    stats = play.member_stats(room=room, user=user)
    awaiting = play.hands_awaiting(room=room, user=user, count=SHOWN + 1)
    return MemberHome(
        member=member,
        card=card,
        card_state=card.state_on(timezone.localdate()) if card is not None else None,
        sessions=list(play.sessions_seated(room=room, user=user)),
        awaiting=awaiting[:SHOWN],
        more_awaiting=len(awaiting) > SHOWN,
        # newest first: the last few sessions, the rest on the history page
        history=stats.sessions[::-1][:5],
        points=stats.points,
    )


def home_sections(*, user: Any, roles: list[Role], room: Room | None) -> dict[str, Any]:
    """The context of each section the user's roles open, by name."""
    sections: dict[str, Any] = {}
    if room is None:  # a superuser before any room exists: nothing to read yet
        return sections
    # the templates of the panels shown, in order; each panel's value under its name
    panels: list[str] = []
    for panel in offered_panels():
        if panel.role in roles:
            sections[panel.name] = panel.read(room=room, user=user)
            panels.append(panel.template)
    sections["panels"] = panels
    if Role.APPROVER in roles:
        sections["approver"] = approver_home(room=room)
    if Role.ACCOUNTANT in roles:
        sections["accountant"] = accountant_home(room=room)
    if Role.MEMBER in roles:
        sections["member_home"] = member_home(room=room, user=user)
    return sections
