"""What the database itself refuses in the members app: the receipts and the recorded
viewings of ID numbers are append-only (its part of the trigger registry,
``clubapp.core.triggers``)."""

from __future__ import annotations

from clubapp.core.appendonly import append_only

TRIGGERS = (*append_only("members_receipt"), *append_only("members_idnumberreveal"))
