"""Issue 22 item 5: a hand's ledger lines sum to zero on SQLite too. The trigger is
declared once (``clubapp/play/guards.py``, ``play_ledgerline_balanced``): on
PostgreSQL the deferred constraint trigger 0004 made (re-created here, the same), on
SQLite the line that completes the hand's ``line_count`` checks the sum."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):
    dependencies = [("play", "0017_hand_state_columns_named_as_state")]

    operations = [InstallTriggers("play_zero_sum")]
