"""The tournaments' pages: the list, creating, the standings page and PDF, the
manager's actions, a member's own results."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from clubapp.activities.models import Entrant, Format, Game, Result, Round, Tournament
from clubapp.activities.services import tournaments as services
from clubapp.activities.tests.tournament_factories import boards, card_member, entered, tournament
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.play.tests.factories import book, discard_win, shipped
from clubapp.reports.tests.pdfs import SHIPPED_FONT, pdf_fonts, pdf_text

pytestmark = pytest.mark.django_db


def _detail(t: Tournament) -> str:
    return reverse("activities:tournament_detail", args=[t.pk])


def test_it_lists_tournaments_for_a_member(client, room, manager, member):
    t = tournament(room, manager)
    client.force_login(member)
    page = client.get(reverse("activities:tournament_list")).content.decode()
    assert t.name in page
    assert reverse("activities:tournament_create") not in page


def test_a_manager_creates_a_tournament(client, room, manager):
    client.force_login(manager)
    today = timezone.localdate().isoformat()
    response = client.post(
        reverse("activities:tournament_create"),
        {
            "name": "麻将春季赛",
            "game": Game.MAHJONG,
            "format": Format.TABLES,
            "starts": today,
            "ends": today,
            "rounds_planned": "2",
            "entry_fee": "10.00",
            "ruleset": shipped().pk,
            "rank_by": "points",
            "placings": "4,2,1,0",
        },
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and response.url == _detail(t)
    assert t.ruleset == shipped()


def test_a_bad_format_is_said_on_the_form(client, room, manager):
    client.force_login(manager)
    today = timezone.localdate().isoformat()
    response = client.post(
        reverse("activities:tournament_create"),
        {
            "name": "错",
            "game": Game.MAHJONG,
            "format": Format.SWISS,
            "starts": today,
            "ends": today,
            "rounds_planned": "2",
            "entry_fee": "0",
            "rank_by": "points",
            "placings": "4,2,1,0",
        },
    )
    assert response.status_code == 200
    assert "麻将按四人一桌" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_manager_enters_a_member_and_books_the_fee(client, room, manager):
    t = tournament(room, manager, fee="15.00")
    m = card_member(room, manager, 1)
    client.force_login(manager)
    url = reverse("activities:tournament_entrant_add", args=[t.pk])
    key = str(uuid.uuid4())
    client.post(url, {"member": m.pk, "request_key": key})
    client.post(url, {"member": m.pk, "request_key": key})  # a double tap
    assert Entrant.objects.filter(tournament=t).count() == 1
    assert IncomeEntry.objects.filter(category=IncomeCategory.TOURNAMENT).count() == 1
    page = client.get(_detail(t)).content.decode()
    assert m.name in page and Entrant.objects.get().fee.reference in page


def test_an_entrant_twice_is_said(client, room, manager):
    t = tournament(room, manager)
    m = card_member(room, manager, 1)
    services.entrant_add(tournament=t, member=m, by=manager)
    client.force_login(manager)
    response = client.post(
        reverse("activities:tournament_entrant_add", args=[t.pk]), {"member": m.pk}, follow=True
    )
    assert f"{m.name}已报名" in response.content.decode()


def test_pairing_results_and_the_standings(client, room, manager):
    t = tournament(room, manager)
    people = entered(room, manager, t, 4)
    client.force_login(manager)
    client.post(reverse("activities:tournament_round_next", args=[t.pk]))
    r = Round.objects.get()
    response = client.post(reverse("activities:tournament_round_next", args=[t.pk]), follow=True)
    assert "第 1 轮尚未完成" in response.content.decode()
    for p in r.pairings.all():
        client.post(reverse("activities:tournament_result", args=[t.pk, p.pk]), {"outcome": "win"})
    assert Result.objects.count() == 2
    p = r.pairings.first()
    client.post(
        reverse("activities:tournament_result", args=[t.pk, p.pk]),
        {"outcome": "score", "first_score": "3", "second_score": "5"},
    )
    assert Result.objects.filter(pairing=p).last().second_score == 5
    page = client.get(_detail(t)).content.decode()
    assert all(e.member.name in page for e in people)
    assert "已更正" in page


def test_a_result_for_another_tournament_s_pairing_is_refused(client, room, manager):
    t = tournament(room, manager)
    other = tournament(room, manager, name="另一赛")
    entered(room, manager, other, 2)
    foreign = services.round_pair(tournament=other, by=manager).pairings.get()
    client.force_login(manager)
    response = client.post(
        reverse("activities:tournament_result", args=[t.pk, foreign.pk]),
        {"outcome": "win"},
        follow=True,
    )
    assert "不属于本赛事" in response.content.decode()
    assert not Result.objects.exists()


def test_a_mahjong_round_is_drawn_set_and_opened(client, room, manager):
    t = tournament(room, manager, game=Game.MAHJONG, rounds=2)
    people = entered(room, manager, t, 4)
    client.force_login(manager)
    form = client.get(reverse("activities:tournament_round_set", args=[t.pk]))
    assert form.status_code == 200
    response = client.post(
        reverse("activities:tournament_round_set", args=[t.pk]),
        {"t1-E": people[0].pk, "t1-S": people[1].pk, "t1-W": people[2].pk, "t1-N": people[0].pk},
    )
    assert "不能同一轮坐两桌" in response.content.decode()
    client.post(
        reverse("activities:tournament_round_set", args=[t.pk]),
        {f"t1-{w}": e.pk for w, e in zip("ESWN", people, strict=True)},
    )
    r = Round.objects.get()
    (board,) = boards(room, 1)
    response = client.post(
        reverse("activities:tournament_table_open", args=[t.pk, r.tables.get().pk]),
        {"board": board.pk},
    )
    session = r.tables.get().session
    assert response.url == session.get_absolute_url()
    book(session, discard_win("S", "E"), by=manager)
    page = client.get(_detail(t)).content.decode()
    assert "南 " + people[1].member.name in page


def test_a_draw_shows_its_seed(client, room, manager):
    t = tournament(room, manager, game=Game.MAHJONG, rounds=2)
    entered(room, manager, t, 4)
    client.force_login(manager)
    response = client.post(
        reverse("activities:tournament_round_next", args=[t.pk]), {"seed": "4242"}, follow=True
    )
    assert "种子 4242" in response.content.decode()


def test_a_member_sees_their_own_results_and_the_standings(client, room, manager, member):
    t = tournament(room, manager)
    mine = services.entrant_add(
        tournament=t, member=card_member(room, manager, 1, user=member), by=manager
    )
    entered(room, manager, t, 1)
    r = services.round_pair(tournament=t, by=manager)
    p = r.pairings.get()
    services.result_record(tournament=t, pairing=p, first_score=1, second_score=0, by=manager)
    client.force_login(member)
    page = client.get(_detail(t)).content.decode()
    assert "我的成绩" in page
    assert "1–0" in page or "0–1" in page
    assert "运行赛事" not in page  # no manager's forms
    assert mine.member.name in page


def test_closing_needs_the_box_and_then_the_page_shows_final(client, room, manager):
    t = tournament(room, manager)
    entered(room, manager, t, 2)
    r = services.round_pair(tournament=t, by=manager)
    services.result_record(
        tournament=t, pairing=r.pairings.get(), first_score=1, second_score=0, by=manager
    )
    client.force_login(manager)
    url = reverse("activities:tournament_close", args=[t.pk])
    client.post(url)
    t.refresh_from_db()
    assert not t.is_closed
    client.post(url, {"confirm": "yes"})
    t.refresh_from_db()
    assert t.is_closed
    page = client.get(_detail(t)).content.decode()
    assert "最终排名" in page and "运行赛事" not in page


def test_the_standings_pdf_embeds_the_room_s_font(client, room, manager, member):
    t = tournament(room, manager, name="喆堃杯象棋赛")
    entered(room, manager, t, 3)
    client.force_login(member)
    response = client.get(reverse("activities:tournament_pdf", args=[t.pk]))
    assert response["Content-Type"] == "application/pdf"
    data = response.content
    assert "attachment" in response["Content-Disposition"]
    fonts = pdf_fonts(data)
    assert fonts and all(f.embedded and SHIPPED_FONT in f.name for f in fonts)
    text = pdf_text(data)
    assert "喆堃杯象棋赛" in text and "陈一" in text


def test_a_result_for_a_pairing_that_does_not_exist_is_not_found(client, room, manager):
    t = tournament(room, manager)
    client.force_login(manager)
    response = client.post(
        reverse("activities:tournament_result", args=[t.pk, 99999]), {"outcome": "win"}
    )
    assert response.status_code == 404
    assert not Result.objects.exists()
