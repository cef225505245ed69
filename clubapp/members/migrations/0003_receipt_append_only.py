"""Receipts are append-only in the database too (PostgreSQL and SQLite)."""

from django.db import migrations

from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):
    dependencies = [("members", "0002_visit_request_key")]

    operations = [InstallTriggers("append_only", "receipt")]
