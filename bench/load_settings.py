"""The app's own settings, plus a bare view beside its pages: used only by the load
scenario (``bench/load.py``), whose servers run with
``DJANGO_SETTINGS_MODULE=bench.load_settings``. Everything else comes from
``clubapp.settings`` and the environment, as in production."""

from __future__ import annotations

from clubapp.settings import *  # noqa: F403 - the app's settings, whole

ROOT_URLCONF = "bench.load_urls"
