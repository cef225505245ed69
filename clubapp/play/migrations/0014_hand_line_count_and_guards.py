"""Issue 11 item 4: the database refuses what would rewrite a night around the app.

Every journal row gets how many ledger lines it has (``line_count``), filled for the
rows already booked from their lines (their append-only triggers lifted for the fill
and put back; SQLite rebuilds the table for the new column, so its triggers are
created again anyway). Then the guards of ``clubapp/play/guards.py``: no line beyond
a row's count (PostgreSQL also checks at commit that a row has exactly its lines),
seats and a session's rules frozen once a hand is booked, no sign-off of a voided hand.
"""

from django.db import migrations, models

from clubapp.core.appendonly import drop_sql
from clubapp.core.triggers import InstallTriggers


def fill(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in drop_sql(vendor, "play_hand"):
        schema_editor.execute(statement, params=None)
    schema_editor.execute(
        "UPDATE play_hand SET line_count = "
        "(SELECT COUNT(*) FROM play_ledgerline WHERE play_ledgerline.hand_id = play_hand.id)",
        params=None,
    )


class Migration(migrations.Migration):
    dependencies = [("play", "0013_session_table")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="line_count",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="ledger lines"),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        InstallTriggers("append_only", "hand"),
        InstallTriggers("play_guards"),
    ]
