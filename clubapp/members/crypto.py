"""ID numbers at rest: encrypted (Fernet), found and kept unique by a keyed hash (HMAC).

PIPL counts the 居民身份证 number as sensitive personal information. The database
never holds it in clear: ``Member.id_number_encrypted`` is a Fernet token, and the
uniqueness constraint and every look-up use ``Member.id_number_hash``, an HMAC-SHA256
of the number under a key of its own. A constraint error, a log line or a backup shows
the hash at most (docs/members.md "Identity numbers").

Keys come from the environment (settings ``ID_NUMBER_KEYS``, Fernet keys newest first,
and ``ID_NUMBER_HASH_KEY``). Several Fernet keys form a ``MultiFernet``: the first
encrypts, all decrypt, which is what a key rotation needs (``manage.py
id_numbers_rotate`` re-encrypts every row with the first key).
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.views.decorators.debug import sensitive_variables


def _fernet() -> MultiFernet:
    keys = list(getattr(settings, "ID_NUMBER_KEYS", []) or [])
    if not keys:
        raise ImproperlyConfigured("Set ID_NUMBER_KEYS (a Fernet key) to store ID numbers.")
    try:
        return MultiFernet([Fernet(key) for key in keys])
    except (ValueError, TypeError):
        raise ImproperlyConfigured("ID_NUMBER_KEYS holds a key that is not a Fernet key.") from None


def _hash_key() -> bytes:
    key = getattr(settings, "ID_NUMBER_HASH_KEY", "") or ""
    if len(key) < 32:
        raise ImproperlyConfigured("Set ID_NUMBER_HASH_KEY (at least 32 characters).")
    return key.encode()


@sensitive_variables()
def id_number_encrypt(number: str) -> str:
    return _fernet().encrypt(number.encode()).decode("ascii")


def id_number_decrypt(token: str) -> str:
    """The number, or ImproperlyConfigured when no configured key can read the token."""
    try:
        return _fernet().decrypt(token.encode("ascii")).decode()
    except InvalidToken:
        raise ImproperlyConfigured(
            "An ID number cannot be decrypted with ID_NUMBER_KEYS: is a key missing?"
        ) from None


def id_number_reencrypt(token: str) -> str:
    """The same number under the first (newest) key; used by the key rotation."""
    try:
        return _fernet().rotate(token.encode("ascii")).decode("ascii")
    except InvalidToken:
        raise ImproperlyConfigured(
            "An ID number cannot be decrypted with ID_NUMBER_KEYS: is a key missing?"
        ) from None


@sensitive_variables()
def id_number_digest(number: str) -> str:
    """The keyed hash (64 hex characters) that stands for the number in the database."""
    return hmac.new(_hash_key(), number.encode(), hashlib.sha256).hexdigest()
