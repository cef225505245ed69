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


def test_it_accepts_a_region_missing_from_every_table_with_a_warning():
    # 320199: a known province (江苏) but no such county in any version of the tables.
    checked = id_number_check(make_id_number(4, region="320199"))
    assert "地区码不在任何一版行政区划代码表" in checked.warning
    assert checked.note == ""
    assert "新" not in checked.warning  # unknown is not "new": it may be a typo


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


def _number(region: str, birth_year: int = 1950) -> str:
    from stdnum.cn import ric

    body = f"{region}{birth_year}0601123"
    return body + ric.calc_check_digit(body + "0")


@pytest.mark.parametrize(
    ("region", "place", "year"),
    [
        ("132733", "河北省唐山地区唐海县", 1983),  # 1982-1983: not in stdnum's table
        ("329012", "江苏省昆山市", 1990),  # 1989's 省直辖 code, renumbered 320583
        ("230834", "黑龙江省佳木斯市友谊县", 1991),
        ("320120", "江苏省南京市市区", 1983),  # 南京's pre-1983 市区
        ("110201", "北京市昌平县", 1982),  # GB 2260-80, through stdnum's table
        ("320103", "江苏省南京市白下区", 2013),
    ],
)
def test_a_retired_region_code_is_recognised_as_a_former_region(region, place, year):
    checked = id_number_check(_number(region))
    assert checked.warning == ""
    assert place in checked.note and str(year) in checked.note
    assert "旧行政区划代码" in checked.note and "新" not in checked.note


def test_a_code_created_after_stdnums_table_is_current_with_no_message():
    checked = id_number_check(_number("330113", 1990))  # 杭州 临平区, 2021
    assert (checked.warning, checked.note) == ("", "")


def test_the_region_messages_are_english_in_english_mode():
    from django.utils import translation

    with translation.override("en"):
        old = id_number_check(_number("132733")).note
        unknown = id_number_check(make_id_number(4, region="320199")).warning
    assert "former one: 河北省唐山地区唐海县, retired in 1983" in old
    assert "in no version of the region code table (1980–2024)" in unknown


def test_every_version_of_the_table_is_read(tmp_path):
    from clubapp.members.idnumbers import REGIONS, regions_read

    assert REGIONS["320102"].retired_in is None and REGIONS["132733"].retired_in == 1983
    # A code given up and later given to another county is that county's, in use.
    table = tmp_path / "codes.csv"
    table.write_text(
        "代码,一级行政区,二级行政区,名称,级别,状态,启用时间,变更/弃用时间,新代码\n"
        "320211,江苏省,无锡市,郊区,县级,弃用,1983,2000,\n"
        "320211,江苏省,无锡市,滨湖区,县级,在用,2000,,\n"
        "340511,安徽省,马鞍山市,郊区,县级,变更,1983,1984,340505\n",
        encoding="utf-8-sig",
    )
    regions = regions_read(table)
    assert regions["320211"].name == "江苏省无锡市滨湖区"
    assert regions["320211"].retired_in is None
    assert regions["340511"].retired_in == 1984


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
