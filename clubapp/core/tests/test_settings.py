from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from clubapp.settings import database_from_url, envbool, envint, envlist

ROOT = Path(settings.BASE_DIR)


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a clean environment (no pytest, so production defaults apply)."""
    clean = {k: v for k, v in os.environ.items() if k not in _SETTINGS_VARS}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "clubapp.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


_SETTINGS_VARS = {
    # Set by conftest for the browser tests; check --deploy rightly refuses it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DATABASE_URL",
    "DEBUG",
    "SECRET_KEY",
    "ID_NUMBER_KEYS",
    "ID_NUMBER_HASH_KEY",
    "MIGRATE_DATABASE_URL",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "REDIS_URL",
    "REDIS_KEY_PREFIX",
}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("On", True), ("0", False), ("no", False), ("", False)],
)
def test_it_parses_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("FLAG", raw)
    assert envbool("FLAG") is expected


def test_it_uses_the_boolean_default_when_unset(monkeypatch):
    monkeypatch.delenv("FLAG", raising=False)
    assert envbool("FLAG", True) is True


def test_it_refuses_a_misspelt_boolean(monkeypatch):
    monkeypatch.setenv("FLAG", "ture")
    with pytest.raises(ImproperlyConfigured):
        envbool("FLAG")


def test_it_parses_integers(monkeypatch):
    monkeypatch.setenv("N", "42")
    assert envint("N", 1) == 42
    monkeypatch.setenv("N", "")
    assert envint("N", 1) == 1
    monkeypatch.setenv("N", "forty")
    with pytest.raises(ImproperlyConfigured):
        envint("N", 1)


def test_it_parses_lists(monkeypatch):
    monkeypatch.setenv("HOSTS", " a.example, b.example ,,")
    assert envlist("HOSTS") == ["a.example", "b.example"]
    monkeypatch.delenv("HOSTS")
    assert envlist("HOSTS", "x") == ["x"]


def test_it_reads_a_relative_sqlite_url():
    db = database_from_url("sqlite:///db.sqlite3", base_dir=Path("/srv/app"))
    assert db == {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/app/db.sqlite3"}


def test_it_reads_an_absolute_sqlite_url():
    assert database_from_url("sqlite:////var/lib/club.db")["NAME"] == "/var/lib/club.db"


def test_it_reads_a_postgres_url():
    db = database_from_url("postgres://club:p%40ss@db.internal:6543/room?sslmode=require")
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "room",
        "USER": "club",
        "PASSWORD": "p@ss",
        "HOST": "db.internal",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }


def test_it_reads_a_postgres_url_without_password_or_port():
    db = database_from_url("postgresql://postgres@127.0.0.1/test")
    assert (db["USER"], db["PASSWORD"], db["PORT"], db["NAME"]) == ("postgres", "", "", "test")


@pytest.mark.parametrize("url", ["mysql://u@h/db", "postgres://u@h/", "sqlite:///"])
def test_it_refuses_unusable_database_urls(url):
    with pytest.raises(ImproperlyConfigured):
        database_from_url(url)


def test_it_defaults_to_chinese_and_shanghai():
    assert settings.LANGUAGE_CODE == "zh-hans"
    assert settings.TIME_ZONE == "Asia/Shanghai"
    assert settings.USE_TZ is True


def test_it_puts_the_axes_backend_first():
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesBackend"


def test_it_ships_a_compiled_catalog():
    assert (ROOT / "clubapp/locale/zh_Hans/LC_MESSAGES/django.mo").is_file()


def test_it_refuses_to_start_without_secret_key_in_production():
    for command in (["check"], ["migrate", "--plan"]):
        result = _manage(*command, DEBUG="0")
        assert result.returncode != 0, command
        assert "SECRET_KEY" in result.stderr


def test_schema_commands_run_without_the_secret():
    # they sign nothing: a build step checks the migrations without the production secret
    result = _manage("makemigrations", "--check", "--dry-run", DEBUG="0")
    assert result.returncode == 0, result.stderr
    assert "No changes detected" in result.stdout


def test_it_passes_check_deploy_with_production_environment():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.com",
        ID_NUMBER_KEYS=Fernet.generate_key().decode(),
        ID_NUMBER_HASH_KEY=secrets.token_urlsafe(40),
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stderr + result.stdout


_SHOW_SHARED_STATE = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps([s.CACHES['default'], s.SESSION_ENGINE, s.AXES_HANDLER]))"
)


def test_with_redis_url_sessions_lockouts_and_the_address_limit_go_to_redis():
    result = _manage(
        "shell",
        "-c",
        _SHOW_SHARED_STATE,
        DEBUG="1",
        REDIS_URL=" redis://127.0.0.1:6379/3 ",
        REDIS_KEY_PREFIX="room-a",
    )
    assert result.returncode == 0, result.stderr
    cache, sessions, axes = json.loads(result.stdout.strip().splitlines()[-1])
    assert cache == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/3",
        "KEY_PREFIX": "room-a",
    }
    # read from Redis, kept in the database: a Redis restart signs nobody out
    assert sessions == "django.contrib.sessions.backends.cached_db"
    assert axes == "axes.handlers.cache.AxesCacheHandler"


def test_without_redis_url_they_stay_rows_of_the_database():
    for env in ({}, {"REDIS_URL": ""}):
        result = _manage("shell", "-c", _SHOW_SHARED_STATE, DEBUG="1", **env)
        assert result.returncode == 0, result.stderr
        cache, sessions, axes = json.loads(result.stdout.strip().splitlines()[-1])
        assert cache["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
        assert sessions == "django.contrib.sessions.backends.db"
        assert axes == "axes.handlers.database.AxesDatabaseHandler"
