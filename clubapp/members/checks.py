"""Deploy checks of the members app: the ID-number keys (clubapp/members/crypto.py)."""

from __future__ import annotations

from typing import Any

from cryptography.fernet import Fernet
from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def id_number_keys(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Production must have its own keys: the development ones are in the repository."""
    errors = []
    keys = list(getattr(settings, "ID_NUMBER_KEYS", []) or [])
    if not keys:
        errors.append(
            Error("ID_NUMBER_KEYS is not set: ID numbers cannot be stored.", id="members.E001")
        )
    for key in keys:
        if key == settings.DEV_ID_NUMBER_KEY:
            errors.append(
                Error(
                    "ID_NUMBER_KEYS holds the development key.",
                    hint="Generate a key: Fernet.generate_key() (docs/members.md).",
                    id="members.E002",
                )
            )
            continue
        try:
            Fernet(key)
        except (ValueError, TypeError):
            errors.append(
                Error("ID_NUMBER_KEYS holds a key that is not a Fernet key.", id="members.E003")
            )
    hash_key = getattr(settings, "ID_NUMBER_HASH_KEY", "") or ""
    if hash_key == settings.DEV_ID_NUMBER_HASH_KEY or len(hash_key) < 32:
        errors.append(
            Error(
                "ID_NUMBER_HASH_KEY is missing, too short or the development key.",
                hint="Use 32 or more random characters, kept as safe as ID_NUMBER_KEYS.",
                id="members.E004",
            )
        )
    return errors
