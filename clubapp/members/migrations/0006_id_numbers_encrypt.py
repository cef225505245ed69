"""Encrypt the ID numbers of existing members and fill their keyed hash.

Reversible: backwards, the numbers are decrypted into the clear column again (which
0007 drops going forwards). Uses the keys of the settings (clubapp/members/crypto.py),
so run it with the production ID_NUMBER_KEYS / ID_NUMBER_HASH_KEY set.
"""

from django.db import migrations


def encrypt(apps, schema_editor):
    from clubapp.members.crypto import id_number_digest, id_number_encrypt

    Member = apps.get_model("members", "Member")
    for member in Member.objects.using(schema_editor.connection.alias).filter(
        id_number_encrypted=""
    ):
        member.id_number_encrypted = id_number_encrypt(member.id_number)
        member.id_number_hash = id_number_digest(member.id_number)
        member.save(update_fields=["id_number_encrypted", "id_number_hash"])


def decrypt(apps, schema_editor):
    from clubapp.members.crypto import id_number_decrypt

    Member = apps.get_model("members", "Member")
    for member in Member.objects.using(schema_editor.connection.alias).exclude(
        id_number_encrypted=""
    ):
        member.id_number = id_number_decrypt(member.id_number_encrypted)
        member.save(update_fields=["id_number"])


class Migration(migrations.Migration):
    dependencies = [("members", "0005_id_number_encrypted_fields")]

    operations = [migrations.RunPython(encrypt, decrypt)]
