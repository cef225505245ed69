"""ID numbers encrypted at rest, step 1: the encrypted and hash columns; the constraints
on the clear column are lifted (the clear column goes in 0007, after 0006 fills the new
ones). Lifted here, not in 0007, so that going backwards 0006 refills the clear column
before they are checked again."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0004_table_name"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="member",
            name="members_member_id_number_unique_in_room",
        ),
        migrations.RemoveConstraint(
            model_name="member",
            name="members_member_name_and_id_not_blank",
        ),
        migrations.AddField(
            model_name="member",
            name="id_number_encrypted",
            field=models.TextField(
                default="", editable=False, verbose_name="ID card number (encrypted)"
            ),
        ),
        migrations.AddField(
            model_name="member",
            name="id_number_hash",
            field=models.CharField(
                default="", editable=False, max_length=64, verbose_name="ID card number (keyed hash)"
            ),
        ),
    ]
