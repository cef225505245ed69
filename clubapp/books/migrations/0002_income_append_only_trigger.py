"""On PostgreSQL the database itself refuses UPDATE and DELETE of income entries.

The model refuses them too, but raw SQL, a shell or a later bug must not be able
to rewrite the cash book either. SQLite keeps the model-level guard only.
"""

from django.db import migrations

CREATE = """
CREATE FUNCTION books_incomeentry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'cash-book entries are append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER books_incomeentry_append_only
    BEFORE UPDATE OR DELETE ON books_incomeentry
    FOR EACH ROW EXECUTE FUNCTION books_incomeentry_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS books_incomeentry_append_only ON books_incomeentry;
DROP FUNCTION IF EXISTS books_incomeentry_append_only();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("books", "0001_income_entry")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
