"""Many rooms (docs/rooms.md): every row of the activities app carries its room, the
children too (a version of a plan, a seat of a round), so that the database can check
every reference and every list's index can lead with the room.

The top-level rows (checks, duty, leave, plans, records, tournaments) had a room
already; their children take their parent's room, parents first. An existing
one-room database keeps every row."""

import django.db.models.deletion
from django.db import migrations, models

from clubapp.core.roomguards import FillRoom, PutTriggersBack, SetTriggersAside
from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):

    dependencies = [
        ("activities", "0001_activities"),
        ("core", "0010_district_group"),
        # its triggers read the room of cards, members, visits, purchase plans, rulesets
        # and sessions: theirs first
        ("members", "0013_rooms"),
        ("books", "0014_rooms"),
        ("play", "0019_rooms"),
    ]

    operations = [
        migrations.AddField(
            model_name="leavedecision",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="leavereturn",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="planversion",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="draftactivity",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="plannedactivity",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="versionsubmission",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="versiondecision",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="recordversion",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="recordattendee",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="recordphoto",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="entrant",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="round",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="pairing",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="result",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="roundtable",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="roundseat",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AddField(
            model_name="finalstanding",
            name="room",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        FillRoom("leavedecision", "leave"),
        FillRoom("leavereturn", "leave"),
        FillRoom("planversion", "plan"),
        FillRoom("draftactivity", "version"),
        FillRoom("plannedactivity", "version"),
        FillRoom("versionsubmission", "version"),
        FillRoom("versiondecision", "version"),
        FillRoom("recordversion", "record"),
        FillRoom("recordattendee", "version"),
        FillRoom("recordphoto", "version"),
        FillRoom("entrant", "tournament"),
        FillRoom("round", "tournament"),
        FillRoom("pairing", "round"),
        FillRoom("result", "pairing"),
        FillRoom("roundtable", "round"),
        FillRoom("roundseat", "round"),
        FillRoom("finalstanding", "tournament"),
        SetTriggersAside(),
        migrations.AlterField(
            model_name="leavedecision",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="leavereturn",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="planversion",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="draftactivity",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="plannedactivity",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="versionsubmission",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="versiondecision",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="recordversion",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="recordattendee",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="recordphoto",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="entrant",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="round",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="pairing",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="result",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="roundtable",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="roundseat",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        migrations.AlterField(
            model_name="finalstanding",
            name="room",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="core.room", verbose_name="room"),
        ),
        PutTriggersBack(),
        migrations.AddIndex(
            model_name="checktick",
            index=models.Index(fields=["room", "date"], name="activities_tick_room_date"),
        ),
        migrations.AddIndex(
            model_name="damage",
            index=models.Index(fields=["room", "date"], name="activities_damage_room_date"),
        ),
        migrations.AddIndex(
            model_name="violation",
            index=models.Index(fields=["room", "date"], name="activities_violation_room_date"),
        ),
        migrations.AddIndex(
            model_name="leave",
            index=models.Index(fields=["room", "starts"], name="activities_leave_room_starts"),
        ),
        migrations.AddIndex(
            model_name="plannedactivity",
            index=models.Index(fields=["room", "date"], name="activities_planned_room_date"),
        ),
        migrations.AddIndex(
            model_name="activityrecord",
            index=models.Index(fields=["room", "created_at"], name="activities_record_room_created"),
        ),
        migrations.AddIndex(
            model_name="recordversion",
            index=models.Index(fields=["room", "date"], name="activities_recver_room_date"),
        ),
        migrations.AddIndex(
            model_name="tournament",
            index=models.Index(fields=["room", "starts"], name="activities_tourn_room_starts"),
        ),
        InstallTriggers("rooms_activities"),
    ]
