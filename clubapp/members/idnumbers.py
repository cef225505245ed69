"""居民身份证 numbers (GB 11643): checked with python-stdnum, shown masked, never logged.

Region codes: stdnum's table of 6-digit 行政区划代码 lags behind life (new districts
get new codes). A number whose province (first two digits) is unknown is refused;
one whose province is known but whose 6-digit code is missing from the table is
accepted with a warning for the desk to look at the card (docs/members.md).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.views.decorators.debug import sensitive_variables
from stdnum.cn import ric
from stdnum.exceptions import ValidationError as StdnumError

# 省级行政区划代码 present in stdnum's table (mainland, 71 台湾, 81 香港, 82 澳门).
PROVINCE_CODES = frozenset(
    "11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 44 45 46 "
    "50 51 52 53 54 61 62 63 64 65 71 81 82".split()
)


@dataclass(frozen=True)
class CheckedIdNumber:
    number: str
    birth_date: dt.date
    # Chinese, for the desk; empty when the region code is in the table.
    warning: str = ""


def id_number_normalize(raw: str) -> str:
    """The number as stored: full-width digits in ASCII, no spaces or dashes, X upper-case."""
    return ric.compact("".join((raw or "").split()).replace("-", ""))


@sensitive_variables()
def id_number_check(raw: str, *, today: dt.date | None = None) -> CheckedIdNumber:
    """Normalise and check an 18-character number; raise ValidationError in Chinese.

    The messages never repeat the number: they end up on screens and maybe in logs.
    """
    number = id_number_normalize(raw)
    if len(number) != 18:
        raise ValidationError("身份证号码应为18位", code="id_length")
    head, last = number[:17], number[17]
    if not (head.isascii() and head.isdigit()) or last not in "0123456789X":
        raise ValidationError(
            "身份证号码格式不正确：前17位应为数字，末位为数字或X", code="id_format"
        )
    if number[-1] != ric.calc_check_digit(number):
        raise ValidationError("身份证号码校验位不正确，请核对", code="id_checksum")
    try:
        birth = ric.get_birth_date(number)
    except StdnumError:
        raise ValidationError("身份证号码中的出生日期无效", code="id_birth_date") from None
    if birth > (today or dt.date.today()) or birth.year < 1900:
        raise ValidationError("身份证号码中的出生日期无效", code="id_birth_date")
    if number[:2] not in PROVINCE_CODES:
        raise ValidationError("身份证号码的地区码无效", code="id_region")
    warning = ""
    try:
        ric.get_birth_place(number)
    except (StdnumError, KeyError):  # KeyError: stdnum 2.2 on a province without that county
        warning = "身份证号码的地区码不在对照表中（可能是新设地区），已接受，请核对证件"
    return CheckedIdNumber(number=number, birth_date=birth, warning=warning)
