"""ID numbers encrypted at rest, step 3: the clear column is dropped; uniqueness is on
the keyed hash (a PostgreSQL unique violation then shows the hash, never the number)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0006_id_numbers_encrypt"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="member",
            name="id_number",
        ),
        migrations.AlterField(
            model_name="member",
            name="id_number_encrypted",
            field=models.TextField(editable=False, verbose_name="ID card number (encrypted)"),
        ),
        migrations.AlterField(
            model_name="member",
            name="id_number_hash",
            field=models.CharField(
                editable=False, max_length=64, verbose_name="ID card number (keyed hash)"
            ),
        ),
        migrations.AddConstraint(
            model_name="member",
            constraint=models.UniqueConstraint(
                fields=("room", "id_number_hash"), name="members_member_id_hash_unique_in_room"
            ),
        ),
        migrations.AddConstraint(
            model_name="member",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("name", ""), _negated=True),
                    models.Q(("id_number_encrypted", ""), _negated=True),
                    models.Q(("id_number_hash", ""), _negated=True),
                ),
                name="members_member_name_and_id_present",
            ),
        ),
    ]
