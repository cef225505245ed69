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
from django.utils.translation import gettext as _
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


def id_number_check(raw: str, *, today: dt.date | None = None) -> CheckedIdNumber:
    """Normalise and check an 18-character number; raise ValidationError in Chinese.

    The messages never repeat the number: they end up on screens and maybe in logs.
    """
    # stdnum turns full-width digits into ASCII; spaces and dashes typed at the desk go too.
    number = ric.compact("".join((raw or "").split()).replace("-", ""))
    if len(number) != 18:
        raise ValidationError(_("An ID number has 18 characters."), code="id_length")
    head, last = number[:17], number[17]
    if not (head.isascii() and head.isdigit()) or last not in "0123456789X":
        raise ValidationError(
            _("The ID number is malformed: 17 digits, then a digit or X."), code="id_format"
        )
    if number[-1] != ric.calc_check_digit(number):
        raise ValidationError(
            _("The ID number's check digit is wrong: please check it."), code="id_checksum"
        )
    try:
        birth = ric.get_birth_date(number)
    except StdnumError:
        raise ValidationError(
            _("The birth date in the ID number is not a date."), code="id_birth_date"
        ) from None
    if birth > (today or dt.date.today()) or birth.year < 1900:
        raise ValidationError(
            _("The birth date in the ID number is not a date."), code="id_birth_date"
        )
    if number[:2] not in PROVINCE_CODES:
        raise ValidationError(_("The ID number's region code is invalid."), code="id_region")
    warning = ""
    try:
        ric.get_birth_place(number)
    except (StdnumError, KeyError):  # KeyError: stdnum 2.2 on a province without that county
        warning = _(
            "The ID number's region code is not in the table (perhaps a new region): "
            "accepted, please check the card."
        )
    return CheckedIdNumber(number=number, birth_date=birth, warning=warning)
