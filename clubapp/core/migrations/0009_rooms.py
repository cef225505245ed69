"""Many rooms: a room's host name, each user's room, and document counters per room.

An existing one-room database keeps everything: its users and its counters belong to
its room (the first, and only, room)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from clubapp.core.triggers import InstallTriggers


def place_in_first_room(apps, schema_editor):
    Room = apps.get_model("core", "Room")
    room = Room.objects.using(schema_editor.connection.alias).order_by("pk").first()
    if room is None:
        return
    db = schema_editor.connection.alias
    apps.get_model("core", "DocumentCounter").objects.using(db).update(room=room)
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    UserRoom = apps.get_model("core", "UserRoom")
    UserRoom.objects.using(db).bulk_create(
        UserRoom(user_id=pk, room=room)
        for pk in User.objects.using(db).filter(is_superuser=False).values_list("pk", flat=True)
    )


class Migration(migrations.Migration):

    dependencies = [
        ("core", "0008_room_fund_may_go_negative"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="host",
            field=models.CharField(blank=True, db_index=True, default="", max_length=200, verbose_name="host name"),
        ),
        migrations.AddConstraint(
            model_name="room",
            constraint=models.UniqueConstraint(condition=models.Q(("host", ""), _negated=True), fields=("host",), name="core_room_host_unique"),
        ),
        migrations.CreateModel(
            name="UserRoom",
            fields=[
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name="room_link", serialize=False, to=settings.AUTH_USER_MODEL, verbose_name="user")),
                ("room", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room")),
            ],
            options={"verbose_name": "user's room", "verbose_name_plural": "users' rooms"},
        ),
        migrations.AddField(
            model_name="documentcounter",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="documentcounter",
            name="key",
            field=models.CharField(max_length=50, verbose_name="series"),
        ),
        migrations.RunPython(place_in_first_room, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="documentcounter",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddConstraint(
            model_name="documentcounter",
            constraint=models.UniqueConstraint(fields=("room", "key"), name="core_counter_room_key_unique"),
        ),
        InstallTriggers("rooms_core"),
    ]
