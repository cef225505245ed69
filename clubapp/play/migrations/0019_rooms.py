"""Many rooms (docs/rooms.md): every row of a table's night carries its room, sessions
and everything under them (seats, hands, ledger lines, statements, sign-offs, void
requests); a ruleset version a room saves carries that room, the standard ones none.

An existing one-room database keeps every row: each new room column is filled from
its parent (a seat's from its session, a line's from its hand), then made required;
the ruleset versions stored before stay standard (every room's, read only)."""

import django.db.models.deletion
from django.db import migrations, models

from clubapp.core.roomguards import FillRoom, PutTriggersBack, SetTriggersAside
from clubapp.core.triggers import InstallTriggers, registry

#: the new room columns and the parent each is filled from (parents first)
CHILDREN = [
    ("seat", "session"),
    ("hand", "session"),
    ("settlement", "session"),
    ("ledgerline", "hand"),
    ("handsignoff", "hand"),
    ("voidrequest", "hand"),
]


def _room(null: bool) -> models.ForeignKey:
    return models.ForeignKey(
        null=null,
        on_delete=django.db.models.deletion.PROTECT,
        related_name="+",
        to="core.room",
        verbose_name="room",
    )


def drop_others_ruleset_room_triggers(apps, schema_editor):
    """Backwards: the ruleset's room column goes, so the other apps' room triggers that
    read it (a tournament's ruleset, ``rooms_activities``) go first; SQLite would refuse
    every later table rebuild while a trigger names a missing column. A later
    ``migrate`` to the end puts them back (``restore_missing``)."""
    vendor = schema_editor.connection.vendor
    for trigger in registry():
        sql = " ".join(trigger.statements(vendor))
        if trigger.group != "rooms_play" and "FROM play_rulesetversion" in sql:
            for statement in trigger.drop_sql(vendor):
                schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("core", "0010_district_group"),
        ("play", "0018_ledger_zero_sum_everywhere"),
        # sessions and seats point to tables and visits: their room triggers read
        # members' room columns, made required there first
        ("members", "0013_rooms"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, drop_others_ruleset_room_triggers),
        # SQLite rebuilds a table to add or drop a column and refuses while another
        # table's trigger names it: every trigger is set aside until the columns stand
        SetTriggersAside(),
        migrations.AddField(
            model_name="rulesetversion",
            name="room",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        *(
            migrations.AddField(model_name=model, name="room", field=_room(null=True))
            for model, _parent in CHILDREN
        ),
        *(FillRoom(model, parent) for model, parent in CHILDREN),
        *(
            migrations.AlterField(model_name=model, name="room", field=_room(null=False))
            for model, _parent in CHILDREN
        ),
        migrations.AlterField(model_name="tablesession", name="room", field=_room(null=False)),
        migrations.RemoveConstraint(
            model_name="rulesetversion",
            name="play_rulesetversion_unique",
        ),
        migrations.AddConstraint(
            model_name="rulesetversion",
            constraint=models.UniqueConstraint(condition=models.Q(("room__isnull", True)), fields=("ruleset_id", "version"), name="play_rulesetversion_standard_unique"),
        ),
        migrations.AddConstraint(
            model_name="rulesetversion",
            constraint=models.UniqueConstraint(fields=("room", "ruleset_id", "version"), name="play_rulesetversion_unique_in_room"),
        ),
        migrations.AddIndex(
            model_name="tablesession",
            index=models.Index(fields=["room", "-started_at"], name="play_session_room_started"),
        ),
        PutTriggersBack(),
        InstallTriggers("rooms_play"),
    ]
