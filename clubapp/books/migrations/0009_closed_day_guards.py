"""The database refuses every dated book row on a closed day (clubapp/books/dbguards.py)."""

from django.db import migrations

from clubapp.books.dbguards import ClosedDayGuard


class Migration(migrations.Migration):
    dependencies = [("books", "0008_day_closing_and_reversals")]

    operations = [
        ClosedDayGuard("incomeentry"),
        ClosedDayGuard("handoverslip"),
        ClosedDayGuard("slipdecision"),
        ClosedDayGuard("expense"),
        ClosedDayGuard("reversal"),
    ]
