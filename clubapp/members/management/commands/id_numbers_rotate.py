"""Re-encrypt every stored ID number with the newest key, and recompute its keyed hash.

Key rotation (docs/members.md "Key rotation"): put the new Fernet key first in
ID_NUMBER_KEYS, keeping the old one after it (both decrypt, the new one encrypts),
restart, run this command, then drop the old key from ID_NUMBER_KEYS.

The keys are the deployment's: every room's members are re-encrypted, room after room,
each in its room's scope (on PostgreSQL the app's role sees one room's rows at a time).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from clubapp.core.models import Room
from clubapp.core.rooms import scope
from clubapp.members.crypto import id_number_decrypt, id_number_digest, id_number_reencrypt
from clubapp.members.models import Member


class Command(BaseCommand):
    help = "Re-encrypt every ID number with the first key of ID_NUMBER_KEYS."

    def handle(self, *args: Any, **options: Any) -> None:
        done = 0
        # One transaction: a row is either under the new key or untouched, and a key
        # that cannot read some row stops the command with nothing changed.
        with transaction.atomic():
            for room in Room.objects.order_by("pk"):
                with scope(room):
                    rows = Member.objects.select_for_update().filter(room=room).order_by("pk")
                    for pk, token in rows.values_list("pk", "id_number_encrypted"):
                        new_token = id_number_reencrypt(token)
                        Member.objects.filter(room=room, pk=pk).update(
                            id_number_encrypted=new_token,
                            id_number_hash=id_number_digest(id_number_decrypt(new_token)),
                        )
                        done += 1
        self.stdout.write(f"{done} ID numbers re-encrypted with the first key.")
