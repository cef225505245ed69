"""The database refuses changes to a submitted plan's header and draft lines
(clubapp/books/guards.py)."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):
    dependencies = [("books", "0009_closed_day_guards")]

    operations = [InstallTriggers("plan_frozen")]
