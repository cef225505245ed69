"""Create the demo room: accounts, one per role, with fresh random passwords printed
once, then whatever each app adds (its ``demo.seed(room=..., users=...)``, silent,
called in DEMO_APPS order inside the same transaction).

Idempotent: if any demo account exists it says so and changes nothing, so
`make run` can be repeated without touching the data.
"""

from __future__ import annotations

import importlib
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from clubapp.core.models import DEFAULT_ROOM_SLUG, Room
from clubapp.core.roles import Role
from clubapp.core.rooms import scope
from clubapp.core.services import user_create

# Apps that add demo data, in order: each may have a ``demo`` module with ``seed()``.
DEMO_APPS = [
    "clubapp.members",
    "clubapp.books",
    "clubapp.play",
    "clubapp.activities",
    "clubapp.reports",
]

# username, display name, role
DEMO_ACCOUNTS: list[tuple[str, str, Role]] = [
    ("manager", "王经理", Role.MANAGER),
    # a second manager: the duty roster takes turns, and one covers the other's leave
    ("manager2", "陈管理员", Role.MANAGER),
    ("accountant", "李会计", Role.ACCOUNTANT),
    ("approver", "张负责人", Role.APPROVER),
    ("member", "赵会员", Role.MEMBER),
]


#: the demo rooms: code, name, the prefix of their accounts' usernames. The second
#: (``--rooms 2``, what ``make run`` asks) shows one deployment serving two rooms.
DEMO_ROOMS: list[tuple[str, str, str]] = [
    (DEFAULT_ROOM_SLUG, "棋牌室", ""),
    ("east", "东区文化活动中心", "east-"),
]
#: reads both rooms' monthly totals, belongs to neither (docs/rooms.md)
DISTRICT_ACCOUNT = ("district", "周片区", Role.DISTRICT)


class Command(BaseCommand):
    help = "Create demo accounts for each role (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rooms",
            type=int,
            choices=range(1, len(DEMO_ROOMS) + 1),
            default=1,
            help="how many demo rooms (2 adds a second room and a district reader)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        usernames = [username for username, _, _ in DEMO_ACCOUNTS]
        if get_user_model().objects.filter(username__in=usernames).exists():
            self.stdout.write("Demo data already exists; nothing changed.")
            return
        passwords: list[tuple[str, str, str]] = []
        with transaction.atomic():
            for slug, name, prefix in DEMO_ROOMS[: options["rooms"]]:
                # Normally the first room comes from fixtures/; a bare database gets one.
                room, _ = Room.objects.get_or_create(slug=slug, defaults={"name": name})
                users = {}
                for username, display_name, role in DEMO_ACCOUNTS:
                    password = secrets.token_urlsafe(12)
                    users[username] = user_create(
                        username=prefix + username,
                        password=password,
                        room=room,
                        roles=[role],
                        first_name=display_name,
                    )
                    passwords.append((prefix + username, role.value, password))
                with scope(room):
                    self.seed(room=room, users=users)
            if options["rooms"] > 1:
                username, display_name, role = DISTRICT_ACCOUNT
                password = secrets.token_urlsafe(12)
                user_create(
                    username=username,
                    password=password,
                    room=None,
                    roles=[role],
                    first_name=display_name,
                )
                passwords.append((username, role.value, password))
        self.stdout.write(
            self.style.SUCCESS("Demo accounts created. Passwords are shown only once:")
        )
        for username, role_name, password in passwords:
            self.stdout.write(f"  {username:<18} {role_name:<4} {password}")

    @staticmethod
    def seed(*, room: Room, users: dict[str, Any]) -> None:
        for app in DEMO_APPS:
            try:
                module = importlib.import_module(f"{app}.demo")
            except ModuleNotFoundError as exc:
                if exc.name != f"{app}.demo":
                    raise
                continue
            module.seed(room=room, users=users)
