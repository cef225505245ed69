from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubapp.books.models import IncomeEntry
from clubapp.members.models import (
    Card,
    CardState,
    IdNumberReveal,
    Member,
    OpeningException,
    Receipt,
    Table,
    Visit,
)
from clubapp.members.selectors import member_current_card

pytestmark = pytest.mark.django_db


def test_the_demo_room_shows_every_card_state_and_visits():
    call_command("demo", stdout=StringIO())
    states = {
        m.name: (card.state if (card := member_current_card(member=m)) else None)
        for m in Member.objects.all()
    }
    assert set(states.values()) == {
        CardState.ACTIVE,
        CardState.EXPIRED,
        CardState.SUSPENDED,
        CardState.REVOKED,
        None,
    }
    assert Card.objects.filter(status="void").count() == 1  # a lost card, reissued
    # 钱大伯's 年审, done early: a year beyond the card issued with 赵会员's
    renewed, plain = (Card.objects.get(member__name=n) for n in ("钱大伯", "赵会员"))
    assert renewed.issued_on == plain.issued_on and renewed.valid_until > plain.valid_until
    # two of the members' demo, and the play demo's players: 2 members, 5 non-members
    assert Visit.objects.filter(checked_out_at__isnull=True).count() == 9
    assert Visit.objects.filter(fee__gt=0).exists()
    late = Visit.objects.get(guest_name="陈师傅")  # admitted outside the hours, 补记离场
    assert late.admitted_reason and late.admitted_by is not None
    assert late.checked_out_recorded_at is not None and late.fee == Decimal("4.00")
    # Every receipt has its income entry (the cash book's demo adds other income too).
    receipts = set(Receipt.objects.values_list("number", flat=True))
    assert receipts and receipts <= set(IncomeEntry.objects.values_list("reference", flat=True))
    assert (
        Table.objects.filter(occupied=True).exists()
        and Table.objects.filter(occupied=False).exists()
    )
    assert OpeningException.objects.count() == 2
    member_user = get_user_model().objects.get(username="member")
    assert member_user.member.name == "赵会员"
    assert all(m.photo for m in Member.objects.all())
    reveal = IdNumberReveal.objects.get()  # one recorded viewing of a full ID number
    assert reveal.member.name == "钱大伯" and reveal.by.username == "manager"


def test_the_demo_prints_nothing_of_its_own(capsys):
    out = StringIO()
    call_command("demo", stdout=out)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert "赵会员" not in out.getvalue()
