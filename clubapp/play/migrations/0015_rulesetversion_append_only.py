"""Issue 21 item 10: ruleset versions are documented as never edited (a changed
number is a new version, so a booked hand always names the numbers it was scored
with); the database now refuses UPDATE and DELETE on them too, on SQLite and on
PostgreSQL, with the one append-only base's triggers (like the ledger's, 0009)."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):
    dependencies = [("play", "0014_hand_line_count_and_guards")]

    operations = [InstallTriggers("append_only", "rulesetversion")]
