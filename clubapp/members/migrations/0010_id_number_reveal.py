"""The record of who saw which member's full ID number when: append-only (both databases)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from clubapp.core.triggers import InstallTriggers


class Migration(migrations.Migration):

    dependencies = [
        ('core', '0007_room_default_ruleset'),
        ('members', '0009_table_in_play'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='IdNumberReveal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(verbose_name='seen at')),
                ('by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='seen by')),
                ('member', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='id_number_reveals', to='members.member', verbose_name='member')),
                ('room', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='core.room', verbose_name='room')),
            ],
            options={
                'verbose_name': 'ID number viewing',
                'verbose_name_plural': 'ID number viewings',
                'ordering': ['-at', '-pk'],
            },
        ),
        InstallTriggers("append_only", "idnumberreveal"),
    ]
