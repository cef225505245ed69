"""Many rooms (docs/rooms.md): every row of the books carries its room, children too
(a slip's lines, a plan's submission, lines, decision and completion, an expense's
confirmation); document numbers are unique per room; the lists' indexes lead with
the room; the room triggers of the books (group ``rooms_books``).

An existing one-room database keeps every row: each new room column is filled from
the row it hangs off (parents first), then made required."""

import django.db.models.deletion
from django.db import migrations, models

from clubapp.core.roomguards import FillRoom, PutTriggersBack, SetTriggersAside
from clubapp.core.triggers import InstallTriggers

#: (model, the parent its room is filled from), parents first
CHILDREN = [
    ("handoverline", "slip"),
    ("expenseconfirmation", "expense"),
    ("plandraftline", "plan"),
    ("plansubmission", "plan"),
    ("planline", "submission"),
    ("plandecision", "submission"),
    ("plancompletion", "submission"),
]

#: (model, number field, its former unique constraint or None, the new one)
NUMBERS = [
    ("reversal", "number", "reversal number", "books_reversal_number_per_room"),
    ("expense", "number", "expense number", "books_expense_number_per_room"),
    ("handoverslip", "number", "slip number", "books_slip_number_per_room"),
    ("purchaseplan", "number", "plan number", "books_plan_number_per_room"),
]

#: (model, field, index name)
INDEXES = [
    ("incomeentry", "book_date", "books_income_room_day"),
    ("handoverslip", "book_date", "books_slip_room_day"),
    ("slipdecision", "book_date", "books_slipdecision_room_day"),
    ("expense", "book_date", "books_expense_room_day"),
    ("reversal", "book_date", "books_reversal_room_day"),
    ("purchaseplan", "created_at", "books_plan_room_created"),
]


def _room(null: bool) -> models.ForeignKey:
    return models.ForeignKey(
        null=null,
        on_delete=django.db.models.deletion.PROTECT,
        related_name="+",
        to="core.room",
        verbose_name="room",
    )


class Migration(migrations.Migration):

    dependencies = [
        ("books", "0013_income_compensation_category"),
        ("core", "0010_district_group"),
    ]

    operations = [
        # SQLite rebuilds the tables below (a room column added or dropped, made
        # required, a unique dropped or added) and refuses while another table's
        # trigger names one of them: every trigger is set aside meanwhile.
        SetTriggersAside(),
        *(
            migrations.AddField(model_name=model, name="room", field=_room(True))
            for model, _ in CHILDREN
        ),
        *(FillRoom(model, through) for model, through in CHILDREN),
        *(
            migrations.AlterField(model_name=model, name="room", field=_room(False))
            for model, _ in CHILDREN
        ),
        *(
            migrations.AlterField(
                model_name=model,
                name=field,
                field=models.CharField(max_length=20, verbose_name=label),
            )
            for model, field, label, _ in NUMBERS
        ),
        *(
            migrations.AddConstraint(
                model_name=model,
                constraint=models.UniqueConstraint(fields=("room", field), name=name),
            )
            for model, field, _, name in NUMBERS
        ),
        migrations.RemoveConstraint(model_name="incomeentry", name="books_income_reference_unique"),
        migrations.AddConstraint(
            model_name="incomeentry",
            constraint=models.UniqueConstraint(
                fields=("room", "reference"), name="books_income_reference_per_room"
            ),
        ),
        PutTriggersBack(),
        *(
            migrations.AddIndex(
                model_name=model, index=models.Index(fields=["room", field], name=name)
            )
            for model, field, name in INDEXES
        ),
        InstallTriggers("rooms_books"),
    ]
