"""Store the rulesets shipped with scoring/ as their first versions.

Later changes to a shipped TOML file, or a ruleset edited in the app, become new
rows through ``services.ruleset_version_save``; rows are never updated.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    import scoring.rulesets

    RulesetVersion = apps.get_model("play", "RulesetVersion")
    db = schema_editor.connection.alias
    for ident in scoring.rulesets.available():
        ruleset = scoring.rulesets.get(ident)
        RulesetVersion.objects.using(db).get_or_create(
            ruleset_id=ruleset.id,
            version=ruleset.version,
            defaults={
                "name": ruleset.name,
                "family": ruleset.family,
                "params": dict(ruleset.params),
            },
        )


def backwards(apps, schema_editor):
    import scoring.rulesets

    RulesetVersion = apps.get_model("play", "RulesetVersion")
    for ident in scoring.rulesets.available():
        ruleset = scoring.rulesets.get(ident)
        RulesetVersion.objects.using(schema_editor.connection.alias).filter(
            ruleset_id=ruleset.id, version=ruleset.version
        ).delete()


class Migration(migrations.Migration):
    dependencies = [("play", "0001_sessions_and_seats")]

    operations = [migrations.RunPython(forwards, backwards)]
