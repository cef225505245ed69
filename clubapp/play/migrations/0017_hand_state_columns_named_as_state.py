"""The journal row's state columns take the names of ``scoring.night.State``'s fields
(one name per thing from the scorer to the column): renamed, data kept.

Both databases rename a column in place (SQLite since 3.25: no table rebuild, so the
append-only triggers stay) and rewrite the CHECKs that name it; only Django's record of
the two CHECKs is brought up to date (their names are kept)."""

from django.db import migrations, models

RENAMED = [
    ("next_dealer", "dealer"),
    ("next_doubled", "doubled"),
    ("hands_played", "hands"),
    ("settle_due", "due"),
    ("garden_number", "garden"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0016_english_labels"),
    ]

    operations = [
        *(migrations.RenameField(model_name="hand", old_name=old, new_name=new) for old, new in RENAMED),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="hand", name="play_hand_next_dealer_valid"),
                migrations.RemoveConstraint(model_name="hand", name="play_hand_garden_state"),
                migrations.AddConstraint(
                    model_name="hand",
                    constraint=models.CheckConstraint(
                        condition=models.Q(dealer__in=("E", "S", "W", "N")),
                        name="play_hand_next_dealer_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hand",
                    constraint=models.CheckConstraint(
                        condition=models.Q(garden__isnull=True, garden_left__isnull=True)
                        | models.Q(garden__gte=1, garden_left__isnull=False),
                        name="play_hand_garden_state",
                    ),
                ),
            ],
        ),
    ]
