"""WSGI entry point (gunicorn clubapp.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubapp.settings")

application = get_wsgi_application()
