"""Settings for the card-room app: one file, driven by the environment.

Every knob is an environment variable with a safe default. Production is the
default posture (DEBUG off, HTTPS, secure cookies); `make run` sets DEBUG=1 for
the local server. See README "Configuration via environment".
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool = False) -> bool:
    """Read a yes/no variable; a typo raises instead of silently meaning "off"."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false)")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def envlist(name: str, default: str = "") -> list[str]:
    """Comma-separated list, blanks dropped: "a.com, b.com" -> ["a.com", "b.com"]."""
    raw = os.environ.get(name, default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(url: str, base_dir: Path = BASE_DIR) -> dict[str, Any]:
    """Turn DATABASE_URL into a DATABASES entry.

    Supported: ``sqlite:///relative.sqlite3``, ``sqlite:////absolute/path``,
    ``postgres://user:password@host:port/name?sslmode=require`` (also
    ``postgresql://``). Written by hand to keep one dependency fewer.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///db.sqlite3 -> path "/db.sqlite3" -> relative to the repo root;
        # sqlite:////var/db.sqlite3 -> path "//var/db.sqlite3" -> absolute.
        path = unquote(parts.path)
        if path in ("", "/"):
            raise ImproperlyConfigured("DATABASE_URL sqlite:/// needs a file name")
        name = Path(path[1:]) if path.startswith("//") else base_dir / path.lstrip("/")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(name)}
    if scheme in ("postgres", "postgresql", "pgsql"):
        db_name = unquote(parts.path.lstrip("/"))
        if not db_name:
            raise ImproperlyConfigured("DATABASE_URL for PostgreSQL needs a database name")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": db_name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "OPTIONS": dict(parse_qsl(parts.query)),
        }
    raise ImproperlyConfigured(f"DATABASE_URL scheme {scheme!r} is not supported")


# pytest imports this module after pytest itself; runserver, gunicorn and
# manage.py never import pytest. Tests need no collectstatic, no HTTPS
# redirect and a fast password hasher.
TESTING = "pytest" in sys.modules

DEBUG = envbool("DEBUG", False)

_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production-0123456789abcdef"
# manage.py commands that only read the models and the migrations: they sign nothing,
# so a build or CI step may run them without the secret (it stays empty, and anything
# that would need it fails as Django makes it fail).
_SCHEMA_COMMANDS = {"makemigrations", "showmigrations", "sqlmigrate"}
_SCHEMA_ONLY = (
    len(sys.argv) > 1 and sys.argv[0].endswith("manage.py") and sys.argv[1] in _SCHEMA_COMMANDS
)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = _DEV_SECRET_KEY
    elif not _SCHEMA_ONLY:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")

# ID numbers are encrypted at rest (clubapp/members/crypto.py, docs/members.md).
# ID_NUMBER_KEYS: Fernet keys, comma-separated, the newest first (it encrypts; all
# decrypt, for a rotation). ID_NUMBER_HASH_KEY: the HMAC key of the look-up hash.
# Generate a Fernet key with
#   python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"
# The development keys below serve DEBUG and tests only; `check --deploy` refuses them.
DEV_ID_NUMBER_KEY = "ZGV2LW9ubHktaWQtbnVtYmVyLWtleS0wMTIzNDU2Nzg="
DEV_ID_NUMBER_HASH_KEY = "dev-only-id-number-hash-key-never-in-production"
ID_NUMBER_KEYS = envlist("ID_NUMBER_KEYS")
ID_NUMBER_HASH_KEY = os.environ.get("ID_NUMBER_HASH_KEY", "")
if DEBUG or TESTING:
    ID_NUMBER_KEYS = ID_NUMBER_KEYS or [DEV_ID_NUMBER_KEY]
    ID_NUMBER_HASH_KEY = ID_NUMBER_HASH_KEY or DEV_ID_NUMBER_HASH_KEY

# An empty list is fine with DEBUG: Django then allows localhost only.
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver" if TESTING else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "django_tables2",
    "django_filters",
    "clubapp.core",
    "clubapp.members",
    "clubapp.books",
    "clubapp.play",
    "clubapp.activities",
    "clubapp.reports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A refused database connection: 503 + Retry-After, not a 500 (core/middleware.py).
    "clubapp.core.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Chinese unless the language switch says otherwise (not the browser's header).
    "clubapp.core.middleware.RoomLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the session and the user (its response runs before theirs).
    "clubapp.core.middleware.SessionIdleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # request.room, once; on PostgreSQL the request's transaction sets app.room.
    "clubapp.core.rooms.RoomMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubapp.urls"
WSGI_APPLICATION = "clubapp.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubapp.core.context_processors.navigation",
            ],
        },
    },
]
# Every list: one table template and one class, so each becomes a stack of cards on a
# phone with the row's name first (templates/core/_table.html, static/css/app.css).
DJANGO_TABLES2_TEMPLATE = "core/_table.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "grid stack"}

DATABASES = {
    "default": database_from_url(os.environ.get("DATABASE_URL", "sqlite:///db.sqlite3")),
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = envint("CONN_MAX_AGE", 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Production on PostgreSQL: the app connects as a plain role (DATABASE_URL) that may
# only read and write rows; migrations run as the tables' owner role through this
# alias, `manage.py migrate --database owner` (docs/operations.md).
if os.environ.get("MIGRATE_DATABASE_URL"):
    DATABASES["owner"] = database_from_url(os.environ["MIGRATE_DATABASE_URL"])
    # The same database under another role: tests use default's test database.
    DATABASES["owner"]["TEST"] = {"MIRROR": "default"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# AxesBackend first: it refuses a locked-out login before the password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # PBKDF2 costs ~0.3 s per hash; the test cast hashes many passwords.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# django-axes: five failures for one username from one address lock that pair
# for 15 minutes (the default would lock forever).
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind a TLS proxy: its address(es) or network(s), comma-separated. Only requests
# from these have their X-Forwarded-For read (clubapp/core/clientip.py).
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES")
AXES_CLIENT_IP_CALLABLE = "clubapp.core.clientip.client_ip"
# Per address, whatever the usernames tried: this many failures within the cool-off
# time refuse further logins from that address (a rate limit; core/views.py).
LOGIN_ADDRESS_FAILURE_LIMIT = envint("LOGIN_ADDRESS_FAILURE_LIMIT", 30)
# Several app servers (docs/operations.md "Several app servers"): with REDIS_URL the
# state they must share besides the database goes through Django's cache in Redis:
# sessions (read from Redis, kept in the database too, so a Redis restart signs nobody
# out), django-axes' lockouts and the per-address login limit (core/loginlimit.py).
# Without it they are rows of the database, which every server shares as well, and the
# cache is each process's own memory, which nothing shared uses.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # one Redis for several deployments (or test runs): each its own keys
            "KEY_PREFIX": os.environ.get("REDIS_KEY_PREFIX", "club"),
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
# A one-time password link (members' accounts) works for this long.
PASSWORD_RESET_TIMEOUT = envint("PASSWORD_LINK_HOURS", 24) * 3600

# Shared phones at the tables: a session ends after this many hours without a request
# (requests renew it, at most every SESSION_RENEW_SECONDS: clubapp/core/middleware.py).
SESSION_COOKIE_AGE = envint("SESSION_IDLE_HOURS", 12) * 3600
SESSION_RENEW_SECONDS = envint("SESSION_RENEW_SECONDS", 600)

# Internationalisation: English msgids in the code, the zh_Hans catalog is the default.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "clubapp" / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
# `manage.py backup` writes a folder here unless given --out (docs/operations.md "Backups").
BACKUP_ROOT = Path(os.environ.get("BACKUP_ROOT", BASE_DIR / "backups"))
# Hashed, compressed files need `collectstatic`; development and tests use the
# plain storage so that they never do.
_static_backend = (
    "django.contrib.staticfiles.storage.StaticFilesStorage"
    if DEBUG or TESTING
    else "whitenoise.storage.CompressedManifestStaticFilesStorage"
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": _static_backend},
}

# Security. Production defaults are on whenever DEBUG is off (tests excepted,
# where the test client speaks plain HTTP); each can be overridden.
_secure = not DEBUG and not TESTING
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", _secure)
# Load balancers probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000 if _secure else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _secure)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", _secure)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", _secure)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", _secure)
if envbool("SECURE_PROXY_SSL_HEADER", False):
    # Only behind a proxy that sets X-Forwarded-Proto itself and strips the client's.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# django-csp: scripts, styles and images from our own origin only; no inline script or
# style (handlers live in static/js/app.js), no framing, forms post only to us.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# One format and one time zone (UTC) for every line, the same as gunicorn's master and
# workers write (gunicorn.conf.py, clubapp/core/logformat.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"utc": {"()": "clubapp.core.logformat.UTCFormatter"}},
    "filters": {"skip_503": {"()": "clubapp.core.logformat.SkipUnavailableResponses"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "utc"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own "django" logger prints to the console too: stop it printing twice.
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # A 503 is logged in one line by the code that answers it (docs/operations.md).
        "django.request": {"filters": ["skip_503"]},
    },
}
