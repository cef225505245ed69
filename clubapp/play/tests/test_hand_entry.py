"""The hand entry page: preview, then confirm; quick and tiles; errors in Chinese
beside the field that caused them; a double tap books once."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from clubapp.play import services
from clubapp.play.entry import HandEntryForm, conflicts, parse_melds
from clubapp.play.models import Hand, HandSignoff, Seat
from clubapp.play.tests.factories import TableSessionFactory, book, discard_win, shipped

pytestmark = pytest.mark.django_db


@pytest.fixture
def session():
    return TableSessionFactory()


def _url(session):
    return reverse("play:hand_entry", args=[session.pk])


def _preview(client, session, data):
    response = client.post(_url(session), {"preview": "1", **data})
    assert response.status_code == 200
    return response


def _confirm_data(response, data):
    ctx = response.context
    return {
        "confirm": "1",
        **data,
        "key": ctx["key"],
        "previewed": ctx["previewed"],
        "basis": ctx["basis"],
        "ruleset": ctx["ruleset_token"],
    }


QUICK = {"winners": ["S"], "discarder": "E", "hard_S": "4", "soft_S": "0"}


def test_it_shows_the_entry_page_with_the_table_state(client, member, session):
    client.force_login(member)
    response = client.get(_url(session))
    assert response.status_code == 200
    body = response.content.decode()
    assert "老王" in body  # East deals the first hand
    assert 'data-tile="5m"' in body
    assert response.context["conflicts"]["qidui"]


def test_a_preview_shows_the_result_and_books_nothing(client, member, session):
    client.force_login(member)
    response = _preview(client, session, QUICK)
    assert response.context["preview"]["net"] == {"E": -28, "S": 28, "W": 0, "N": 0}
    body = response.content.decode()
    assert "跑20" in body and "→" in body and 'name="confirm"' in body
    assert not Hand.objects.exists()


def test_confirm_books_the_previewed_hand_and_redirects(client, member, session):
    client.force_login(member)
    preview = _preview(client, session, QUICK)
    response = client.post(_url(session), _confirm_data(preview, QUICK))
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    hand = Hand.objects.get()
    assert hand.recorded_by == member and hand.result["net"]["S"] == 28
    assert str(hand.idempotency_key) == preview.context["key"]


def test_a_double_tap_on_confirm_books_once(client, member, session):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)
    assert client.post(_url(session), data).status_code == 302
    assert client.post(_url(session), data).status_code == 302
    assert Hand.objects.count() == 1


def test_confirm_after_a_change_shows_a_fresh_preview(client, member, session):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)
    data["hard_S"] = "6"
    response = client.post(_url(session), data)
    assert response.status_code == 200
    assert response.context["preview"]["wins"][0]["value"] == 32
    assert not Hand.objects.exists()


def test_confirm_after_another_phone_booked_shows_a_fresh_preview(client, member, session):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)
    book(session, discard_win("S", "E"))  # the other phone: the deal passes to S
    response = client.post(_url(session), data)
    assert response.status_code == 200
    assert Hand.objects.count() == 1
    # S is dealer now: S's win on E's discard scores on the new state
    assert response.context["prepared"]["dealer"] == "S"


def test_a_confirm_naming_another_ruleset_books_under_the_tables_own(client, member, session):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)
    classic = shipped("nanjing-classic")
    data["ruleset"] = f"{classic.pk}:{classic.version}"
    assert client.post(_url(session), data).status_code == 302
    hand = Hand.objects.get()
    assert hand.ruleset == session.ruleset and hand.result["net"]["S"] == 28
    for token in ("", "x", "999999:abc", f"{classic.pk}:000000000000"):
        data = _confirm_data(_preview(client, session, QUICK), QUICK)
        data["ruleset"] = token
        assert client.post(_url(session), data).status_code == 302
    assert Hand.objects.count() == 5


def test_a_confirm_on_an_ended_session_books_nothing(client, member, session):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)
    services.session_end(session=session)
    response = client.post(_url(session), data, follow=True)
    assert not Hand.objects.exists()
    assert [str(m) for m in response.context["messages"]] == ["牌局已结束。"]


def test_a_drawn_hand_is_entered_with_no_winner(client, member, session):
    client.force_login(member)
    data = {"discarder": ""}
    preview = _preview(client, session, data)
    client.post(_url(session), _confirm_data(preview, data))
    assert Hand.objects.get().result["wins"] == []


def test_a_self_drawn_win_with_features_kongs_and_penalty(client, member, session):
    client.force_login(member)
    data = {
        "winners": ["E"],
        "discarder": "",
        "hard_E": "4",
        "soft_E": "1",
        "features_E": ["menqing"],
        "kong_seat_0": "N",
        "kong_type_0": "concealed",
        "penalty_type_0": "follow",
        "penalty_seat_0": "W",
    }
    result = _preview(client, session, data).context["preview"]
    reasons = [p["reason"] for p in result["payments"]]
    assert reasons.count("win") == 3 and "kong" in reasons and "penalty" in reasons
    assert result["next"]["doubled"] is True


def test_tiles_mode_reads_the_hand(client, member, session):
    client.force_login(member)
    data = {
        "winners": ["S"],
        "discarder": "E",
        "concealed_S": "234m567m999m111p55p",
        "winning_tile_S": "5p",
        "flowers_S": "1f5z6z7z",
    }
    result = _preview(client, session, data).context["preview"]
    assert result["wins"][0]["value"] == 52
    assert result["wins"][0]["features"] == ["duzhan", "queyi", "menqing"]


def test_tiles_mode_adds_the_winners_kongs_from_the_melds(client, member, session):
    client.force_login(member)
    data = {
        "winners": ["S"],
        "discarder": "E",
        "concealed_S": "234m567m111p55p",
        "melds_S": "K9mW",
        "winning_tile_S": "5p",
        "flowers_S": "1f2f3f5f",
    }
    response = _preview(client, session, data)
    assert response.context["prepared"]["kongs"] == [{"seat": "S", "type": "exposed", "from": "W"}]


def test_it_proposes_the_liable_seat_from_the_melds(client, member, session):
    client.force_login(member)
    data = {
        "winners": ["S"],
        "discarder": "",
        "concealed_S": "55p",
        "melds_S": "P1mW P2mW P3mW P4mN",
        "winning_tile_S": "5p",
        "flowers_S": "1f2f3f5f",
    }
    response = _preview(client, session, data)
    assert response.context["proposals"] == [("S", "W", "kuaizhao")]
    assert response.context["prepared"]["wins"][0]["liable"] == "W"
    assert "包牌" in response.content.decode()


def _error_beside(response, field):
    form = response.context["form"]
    assert form.errors.get(field), form.errors
    return form.errors[field][0]


def test_a_scoring_error_is_shown_in_chinese_beside_the_hard_flowers(client, member, session):
    client.force_login(member)
    response = _preview(client, session, {**QUICK, "hard_S": "1"})
    message = _error_beside(response, "hard_S")
    assert re.search(r"[\u4e00-\u9fff]", message)
    assert "preview" not in response.context
    assert not Hand.objects.exists()


def test_a_bad_tile_hand_is_shown_beside_the_concealed_tiles(client, member, session):
    client.force_login(member)
    data = {"winners": ["S"], "discarder": "E", "concealed_S": "123m456m789m11p22p"}
    message = _error_beside(_preview(client, session, data), "concealed_S")
    assert "张" in message


def test_clashing_features_are_shown_beside_the_features(client, member, session):
    client.force_login(member)
    data = {**QUICK, "features_S": ["qidui", "menqing"]}
    assert "七对" in _error_beside(_preview(client, session, data), "features_S")


def test_a_bad_kong_row_is_shown_beside_it(client, member, session):
    client.force_login(member)
    data = {**QUICK, "kong_seat_1": "W", "kong_type_1": "exposed", "kong_from_1": ""}
    response = _preview(client, session, data)
    form = response.context["form"]
    assert form.errors.get("kong_from_1") or form.errors.get("kong_type_1"), form.errors


def test_a_bad_meld_is_refused_before_scoring(client, member, session):
    client.force_login(member)
    data = {"winners": ["S"], "discarder": "E", "concealed_S": "11p", "melds_S": "X9m"}
    assert "X9m" in _error_beside(_preview(client, session, data), "melds_S")


def test_a_winner_cannot_have_dealt_in(client, member, session):
    client.force_login(member)
    _error_beside(_preview(client, session, {**QUICK, "discarder": "S"}), "discarder")


def test_a_winner_needs_flowers_or_tiles(client, member, session):
    client.force_login(member)
    _error_beside(_preview(client, session, {"winners": ["S"], "discarder": "E"}), "hard_S")


def test_a_worksite_table_offers_false_wins_and_its_patterns(client, member):
    session = TableSessionFactory(ruleset=shipped("jiangsu-worksite"))
    client.force_login(member)
    response = client.get(_url(session))
    body = response.content.decode()
    assert 'name="false_wins"' in body and "一条龙" in body and "门清" not in body
    data = {"winners": ["S"], "discarder": "E", "hard_S": "3"}
    message = _error_beside(_preview(client, session, data), "hard_S")
    assert re.search(r"[\u4e00-\u9fff]", message)


def test_an_ended_session_sends_the_recorder_back(client, member, session):
    services.session_end(session=session)
    client.force_login(member)
    assert client.get(_url(session)).status_code == 302


def test_accountants_cannot_enter_hands(client, accountant, session):
    client.force_login(accountant)
    assert client.get(_url(session)).status_code == 403


def test_melds_parse_into_the_contract():
    assert parse_melds("P5sW k7m U3pS") == [
        {"type": "pong", "tile": "5s", "from": "W", "upgraded": False},
        {"type": "kong", "tile": "7m", "from": None, "upgraded": False},
        {"type": "kong", "tile": "3p", "from": "S", "upgraded": True},
    ]


def test_conflicts_are_symmetric():
    found = conflicts(shipped())
    assert "menqing" in found["qidui"] and "qidui" in found["menqing"]
    assert "qingyise" in found["hunyise"]
    assert "haohua_qidui" in found["qidui"]


def test_the_form_builds_a_quick_record():
    form = HandEntryForm(QUICK, ruleset=shipped())
    assert form.is_valid(), form.errors
    assert form.record()["wins"] == [
        {"seat": "S", "discarder": "E", "hard_flowers": 4, "soft_flowers": 0, "features": []}
    ]


# sign-offs


def test_a_seated_player_confirms_a_hand_on_their_phone(client, member, session):
    Seat.objects.filter(session=session, wind="W").update(user=member)
    hand = book(session, discard_win("S", "E"))
    client.force_login(member)
    page = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert reverse("play:hand_signoff", args=[session.pk, hand.number]) in page
    client.post(reverse("play:hand_signoff", args=[session.pk, hand.number]))
    client.post(reverse("play:hand_signoff", args=[session.pk, hand.number]))
    assert list(HandSignoff.objects.values_list("seat", flat=True)) == ["W"]
    page = client.get(reverse("play:hand", args=[session.pk, hand.number])).content.decode()
    assert "✓" in page


def test_someone_not_seated_cannot_confirm(client, accountant, session):
    hand = book(session, discard_win("S", "E"))
    client.force_login(accountant)
    client.post(reverse("play:hand_signoff", args=[session.pk, hand.number]))
    assert not HandSignoff.objects.exists()


def test_a_reversal_needs_no_confirmation(member, session):
    Seat.objects.filter(session=session, wind="W").update(user=member)
    entry = services.hand_void(hand=book(session, discard_win()), reason="x", user=None)
    with pytest.raises(services.ValidationError):
        services.hand_signoff(hand=entry, user=member)


def test_uuid_keys_from_the_page_are_checked(client, member, session):
    client.force_login(member)
    data = {**QUICK, "confirm": "1", "key": "not-a-uuid", "previewed": "", "basis": "0"}
    response = client.post(_url(session), data)
    assert response.status_code == 200
    uuid.UUID(response.context["key"])
    assert not Hand.objects.exists()


def test_a_phone_that_loses_the_race_gets_a_fresh_preview(client, member, session, monkeypatch):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)
    real = services.hand_record

    def slower_phone(**kwargs):
        # the other phone books between this phone's check and its lock
        real(session=session, record=discard_win("S", "E"), idempotency_key=uuid.uuid4(), user=None)
        return real(**kwargs)

    monkeypatch.setattr(services, "hand_record", slower_phone)
    response = client.post(_url(session), data)
    assert response.status_code == 200 and "preview" in response.context
    assert response.context["basis"] == "1"
    assert Hand.objects.count() == 1


def test_an_error_at_booking_lands_on_the_form(client, member, session, monkeypatch):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)

    def refused(**kwargs):
        raise services.scoring.ScoringError("no", field="wins[0].hard_flowers", zh="不行")

    monkeypatch.setattr(services, "hand_record", refused)
    response = client.post(_url(session), data)
    assert response.context["form"].errors["hard_S"] == ["不行"]


def test_a_session_ended_before_the_confirm_says_so(client, member, session, monkeypatch):
    client.force_login(member)
    data = _confirm_data(_preview(client, session, QUICK), QUICK)

    def ended(**kwargs):
        raise services.SessionClosedError("The session has ended.")

    monkeypatch.setattr(services, "hand_record", ended)
    response = client.post(_url(session), data)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not Hand.objects.exists()


@pytest.mark.parametrize("family", ["nanjing", "jiangsu-worksite"])
def test_empty_boxes_clean_to_what_django_gives_them(family):
    from django import forms as django_forms

    from clubapp.play.entry import HandEntryForm
    from clubapp.play.tests.factories import shipped

    ruleset = shipped(family)
    every_box = dict.fromkeys(HandEntryForm(ruleset=ruleset).fields, "")
    payloads = [
        {},
        every_box,
        {**every_box, "winners": ["S"], "hard_S": "4", "soft_S": "", "features_S": []},
        {**every_box, "winners": ["E", "W"], "discarder": "N", "hard_E": "x", "liable_W": "Q"},
        {"winners": ["S"], "concealed_S": " 123m ", "melds_S": "P5sW", "kong_seat_0": "E"},
        {**every_box, "winners": ["E", "W"], "discarder": "N", "hard_E": "x", "liable_W": "Q"},
    ]
    for data in payloads:
        ours, django_way = (HandEntryForm(data, ruleset=ruleset) for _ in range(2))
        for form in (ours, django_way):
            form.cleaned_data, form._errors = {}, {}
        ours._clean_fields()
        django_forms.Form._clean_fields(django_way)
        assert ours.cleaned_data == django_way.cleaned_data, data
        assert ours.errors == django_way.errors, data
    assert ours.errors  # the last payloads hold bad values: both refuse them alike


def test_the_written_out_chips_are_the_inputs_django_would_render():
    from clubapp.play.templatetags.play import chip

    ruleset = shipped("jiangsu-worksite")
    data = {"winners": ["S"], "discarder": "E", "features_S": ["qingyise"], "dead_hands": ["N"]}
    form = HandEntryForm(data, ruleset=ruleset)
    names = ["winners", "discarder", "features_S", "flags_S", "false_wins", "dead_hands"]
    options = [option for name in names for option in form[name]]
    assert len(options) > 20 and sum("checked" in chip(o) for o in options) == 4
    for option in options:
        assert str(chip(option)) == str(option.tag())


@pytest.mark.parametrize("family", ["nanjing", "jiangsu-worksite"])
def test_the_written_out_boxes_are_the_widgets_django_would_render(family):
    import re as regex

    from clubapp.play.templatetags.play import widget

    def same(html):  # the templates put line breaks between tags; browsers ignore them
        return regex.sub(r">\s+<", "><", str(html)).strip()

    ruleset = shipped(family)
    forms_ = [
        HandEntryForm(ruleset=ruleset),  # the empty page
        HandEntryForm(
            {**QUICK, "liable_S": "W", "concealed_S": "12<3m", "kong_seat_0": "E"}, ruleset=ruleset
        ),  # fmt: skip
        HandEntryForm({"winners": ["S"], "hard_S": "x", "kong_type_1": "exposed"}, ruleset=ruleset),
    ]
    forms_[2].is_valid()  # errors: aria-invalid and aria-describedby
    seen = 0
    for form in forms_:
        for name in form.fields:
            bound = form[name]
            assert same(widget(bound)) == same(bound), (name, widget(bound), str(bound))
            seen += 1
    assert forms_[2]["hard_S"].errors and 'aria-invalid="true"' in str(widget(forms_[2]["hard_S"]))
    assert "12&lt;3m" in str(widget(forms_[1]["concealed_S"]))
    assert seen > 150
