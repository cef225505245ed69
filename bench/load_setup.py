"""The room of the load scenario (``bench/load.py``), made through the services.

    DATABASE_URL=... python bench/load_setup.py --tables 20 --out .load/accounts.json

On a freshly migrated database (``bench/load.py`` makes it): the room of the fixtures,
open 00:00–23:00 every day (the latest the app allows), ``--tables`` tables in play and
four free (a non-member is admitted only while a table is free); four members at each
table, each with a card and checked in at the desk, the session opened by the desk on
their visits under 南京麻将. Accounts with random passwords: at each table the member at
东 records (the recorder's phone) and the member at 南 reads (the second phone); the
desk (a manager), the accountant, and a member who only opens the bare view. Writes the
accounts and what the books held before the run (the receipts the cards paid) as JSON.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load_settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from stdnum.cn import ric  # noqa: E402

from clubapp.books.models import IncomeEntry  # noqa: E402
from clubapp.core.models import Room  # noqa: E402
from clubapp.core.roles import Role  # noqa: E402
from clubapp.core.services import user_create  # noqa: E402
from clubapp.members import services as members  # noqa: E402
from clubapp.members.models import Receipt, Table  # noqa: E402
from clubapp.play import services as play  # noqa: E402
from clubapp.play.models import SEATS  # noqa: E402

FREE_TABLES = 4
OPEN_ALL_DAY = [(day, dt.time(0), dt.time(23)) for day in range(7)]
WIND_NAMES = dict(zip(SEATS, "东南西北", strict=True))


def id_number(sequence: int) -> str:
    """A valid 居民身份证 number of 南京市玄武区, one per member."""
    body = f"32010219700101{sequence:03d}"
    return body + ric.calc_check_digit(body + "0")


def account(username: str, room: Room, roles: list[Role], name: str) -> tuple[User, dict[str, str]]:
    """An account with a random password: (the user, its login)."""
    password = secrets.token_urlsafe(12)
    user = user_create(
        username=username, password=password, room=room, roles=roles, first_name=name
    )
    return user, {"username": username, "password": password}


@transaction.atomic
def build(tables: int) -> dict[str, object]:
    room = Room.objects.get(slug="main")
    members.opening_hours_set(room=room, periods=OPEN_ALL_DAY)
    for number in range(1, tables + FREE_TABLES + 1):
        Table.objects.get_or_create(room=room, number=number)
    desk, desk_login = account("desk", room, [Role.MANAGER], "前台")
    out: dict[str, object] = {
        "desk": desk_login,
        "accountant": account("accountant", room, [Role.ACCOUNTANT], "会计")[1],
        "yardstick": account("yardstick", room, [Role.MEMBER], "量尺")[1],
    }
    version = next(v for v in play.ruleset_versions_sync() if v.ruleset_id == "nanjing")
    at_tables = []
    sequence = 0
    for number in range(1, tables + 1):
        visits = {}
        logins = {}
        for wind in SEATS:
            sequence += 1
            name = f"牌友{number:02d}{WIND_NAMES[wind]}"
            user = None
            if wind in ("E", "S"):
                role = "recorder" if wind == "E" else "poller"
                user, logins[role] = account(f"t{number:02d}-{role}", room, [Role.MEMBER], name)
            member = members.member_create(
                room=room,
                name=name,
                phone=f"139{sequence:08d}",
                id_number=id_number(sequence),
                user=user,
                by=desk,
            )
            card = members.card_issue(member=member, by=desk)
            visits[wind] = members.visit_check_in(room=room, card=card, by=desk)
        session = play.session_create(
            room=room,
            table=Table.objects.get(room=room, number=number),
            ruleset=version,
            seats=[play.SeatIn(wind=wind, visit=visits[wind]) for wind in SEATS],
            by=desk,
        )
        at_tables.append({"table": number, "session": session.pk, **logins})
    out["tables"] = at_tables
    # what the books held before the run: the receipts and income of the cards
    out["receipts_before"] = sorted(Receipt.objects.values_list("number", flat=True))
    out["incomes_before"] = IncomeEntry.objects.count()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--out", type=Path, required=True)
    options = parser.parse_args()
    call_command("migrate", verbosity=0)
    call_command("loaddefaults", verbosity=0)
    data = build(options.tables)
    options.out.write_text(json.dumps(data, ensure_ascii=False, indent=1))
    print(f"setup: {options.tables} tables in play, accounts in {options.out}")


if __name__ == "__main__":
    main()
