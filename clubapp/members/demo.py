"""Demo data of the members app: every card state, visits open and closed, fees paid.

Called by ``manage.py demo`` inside its transaction; silent. Does nothing if the
room already has members (the demo command may run again after accounts were
removed, and ID numbers are unique).
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from PIL import Image
from stdnum.cn import ric

from clubapp.core.models import Room
from clubapp.members import selectors, services
from clubapp.members.models import DEFAULT_WEEKLY_PERIODS, ExceptionKind, Member, Table

# name, phone, birth date, sequence, photo colour, what happens to the card
PEOPLE: list[tuple[str, str, str, int, str, str]] = [
    ("赵会员", "13800000001", "19620315", 11, "#c9a27e", "active"),
    ("钱大伯", "13800000002", "19550708", 23, "#a88b6a", "renewed"),
    ("孙阿姨", "13800000003", "19600122", 34, "#d4b08c", "expired"),
    ("李师傅", "13800000004", "19581111", 45, "#b59574", "suspended"),
    ("周先生", "13800000005", "19700501", 57, "#c2a080", "revoked"),
    ("吴奶奶", "13800000006", "19520909", 68, "#d9b99b", "reissued"),
    ("郑新人", "13800000007", "19850606", 79, "#bf9f7f", "none"),
]


def demo_id_number(birth: str, sequence: int) -> str:
    """A valid number of 南京市玄武区 (320102) with the right check digit."""
    body = f"320102{birth}{sequence:03d}"
    return body + ric.calc_check_digit(body + "0")


def demo_photo(colour: str) -> io.BytesIO:
    """A plain portrait of ``colour`` (a head on a background), as a phone would send."""
    image = Image.new("RGB", (300, 420), colour)
    image.paste(Image.new("RGB", (140, 180), "#4a3b30"), (80, 60))
    out = io.BytesIO()
    image.save(out, format="PNG")
    out.seek(0)
    return out


def _last_open_moment(room: Room, now: dt.datetime) -> dt.datetime:
    """The latest time not after ``now`` when the room was open (half-hour steps)."""
    moment = now.replace(second=0, microsecond=0)
    for _ in range(7 * 48):
        if selectors.room_is_open(room=room, at=moment):
            return moment
        moment -= dt.timedelta(minutes=30)
    return now


def seed(*, room: Room, users: dict[str, Any]) -> None:
    if Member.objects.filter(room=room).exists():
        return
    desk = users["manager"]
    now = timezone.now()
    _tables_and_hours(room=room, today=timezone.localdate(now))
    members = _members_and_cards(room=room, users=users, by=desk, now=now)
    # The desk once asked to see 钱大伯's full ID number: the page lists that viewing.
    services.id_number_reveal(member=members["钱大伯"], by=desk, now=now - dt.timedelta(days=2))
    _visits(room=room, members=members, by=desk, now=now)


def _tables_and_hours(*, room: Room, today: dt.date) -> None:
    """Six tables, two occupied; the weekly hours, an evening opening and a closure."""
    for number in range(1, 7):
        Table.objects.get_or_create(room=room, number=number)
    Table.objects.filter(room=room, number__in=[1, 2]).update(occupied=True)

    # The room's own weekly hours, as the settings page saves them (the regulations'
    # default, so the demo's days keep their shape).
    services.opening_hours_set(room=room, periods=list(DEFAULT_WEEKLY_PERIODS))
    services.opening_exception_create(
        room=room,
        date=today + dt.timedelta(days=3),
        kind=ExceptionKind.OPEN,
        opens=dt.time(19),
        closes=dt.time(23),
        note="象棋比赛夜场",
    )
    services.opening_exception_create(
        room=room, date=today + dt.timedelta(days=10), kind=ExceptionKind.CLOSED, note="设备检修"
    )


def _members_and_cards(
    *, room: Room, users: dict[str, Any], by: User, now: dt.datetime
) -> dict[str, Member]:
    """The ``PEOPLE``, registered with their photos, and each card's fate; by name."""
    members: dict[str, Member] = {}
    for name, phone, birth, sequence, colour, fate in PEOPLE:
        member = services.member_create(
            room=room,
            name=name,
            phone=phone,
            id_number=demo_id_number(birth, sequence),
            photo=demo_photo(colour),
            user=users.get("member") if name == "赵会员" else None,
            by=by,
        )
        members[name] = member
        if fate == "none":
            continue
        issued_at = now - dt.timedelta(days=400 if fate == "expired" else 60)
        issued = services.card_issue(member=member, by=by, now=issued_at)
        if fate == "suspended":
            services.card_suspend(card=issued, reason="多次损坏器材，暂停一个月", by=by)
        elif fate == "revoked":
            services.card_revoke(card=issued, reason="赌博，取消会员资格", by=by)
        elif fate == "reissued":
            services.card_reissue(card=issued, by=by, now=now - dt.timedelta(days=5))
        elif fate == "renewed":
            services.card_renew(card=issued, by=by, now=now - dt.timedelta(days=20), early=True)
    return members


def _visits(*, room: Room, members: dict[str, Member], by: User, now: dt.datetime) -> None:
    """A finished member visit and a billed non-member visit in the past, an evening
    guest admitted outside the hours, and two visits still open (shown as "still
    inside" if the room has closed)."""
    opened = _last_open_moment(room, now)
    earlier = _last_open_moment(room, opened - dt.timedelta(days=1))
    card = selectors.member_current_card(member=members["钱大伯"])
    assert card is not None
    visit = services.visit_check_in(room=room, card=card, by=by, now=earlier)
    services.visit_check_out(visit=visit, by=by, now=earlier + dt.timedelta(minutes=90))
    guest = services.visit_check_in(
        room=room, guest_name="过路客", guest_phone="13900000009", by=by, now=earlier
    )
    services.visit_check_out(visit=guest, by=by, now=earlier + dt.timedelta(minutes=130))
    # 特殊情况: an evening guest admitted outside the hours with a reason, whose
    # check-out the desk recorded the next day with the time he left (补记离场).
    evening = timezone.make_aware(dt.datetime.combine(timezone.localdate(earlier), dt.time(19, 30)))
    if evening < opened and selectors.check_in_refusal(room=room, at=evening):
        late = services.visit_check_in(
            room=room,
            guest_name="陈师傅",
            by=by,
            now=evening,
            admitted_reason="单位组织的象棋友谊赛，经主任同意",
        )
        services.visit_check_out(
            visit=late, by=by, now=opened, left_at=evening + dt.timedelta(minutes=95)
        )

    card = selectors.member_current_card(member=members["赵会员"])
    assert card is not None
    services.visit_check_in(room=room, card=card, by=by, now=opened)
    services.visit_check_in(room=room, guest_name="散客小王", by=by, now=opened)
