"""The play app's tests start with an empty cache: table states are cached by
session and its marks, and test databases reuse primary keys."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from clubapp.play.selectors import table_states_forget


def forget_states():
    """Empty the shared cache and this process's own table states."""
    cache.clear()
    table_states_forget()


@pytest.fixture(autouse=True)
def _empty_cache():
    forget_states()
    yield
    forget_states()
