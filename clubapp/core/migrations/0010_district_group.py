"""The district readers' group (片区): every room's monthly totals side by side, no
write rights in any room. Frozen name, as in 0002_role_groups."""

from django.db import migrations


def create_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).get_or_create(
        name="片区"
    )


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(
        name="片区"
    ).delete()


class Migration(migrations.Migration):

    dependencies = [("core", "0009_rooms"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_group, delete_group)]
