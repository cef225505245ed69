"""The database refuses every dated book row on a closed day (clubapp/books/guards.py)."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):
    dependencies = [("books", "0008_day_closing_and_reversals")]

    operations = [
        InstallTriggers("closed_day", "incomeentry"),
        InstallTriggers("closed_day", "handoverslip"),
        InstallTriggers("closed_day", "slipdecision"),
        InstallTriggers("closed_day", "expense"),
        InstallTriggers("closed_day", "reversal"),
    ]
