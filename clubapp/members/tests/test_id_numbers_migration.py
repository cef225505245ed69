"""The data migration that encrypts the ID numbers of existing members (members/0006)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from clubapp.core.tests.factories import RoomFactory
from clubapp.members.models import Member
from clubapp.members.tests.factories import MemberFactory, make_id_number


def _row_text(member: Member) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Member._meta.db_table} WHERE id = %s", [member.pk])
        return " ".join(str(value) for value in cursor.fetchone())


@pytest.mark.django_db(transaction=True)
def test_the_migration_encrypts_existing_rows():
    before, after = (
        ("members", "0005_id_number_encrypted_fields"),
        ("members", "0007_id_number_clear_column_dropped"),
    )
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    executor.loader.build_graph()
    old_apps = executor.loader.project_state([before]).apps
    OldMember = old_apps.get_model("members", "Member")
    room = RoomFactory()  # core's table is not rolled back: today's model makes the row
    numbers = [make_id_number(n) for n in (7, 8)]
    for n, number in enumerate(numbers):
        OldMember.objects.create(room_id=room.pk, name=f"老会员{n}", phone="1", id_number=number)
    executor = MigrationExecutor(connection)
    executor.migrate([after])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    migrated = {m.name: m for m in Member.objects.all()}
    assert [migrated[f"老会员{n}"].id_number for n in range(2)] == numbers
    for member in migrated.values():
        assert member.id_number not in _row_text(member)
    # Two rows with one number can no longer be stored.
    with pytest.raises(IntegrityError), transaction.atomic():
        MemberFactory(room=room, id_number=numbers[0])
