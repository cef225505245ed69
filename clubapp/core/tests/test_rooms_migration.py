"""An existing one-room database moves to the rooms migrations without losing a row
(docs/rooms.md): the demo room is taken back to the state before them and forward
again; every table keeps its row count and the sums of its number columns, and every
row is in the room."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection, models
from django.db.migrations.executor import MigrationExecutor

from clubapp.core import roomguards
from clubapp.core.models import Room
from clubapp.core.roles import Role

#: each app's last migration before the rooms
BEFORE_ROOMS = [
    ("core", "0008_room_fund_may_go_negative"),
    ("members", "0012_card_receipt_request_keys"),
    ("books", "0013_income_compensation_category"),
    ("play", "0018_ledger_zero_sum_everywhere"),
    ("activities", "0001_activities"),
]

NUMBERS = (models.IntegerField, models.DecimalField, models.BigIntegerField)


def _ours() -> list[type[models.Model]]:
    return [m for m in apps.get_models() if m.__module__.startswith("clubapp.")]


def _figures() -> dict[str, tuple[int, ...]]:
    """Per table: its row count, then the sum of each number column (not the keys, not
    the room column, which the migration adds)."""
    found: dict[str, tuple[int, ...]] = {}
    with connection.cursor() as cursor:
        for model in _ours():
            columns = [
                f.column
                for f in model._meta.concrete_fields
                if isinstance(f, NUMBERS) and not f.primary_key and f.column != "room_id"
            ]
            sums = "".join(f", SUM({c})" for c in columns)
            cursor.execute(f'SELECT COUNT(*){sums} FROM "{model._meta.db_table}"')
            row = cursor.fetchone()
            found[model._meta.db_table] = tuple(
                int(v) if isinstance(v, int) else Decimal(str(v or 0)) for v in row
            )
    return found


@pytest.mark.django_db(transaction=True)
def test_the_demo_room_moves_forward_without_losing_a_row():
    # a transactional test before this one flushed the migrations' role groups
    for role in Role:
        Group.objects.get_or_create(name=role.value)
    call_command("demo", stdout=open("/dev/null", "w"))
    before = _figures()
    assert before["play_hand"][0] > 0 and before["books_incomeentry"][0] > 0
    executor = MigrationExecutor(connection)
    executor.migrate([t for t in BEFORE_ROOMS if t in executor.loader.graph.nodes])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    call_command("migrate", verbosity=0)  # the post_migrate triggers and policies
    assert _figures() == before
    room = Room.objects.get()
    for model in roomguards.room_keyed_models():
        rooms = set(model.objects.values_list("room_id", flat=True).distinct())
        if model._meta.get_field("room").null:
            rooms.discard(None)  # the shared rows (the standard rulesets): every room's
        assert rooms <= {room.pk}, model._meta.label
