"""Many rooms (docs/rooms.md): a card carries its room; card and receipt numbers are
unique per room (each room counts its own); a room's table names are its own; the
lists' indexes lead with the room; the room triggers of the members tables.

Members, tables, visits, receipts, ID-number viewings and opening hours had a room
already: their room key becomes the common one (PROTECT: a room with rows, its opening
hours included, is never deleted). An existing database keeps every card, in its
member's room."""

import django.db.models.deletion
from django.db import migrations, models

from clubapp.core.roomguards import FillRoom, PutTriggersBack, SetTriggersAside
from clubapp.core.triggers import InstallTriggers


def room_key(*, null: bool = False) -> models.ForeignKey:
    return models.ForeignKey(
        null=null,
        on_delete=django.db.models.deletion.PROTECT,
        related_name="+",
        to="core.room",
        verbose_name="room",
    )


def drop_triggers_naming_the_cards_room(apps, schema_editor):
    """Backwards, last: another table's same-room trigger that reads a card's room (an
    activity's violation names a card) cannot outlive the column; SQLite would refuse
    every later table rebuild. A fully migrated database gets it back (post_migrate)."""
    connection = schema_editor.connection
    reads = "%FROM members_card WHERE%"
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE %s", [reads]
            )
            statements = [f'DROP TRIGGER "{name}"' for (name,) in cursor.fetchall()]
        elif connection.vendor == "postgresql":
            cursor.execute("SELECT proname FROM pg_proc WHERE prosrc LIKE %s", [reads])
            statements = [f'DROP FUNCTION "{name}"() CASCADE' for (name,) in cursor.fetchall()]
        else:
            statements = []
    for statement in statements:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0010_district_group"),
        ("members", "0012_card_receipt_request_keys"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, drop_triggers_naming_the_cards_room),
        # SQLite rebuilds these tables (a column added and made required, a unique
        # dropped, a plain unique added): every trigger is set aside meanwhile, those of
        # other tables naming them too.
        SetTriggersAside(),
        migrations.AddField(model_name="card", name="room", field=room_key(null=True)),
        FillRoom("card", "member"),
        migrations.AlterField(model_name="card", name="room", field=room_key()),
        migrations.AlterField(
            model_name="card",
            name="number",
            field=models.CharField(max_length=20, verbose_name="card number"),
        ),
        migrations.AlterField(
            model_name="receipt",
            name="number",
            field=models.CharField(max_length=20, verbose_name="receipt number"),
        ),
        migrations.AddConstraint(
            model_name="card",
            constraint=models.UniqueConstraint(
                fields=("room", "number"), name="members_card_number_in_room"
            ),
        ),
        migrations.AddConstraint(
            model_name="receipt",
            constraint=models.UniqueConstraint(
                fields=("room", "number"), name="members_receipt_number_in_room"
            ),
        ),
        migrations.AlterField(model_name="member", name="room", field=room_key()),
        migrations.AlterField(model_name="openingexception", name="room", field=room_key()),
        migrations.AlterField(model_name="openingperiod", name="room", field=room_key()),
        migrations.AlterField(model_name="table", name="room", field=room_key()),
        migrations.AlterField(model_name="visit", name="room", field=room_key()),
        PutTriggersBack(),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(
                condition=models.Q(("name", ""), _negated=True),
                fields=("room", "name"),
                name="members_table_name_unique",
            ),
        ),
        migrations.AddIndex(
            model_name="card",
            index=models.Index(fields=["room", "valid_until"], name="members_card_room_until"),
        ),
        migrations.AddIndex(
            model_name="member",
            index=models.Index(fields=["room", "name_pinyin"], name="members_member_room_pinyin"),
        ),
        migrations.AddIndex(
            model_name="openingexception",
            index=models.Index(fields=["room", "date"], name="members_openingexc_room_date"),
        ),
        migrations.AddIndex(
            model_name="receipt",
            index=models.Index(fields=["room", "paid_at"], name="members_receipt_room_paid"),
        ),
        migrations.AddIndex(
            model_name="visit",
            index=models.Index(fields=["room", "checked_in_at"], name="members_visit_room_in"),
        ),
        InstallTriggers("rooms_members"),
    ]
