"""Every journal row keeps the table's state after it (scoring.night): added, filled
for the rows already booked by replaying each session from its ledger lines and
results, then required. The rows are append-only: their triggers are lifted for the
fill and put back (SQLite also rebuilds the table when the fields become required)."""

from django.db import migrations, models
from django.db.models import Sum

from clubapp.core.appendonly import create_sql, drop_sql
from clubapp.core.triggers import InstallTriggers
from scoring import night

SEATS = ("E", "S", "W", "N")
STATE = [
    (
        "next_dealer",
        models.CharField,
        {
            "max_length": 1,
            "choices": list(zip(SEATS, ("East", "South", "West", "North"))),
            "verbose_name": "next dealer",
        },
    ),
    ("next_doubled", models.BooleanField, {"verbose_name": "next hand doubled"}),
    ("passes", models.PositiveIntegerField, {"verbose_name": "deal passes"}),
    ("hands_played", models.PositiveIntegerField, {"verbose_name": "hands standing"}),
    ("balances", models.JSONField, {"verbose_name": "balances"}),
    ("unsettled", models.JSONField, {"verbose_name": "since the last statement"}),
    ("settle_due", models.BooleanField, {"verbose_name": "statement due"}),
]


def fill(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    Hand = apps.get_model("play", "Hand")
    table = Hand._meta.db_table
    for statement in drop_sql(vendor, table):
        schema_editor.execute(statement, params=None)
    LedgerLine = apps.get_model("play", "LedgerLine")
    TableSession = apps.get_model("play", "TableSession")
    db = schema_editor.connection.alias
    for session in TableSession.objects.using(db).all().iterator():
        rows = list(Hand.objects.using(db).filter(session=session).order_by("number"))
        if not rows:
            continue
        net = {row.pk: dict.fromkeys(SEATS, 0) for row in rows}
        sums = LedgerLine.objects.using(db).filter(hand__session=session).values("hand_id", "seat")
        for line in sums.annotate(total=Sum("points")):
            net[line["hand_id"]][line["seat"]] = line["total"]
        journal = [
            night.Row(
                number=row.number,
                net=net[row.pk],
                dealer=row.record.get("dealer"),
                next_dealer=(row.result.get("next") or {}).get("dealer"),
                next_doubled=bool((row.result.get("next") or {}).get("doubled")),
                garden_over=bool(row.result.get("garden_over")),
                voids=row.result.get("voids"),
            )
            for row in rows
        ]
        statements = session.settlements.values_list("last_number", flat=True)
        table_ = night.Table(
            settle_every=session.settle_every,
            garden_size=session.garden_size,
            jiang_count=session.jiang_count,
        )
        for row, state in zip(rows, night.replay(table_, journal, set(statements)), strict=True):
            Hand.objects.using(db).filter(pk=row.pk).update(
                next_dealer=state.dealer,
                next_doubled=state.doubled,
                passes=state.passes,
                hands_played=state.hands,
                balances=dict(state.balances),
                unsettled=dict(state.unsettled),
                settle_due=state.due,
                garden_number=state.garden,
                garden_left=dict(state.garden_left) if state.garden_left is not None else None,
            )


def restore_triggers(apps, schema_editor):
    table = apps.get_model("play", "Hand")._meta.db_table
    for statement in create_sql(schema_editor.connection.vendor, table):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("play", "0010_settlement_window_numbers")]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, restore_triggers),
        *(
            migrations.AddField(model_name="hand", name=name, field=kind(null=True, **options))
            for name, kind, options in STATE
        ),
        migrations.AddField(
            model_name="hand",
            name="garden_number",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="园子"),
        ),
        migrations.AddField(
            model_name="hand",
            name="garden_left",
            field=models.JSONField(blank=True, null=True, verbose_name="园子 balances"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        *(
            migrations.AlterField(model_name="hand", name=name, field=kind(**options))
            for name, kind, options in STATE
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(next_dealer__in=SEATS), name="play_hand_next_dealer_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(garden_number__isnull=True, garden_left__isnull=True)
                | models.Q(garden_number__gte=1, garden_left__isnull=False),
                name="play_hand_garden_state",
            ),
        ),
        InstallTriggers("append_only", "hand"),
    ]
