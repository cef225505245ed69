"""Hands, ledger lines, statements and sign-offs get the one append-only base's
triggers (core), on SQLite too; the PostgreSQL-only row triggers of 0004 and 0006
give way to them. 0004's deferred balance trigger stays."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers

OLD_TABLES = ["play_hand", "play_ledgerline", "play_settlement"]


def drop_old(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in OLD_TABLES:
            schema_editor.execute(
                f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}", params=None
            )
        schema_editor.execute("DROP FUNCTION IF EXISTS play_refuse_change()", params=None)


def restore_old(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE FUNCTION play_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'play: % rows are append-only (% refused)', "
            "TG_TABLE_NAME, TG_OP USING ERRCODE = '23000'; END $$",
            params=None,
        )
        for table in OLD_TABLES:
            schema_editor.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION play_refuse_change()",
                params=None,
            )


class Migration(migrations.Migration):
    dependencies = [("play", "0008_seat_visit")]

    operations = [
        migrations.RunPython(drop_old, restore_old),
        InstallTriggers("append_only", "hand"),
        InstallTriggers("append_only", "ledgerline"),
        InstallTriggers("append_only", "settlement"),
        InstallTriggers("append_only", "handsignoff"),
    ]
