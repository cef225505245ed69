"""PostgreSQL guards of the points ledger (nothing on other databases): hands and
ledger lines are append-only, a row trigger refuses UPDATE and DELETE (0009 replaces
it with the one append-only base's).

This migration also made each entry's lines sum to zero on PostgreSQL; that trigger,
``play_ledgerline_balanced``, is now declared once in the trigger registry
(``clubapp/play/guards.py``) and installed on both databases by 0017, which re-creates
it on a database where this migration already made it.

Errors use SQLSTATE 23000 (integrity_constraint_violation), so Django raises
IntegrityError. TRUNCATE (the test runner's flush) is not a row event.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION play_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'play: % rows are append-only (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = '23000';
END $$;

CREATE TRIGGER play_hand_append_only BEFORE UPDATE OR DELETE ON play_hand
    FOR EACH ROW EXECUTE FUNCTION play_refuse_change();
CREATE TRIGGER play_ledgerline_append_only BEFORE UPDATE OR DELETE ON play_ledgerline
    FOR EACH ROW EXECUTE FUNCTION play_refuse_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS play_ledgerline_balanced ON play_ledgerline;
DROP FUNCTION IF EXISTS play_check_entry_balance();
DROP TRIGGER IF EXISTS play_ledgerline_append_only ON play_ledgerline;
DROP TRIGGER IF EXISTS play_hand_append_only ON play_hand;
DROP FUNCTION IF EXISTS play_refuse_change();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("play", "0003_hands_and_ledger")]

    operations = [migrations.RunPython(forwards, backwards)]
