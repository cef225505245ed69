"""PostgreSQL: settlement statements are append-only like the ledger (0004's function)."""

from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE TRIGGER play_settlement_append_only BEFORE UPDATE OR DELETE "
            "ON play_settlement FOR EACH ROW EXECUTE FUNCTION play_refuse_change();",
            params=None,
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS play_settlement_append_only ON play_settlement;",
            params=None,
        )


class Migration(migrations.Migration):
    dependencies = [("play", "0005_settlements")]

    operations = [migrations.RunPython(forwards, backwards)]
