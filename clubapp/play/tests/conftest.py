"""The play app's tests start with an empty cache: table states are cached by
session and its marks, and test databases reuse primary keys."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()
