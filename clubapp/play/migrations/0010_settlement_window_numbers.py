"""A statement's window names journal rows by number: first_entry/last_entry become
first_number/last_number (a journal row is not an "entry": the entry is the form).
SQLite rebuilds the table for the constraints, so its append-only triggers are put
back (forwards at the end, backwards at the start of the reversal's end)."""

from django.db import migrations, models

from clubapp.core.appendonly import create_sql
from clubapp.core.triggers import InstallTriggers


def restore_triggers(apps, schema_editor):
    table = apps.get_model("play", "Settlement")._meta.db_table
    for statement in create_sql(schema_editor.connection.vendor, table):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("play", "0009_append_only_everywhere")]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, restore_triggers),
        migrations.RemoveConstraint(model_name="settlement", name="play_settlement_window_unique"),
        migrations.RemoveConstraint(model_name="settlement", name="play_settlement_window_valid"),
        migrations.RenameField(
            model_name="settlement", old_name="first_entry", new_name="first_number"
        ),
        migrations.RenameField(
            model_name="settlement", old_name="last_entry", new_name="last_number"
        ),
        migrations.AlterField(
            model_name="settlement",
            name="first_number",
            field=models.PositiveIntegerField(verbose_name="from #"),
        ),
        migrations.AlterField(
            model_name="settlement",
            name="last_number",
            field=models.PositiveIntegerField(verbose_name="through #"),
        ),
        migrations.AddConstraint(
            model_name="settlement",
            constraint=models.UniqueConstraint(
                fields=("session", "last_number"), name="play_settlement_window_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="settlement",
            constraint=models.CheckConstraint(
                condition=models.Q(first_number__gte=1)
                & models.Q(last_number__gte=models.F("first_number")),
                name="play_settlement_window_valid",
            ),
        ),
        InstallTriggers("append_only", "settlement"),
    ]
