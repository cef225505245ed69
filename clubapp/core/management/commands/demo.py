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
from django.core.management.base import BaseCommand
from django.db import transaction

from clubapp.core.models import DEFAULT_ROOM_SLUG, Room
from clubapp.core.roles import Role
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


class Command(BaseCommand):
    help = "Create demo accounts for each role (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        usernames = [username for username, _, _ in DEMO_ACCOUNTS]
        if get_user_model().objects.filter(username__in=usernames).exists():
            self.stdout.write("Demo data already exists; nothing changed.")
            return
        passwords: list[tuple[str, str, str]] = []
        with transaction.atomic():
            # Normally the room comes from fixtures/; a bare database still gets one.
            room, _ = Room.objects.get_or_create(
                slug=DEFAULT_ROOM_SLUG, defaults={"name": "棋牌室"}
            )
            users = {}
            for username, display_name, role in DEMO_ACCOUNTS:
                password = secrets.token_urlsafe(12)
                users[username] = user_create(
                    username=username,
                    password=password,
                    room=room,
                    roles=[role],
                    first_name=display_name,
                )
                passwords.append((username, role.value, password))
            for app in DEMO_APPS:
                try:
                    module = importlib.import_module(f"{app}.demo")
                except ModuleNotFoundError as exc:
                    if exc.name != f"{app}.demo":
                        raise
                    continue
                module.seed(room=room, users=users)
        self.stdout.write(
            self.style.SUCCESS("Demo accounts created. Passwords are shown only once:")
        )
        for username, role_name, password in passwords:
            self.stdout.write(f"  {username:<12} {role_name:<4} {password}")
