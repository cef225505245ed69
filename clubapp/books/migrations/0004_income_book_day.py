"""Income entries get the day they are booked on, 补记 and the payer.

``book_date`` is the day of the cash book an entry belongs to; the entries already
written are booked on the day they were received (local time). Filling the new
column is a change of existing rows, which the append-only triggers refuse: this
migration lifts them for its own UPDATE and puts them back (SQLite rebuilds the
table on these ALTERs anyway, and a rebuilt table has no triggers).
"""

from django.db import migrations, models
from django.utils import timezone

from clubapp.core.appendonly import create_sql, drop_sql
from clubapp.core.triggers import InstallTriggers

TABLE = "books_incomeentry"


def lift_guard(apps, schema_editor):
    for statement in drop_sql(schema_editor.connection.vendor, TABLE):
        schema_editor.execute(statement, params=None)


def restore_guard(apps, schema_editor):
    for statement in create_sql(schema_editor.connection.vendor, TABLE):
        schema_editor.execute(statement, params=None)


def book_on_the_day_received(apps, schema_editor):
    IncomeEntry = apps.get_model("books", "IncomeEntry")
    for entry in IncomeEntry.objects.using(schema_editor.connection.alias).only("received_at"):
        IncomeEntry.objects.filter(pk=entry.pk).update(
            book_date=timezone.localdate(entry.received_at)
        )


class Migration(migrations.Migration):
    dependencies = [("books", "0003_income_append_only_everywhere")]

    operations = [
        migrations.RunPython(lift_guard, restore_guard),
        migrations.AddField(
            model_name="incomeentry",
            name="book_date",
            field=models.DateField(db_index=True, null=True, verbose_name="booked on"),
        ),
        migrations.RunPython(book_on_the_day_received, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="incomeentry",
            name="book_date",
            field=models.DateField(db_index=True, verbose_name="booked on"),
        ),
        migrations.AddField(
            model_name="incomeentry",
            name="late_for",
            field=models.DateField(blank=True, null=True, verbose_name="late entry for"),
        ),
        migrations.AddField(
            model_name="incomeentry",
            name="payer",
            field=models.CharField(blank=True, default="", max_length=50, verbose_name="paid by"),
        ),
        migrations.AddField(
            model_name="incomeentry",
            name="request_key",
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="incomeentry",
            name="category",
            field=models.CharField(
                choices=[
                    ("card_fee", "Card fee"),
                    ("renewal_fee", "Yearly review fee"),
                    ("guest_fee", "Non-member equipment fee"),
                    ("tournament", "Tournament entry fee"),
                    ("donation", "Donation"),
                    ("other", "Other income"),
                ],
                max_length=20,
                verbose_name="category",
            ),
        ),
        migrations.AddConstraint(
            model_name="incomeentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("late_for__isnull", True),
                    ("late_for__lt", models.F("book_date")),
                    _connector="OR",
                ),
                name="books_income_late_before_book_date",
            ),
        ),
        InstallTriggers("append_only", "incomeentry"),
    ]
