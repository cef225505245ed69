"""The database refuses changes to a submitted plan's header and draft lines
(clubapp/books/dbguards.py)."""

from django.db import migrations

from clubapp.books.dbguards import frozen_create_sql, frozen_drop_sql


def create(apps, schema_editor):
    for statement in frozen_create_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement, params=None)


def drop(apps, schema_editor):
    for statement in frozen_drop_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("books", "0009_closed_day_guards")]

    operations = [migrations.RunPython(create, drop)]
