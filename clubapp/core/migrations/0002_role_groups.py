"""Create the four role groups and give them their first permissions.

Idempotent (get_or_create, add) and reversible (the groups are deleted).
Group names are frozen here on purpose: a migration must not import
clubapp.core.roles, whose names may change later.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE_PERMISSIONS = {
    "管理员": [
        ("core", "view_room"),
        ("core", "change_room"),
        ("auth", "view_user"),
        ("auth", "add_user"),
        ("auth", "change_user"),
        ("auth", "view_group"),
    ],
    "会计": [("core", "view_room")],
    "负责人": [("core", "view_room")],
    "会员": [],
}


def ensure_permissions(apps, schema_editor):
    # Permissions are normally made by post_migrate, after all migrations:
    # on a fresh database they do not exist yet when this migration runs.
    for label in ("auth", "core"):
        app_config = apps.get_app_config(label)
        app_config.models_module = True
        create_permissions(
            app_config, apps=apps, verbosity=0, using=schema_editor.connection.alias
        )
        app_config.models_module = None


def create_groups(apps, schema_editor):
    ensure_permissions(apps, schema_editor)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    db = schema_editor.connection.alias
    for name, perms in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.using(db).get_or_create(name=name)
        for app_label, codename in perms:
            group.permissions.add(
                Permission.objects.using(db).get(
                    content_type__app_label=app_label, codename=codename
                )
            )


def delete_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(
        name__in=list(ROLE_PERMISSIONS)
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("core", "0001_room"),
    ]

    operations = [migrations.RunPython(create_groups, delete_groups)]
