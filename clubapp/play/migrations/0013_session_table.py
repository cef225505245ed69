"""Issue 11 item 1: a session names the room's Table (one open session per table, by
the database), an account or a visit takes one seat of a session, a typed guest name
keeps its reason, a session ended by mistake can be reopened, voids asked by a player.

Existing rows: each session gets the room's table of its number (created, in use,
when the room has none of that number); where two sessions were open at one table,
the older is ended when the newer started; where one account sat at two seats of a
session, the later seats keep the name and lose the account (no seat is removed).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill(apps, schema_editor):
    Table = apps.get_model("members", "Table")
    TableSession = apps.get_model("play", "TableSession")
    Seat = apps.get_model("play", "Seat")
    db = schema_editor.connection.alias  # the migrating database (the owner role's)
    for session in TableSession.objects.using(db).order_by("started_at", "pk"):
        table, _created = Table.objects.using(db).get_or_create(
            room_id=session.room_id, number=session.table_number
        )
        session.table = table
        session.save(update_fields=["table"], using=db)
    for table_id in (
        TableSession.objects.using(db)
        .filter(ended_at__isnull=True)
        .values_list("table_id", flat=True)
        .distinct()
    ):
        open_ones = list(
            TableSession.objects.using(db)
            .filter(table_id=table_id, ended_at__isnull=True)
            .order_by("started_at", "pk")
        )
        for older, newer in zip(open_ones, open_ones[1:]):
            older.ended_at = max(newer.started_at, older.started_at)
            older.save(update_fields=["ended_at"], using=db)
    seen = set()
    for seat in Seat.objects.using(db).filter(user__isnull=False).order_by("session_id", "pk"):
        if (seat.session_id, seat.user_id) in seen:
            seat.user = None
            seat.save(update_fields=["user"], using=db)
        seen.add((seat.session_id, seat.user_id))
    seen = set()
    for seat in Seat.objects.using(db).filter(visit__isnull=False).order_by("session_id", "pk"):
        if (seat.session_id, seat.visit_id) in seen:
            seat.visit = None
            seat.save(update_fields=["visit"], using=db)
        seen.add((seat.session_id, seat.visit_id))


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0006_room_renewal_window"),
        ("members", "0009_table_in_play"),
        ("play", "0012_tables_in_play"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="VoidRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.CharField(max_length=200, verbose_name="reason")),
                (
                    "seat",
                    models.CharField(
                        choices=[("E", "East"), ("S", "South"), ("W", "West"), ("N", "North")],
                        max_length=1,
                        verbose_name="seat",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="asked")),
            ],
            options={
                "verbose_name": "void request",
                "verbose_name_plural": "void requests",
            },
        ),
        migrations.AddField(
            model_name="seat",
            name="guest_reason",
            field=models.CharField(
                blank=True, max_length=200, verbose_name="reason for a typed name"
            ),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="reopened_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="reopened"),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="reopened_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="reopened by",
            ),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="table",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sessions",
                to="members.table",
                verbose_name="table",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tablesession",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sessions",
                to="members.table",
                verbose_name="table",
            ),
        ),
        migrations.AlterField(
            model_name="tablesession",
            name="table_number",
            field=models.PositiveSmallIntegerField(verbose_name="table number"),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("session", "user"),
                name="play_seat_account_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("visit__isnull", False)),
                fields=("session", "visit"),
                name="play_seat_visit_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="tablesession",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True)),
                fields=("table",),
                name="play_session_one_open_per_table",
            ),
        ),
        migrations.AddField(
            model_name="voidrequest",
            name="hand",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="void_requests",
                to="play.hand",
                verbose_name="hand",
            ),
        ),
        migrations.AddField(
            model_name="voidrequest",
            name="requested_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="asked by",
            ),
        ),
        migrations.AddField(
            model_name="voidrequest",
            name="reversal",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="void_request",
                to="play.hand",
                verbose_name="reversal",
            ),
        ),
        migrations.AddConstraint(
            model_name="voidrequest",
            constraint=models.UniqueConstraint(
                condition=models.Q(("reversal__isnull", True)),
                fields=("hand",),
                name="play_void_request_one_pending",
            ),
        ),
        migrations.AddConstraint(
            model_name="voidrequest",
            constraint=models.CheckConstraint(
                condition=models.Q(("reason", ""), _negated=True),
                name="play_void_request_has_reason",
            ),
        ),
        migrations.AddConstraint(
            model_name="voidrequest",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat__in", ("E", "S", "W", "N"))),
                name="play_void_request_seat_valid",
            ),
        ),
    ]
