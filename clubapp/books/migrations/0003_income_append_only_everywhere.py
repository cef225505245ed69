"""The income entries' trigger now comes from the one append-only base (core), which
also guards SQLite; 0002's PostgreSQL-only trigger and function give way to it."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers

OLD = """
CREATE FUNCTION books_incomeentry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'cash-book entries are append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER books_incomeentry_append_only
    BEFORE UPDATE OR DELETE ON books_incomeentry
    FOR EACH ROW EXECUTE FUNCTION books_incomeentry_append_only();
"""


def drop_old(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS books_incomeentry_append_only ON books_incomeentry; "
            "DROP FUNCTION IF EXISTS books_incomeentry_append_only();"
        )


def restore_old(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(OLD)


class Migration(migrations.Migration):
    dependencies = [("books", "0002_income_append_only_trigger")]

    operations = [
        migrations.RunPython(drop_old, restore_old),
        InstallTriggers("append_only", "incomeentry"),
    ]
