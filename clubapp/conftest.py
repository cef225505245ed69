"""Fixtures for every app's tests (the user cast is in the root conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path_factory):
    """Uploads (member photos) go to a fresh folder, never into the repository's media/."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
