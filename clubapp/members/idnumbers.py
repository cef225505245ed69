"""居民身份证 numbers (GB 11643): checked with python-stdnum, shown masked, never logged.

Region codes (the first six digits, GB/T 2260 行政区划代码) are looked up in every
version of the code table since 1980: the ministry's yearly lists 1981–2024 shipped
in ``data/gbt2260.csv`` (read once, at import: it is data), then python-stdnum's
table for what those lists leave out (1980, the 市辖区 codes). A number keeps the
code of where it was first issued, so a code that has since been retired is valid:
it is recognised and said to be a former one, never "new". A number whose province
(first two digits) is in no version is refused; one whose province is known but
whose 6-digit code is in no version is accepted with a warning for the desk to look
at the card (docs/members.md "Identity numbers").
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.debug import sensitive_variables
from stdnum import numdb
from stdnum.cn import ric
from stdnum.exceptions import ValidationError as StdnumError

REGION_TABLE = Path(__file__).with_name("data") / "gbt2260.csv"


@dataclass(frozen=True)
class Region:
    """A 6-digit region code as the tables know it."""

    code: str
    # 江苏省南京市市区: the province, the prefecture and the county, as last named.
    name: str
    # The first year the code was no longer in use; None while it is.
    retired_in: int | None = None


def _region_name(province: str, prefecture: str, name: str) -> str:
    parts = [province]
    if prefecture and prefecture not in ("直辖", province):
        parts.append(prefecture)
    if name not in parts:
        parts.append(name)
    return "".join(parts)


def regions_read(path: Path = REGION_TABLE) -> dict[str, Region]:
    """The codes of ``data/gbt2260.csv``: in use if any row of the code is 在用, else
    retired in the latest year a row of it was changed (变更) or retired (弃用)."""
    rows: dict[str, list[dict[str, str]]] = {}
    with path.open(encoding="utf-8-sig", newline="") as table:
        for row in csv.DictReader(table):
            rows.setdefault(row["代码"], []).append(row)
    regions = {}
    for code, versions in rows.items():
        current = [row for row in versions if row["状态"] == "在用"]
        last = current[-1] if current else max(versions, key=lambda r: int(r["变更/弃用时间"]))
        regions[code] = Region(
            code=code,
            name=_region_name(last["一级行政区"], last["二级行政区"], last["名称"]),
            retired_in=None if current else int(last["变更/弃用时间"]),
        )
    return regions


# Read once at import: the table is data that changes with a release, not at run time.
REGIONS = regions_read()
# 省级行政区划代码 of any version (mainland, 71 台湾, 81 香港, 82 澳门).
PROVINCE_CODES = frozenset(code[:2] for code in REGIONS if code.endswith("0000"))
FIRST_YEAR, LAST_YEAR = 1980, 2024  # GB 2260-80 (through stdnum), the table's last list

# stdnum's names carry their years: "[-1983]市区", "[1983-1999]郊区,[2000-]滨湖区".
_STDNUM_NAME = re.compile(r"^\[(\d{4})?-(\d{4})?\](.+)$")


def region_lookup(code: str) -> Region | None:
    """The region of a 6-digit code in any version of the tables, or None.

    The shipped table first; then stdnum's (Wikipedia's), whose last-named entry
    tells whether and when the code was retired."""
    if code in REGIONS:
        return REGIONS[code]
    parts = numdb.get("cn/loc").info(code)
    province = parts[0][1].get("province", "")
    county = next((props["county"] for _part, props in parts if "county" in props), "")
    if not county:
        return None
    # stdnum names no prefecture: take it from the shipped table when it has it.
    prefecture = REGIONS.get(code[:4] + "00")
    within = prefecture.name if prefecture and code[4:] != "00" else province
    latest = county.split(",")[-1]
    dated = _STDNUM_NAME.match(latest)
    if dated is None:
        return Region(code=code, name=_region_name(within, "", latest))
    _since, until, name = dated.groups()
    return Region(
        code=code,
        name=_region_name(within, "", name),
        retired_in=int(until) if until else None,
    )


BIRTH_DATE_INVALID = gettext_noop("The birth date in the ID card number is invalid.")


@dataclass(frozen=True)
class CheckedIdNumber:
    number: str
    birth_date: dt.date
    # For the desk, in the user's language. A warning: the region code is in no
    # version of the tables (please check the card). A note: it is a former code.
    warning: str = ""
    note: str = ""


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
        raise ValidationError(_("The ID card number must have 18 characters."), code="id_length")
    head, last = number[:17], number[17]
    if not (head.isascii() and head.isdigit()) or last not in "0123456789X":
        raise ValidationError(
            _("The ID card number is malformed: 17 digits, then a digit or X."),
            code="id_format",
        )
    if number[-1] != ric.calc_check_digit(number):
        raise ValidationError(
            _("The check digit of the ID card number is wrong: please check it."),
            code="id_checksum",
        )
    try:
        birth = ric.get_birth_date(number)
    except StdnumError:
        raise ValidationError(_(BIRTH_DATE_INVALID), code="id_birth_date") from None
    if birth > (today or dt.date.today()) or birth.year < 1900:
        raise ValidationError(_(BIRTH_DATE_INVALID), code="id_birth_date")
    if number[:2] not in PROVINCE_CODES:
        raise ValidationError(
            _("The region code of the ID card number is invalid."), code="id_region"
        )
    region = region_lookup(number[:6])
    if region is None:
        return CheckedIdNumber(
            number=number,
            birth_date=birth,
            warning=_(
                "The region code of the ID card number is in no version of the region "
                "code table (%(first)s–%(last)s): accepted, please check the card."
            )
            % {"first": FIRST_YEAR, "last": LAST_YEAR},
        )
    note = ""
    if region.retired_in is not None:
        # A number keeps the code of where it was issued: an old code is valid.
        note = _(
            "The region code of the ID card number is a former one: %(region)s, "
            "retired in %(year)s. Accepted: a number keeps the code it was issued with."
        ) % {"region": region.name, "year": region.retired_in}
    return CheckedIdNumber(number=number, birth_date=birth, note=note)
