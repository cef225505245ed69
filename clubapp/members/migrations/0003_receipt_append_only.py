"""Receipts are append-only in the database too (PostgreSQL and SQLite)."""

from django.db import migrations

from clubapp.core.appendonly import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [("members", "0002_visit_request_key")]

    operations = [AppendOnlyTriggers("receipt")]
