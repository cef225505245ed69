"""The room's tables at which a session is open are marked in play (members.Table.in_play):
the desk reads that mark instead of asking the play app."""

from django.db import migrations


def mark(apps, schema_editor):
    Table = apps.get_model("members", "Table")
    TableSession = apps.get_model("play", "TableSession")
    db = schema_editor.connection.alias
    sessions = TableSession.objects.using(db).filter(ended_at__isnull=True)
    for room_id, number in sessions.values_list("room_id", "table_number"):
        Table.objects.using(db).filter(room_id=room_id, number=number).update(in_play=True)


class Migration(migrations.Migration):
    dependencies = [("play", "0011_hand_state"), ("members", "0009_table_in_play")]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
