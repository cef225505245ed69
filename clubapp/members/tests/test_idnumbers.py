from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from clubapp.members.idnumbers import id_number_check
from clubapp.members.models import mask_id_number
from clubapp.members.tests.factories import make_id_number

VALID = "11010519491231002X"  # GB 11643's own example


def test_it_accepts_a_valid_number_and_reads_the_birth_date():
    checked = id_number_check(VALID)
    assert checked.number == VALID
    assert checked.birth_date == dt.date(1949, 12, 31)
    assert checked.warning == ""


@pytest.mark.parametrize(
    "typed", [" 110105 19491231 002x ", "110105-19491231-002X", "１１010519491231002X"]
)
def test_it_normalises_spaces_dashes_full_width_digits_and_a_lower_case_x(typed):
    assert id_number_check(typed).number == VALID


@pytest.mark.parametrize(
    ("number", "code"),
    [
        ("110105194912310021", "id_checksum"),  # wrong check digit
        ("1101051949123100", "id_length"),
        ("110105194912310", "id_length"),  # 15-digit numbers are no longer issued
        ("11010519491231002Y", "id_format"),
        ("", "id_length"),
    ],
)
def test_it_refuses_a_malformed_number(number, code):
    with pytest.raises(ValidationError) as info:
        id_number_check(number)
    assert info.value.code == code


def test_it_refuses_an_impossible_birth_date():
    body = "11010519490230002"  # 30 February
    from stdnum.cn import ric

    number = body + ric.calc_check_digit(body + "0")
    with pytest.raises(ValidationError) as info:
        id_number_check(number)
    assert info.value.code == "id_birth_date"


def test_it_refuses_a_birth_date_in_the_future():
    number = make_id_number(1)
    with pytest.raises(ValidationError) as info:
        id_number_check(number, today=dt.date(1900, 1, 1))
    assert info.value.code == "id_birth_date"


def test_it_refuses_an_unknown_province():
    with pytest.raises(ValidationError) as info:
        id_number_check(make_id_number(3, region="990101"))
    assert info.value.code == "id_region"


def test_it_accepts_a_region_missing_from_the_table_with_a_warning():
    # 320199: a known province (江苏) but no such county in stdnum's table.
    checked = id_number_check(make_id_number(4, region="320199"))
    assert "地区码" in checked.warning


def test_its_messages_never_repeat_the_number():
    with pytest.raises(ValidationError) as info:
        id_number_check("110105194912310021")
    assert "110105194912310021" not in " ".join(info.value.messages)


def test_it_masks_all_but_the_first_four_and_last_four():
    assert mask_id_number(VALID) == "1101**********002X"
    assert mask_id_number("320102195006011232") == "3201**********1232"  # the issue's own


@pytest.mark.parametrize(
    ("region", "birth_year"),
    [
        ("320102", 1950),  # 南京 玄武区, in the table since 1983: a regular born before
        ("320105", 1932),  # 南京 建邺区
        ("110103", 2015),  # 北京 崇文区, gone in 2010: numbers given before still count
    ],
)
def test_a_region_code_that_ever_existed_is_valid_whatever_the_birth_date(region, birth_year):
    from stdnum.cn import ric

    body = f"{region}{birth_year}0601123"
    checked = id_number_check(body + ric.calc_check_digit(body + "0"))
    assert checked.warning == ""


def test_a_region_code_that_never_existed_still_warns():
    assert id_number_check(make_id_number(4, region="320199")).warning


@pytest.mark.parametrize(
    ("number", "english"),
    [
        ("12345", "18 characters"),
        ("110105194912310021", "check digit"),
        ("11010519491231002Y", "malformed"),
    ],
)
def test_id_errors_are_english_in_english_mode(number, english):
    from django.utils import translation

    with translation.override("en"), pytest.raises(ValidationError) as info:
        id_number_check(number)
    assert english in info.value.messages[0]
    with translation.override("zh-hans"), pytest.raises(ValidationError) as info:
        id_number_check(number)
    assert "身份证号码" in info.value.messages[0]
