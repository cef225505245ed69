# Two commands matter: `make run` (a dev server with demo data) and `make test`.
# Everything else is a helper. Stamps keep a second run from reinstalling or reseeding.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .make
# pytest-xdist workers for `make test` (one per core; TEST_WORKERS=0 runs in one process).
TEST_WORKERS ?= auto
# Dev settings for the local server and for manage.py calls during tests.
DEV_ENV := DEBUG=1

# WeasyPrint (the reports' PDFs) needs Pango and HarfBuzz's subsetter from Debian.
SYSTEM_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0

.DEFAULT_GOAL := help
.PHONY: help run test lint fmt migrate demo check-deploy messages reset clean load

help:
	@echo "make run           create .venv, install, migrate, load fixtures, demo data once, serve :8000"
	@echo "make test          ruff, mypy (--strict scoring, clubapp with django-stubs), makemigrations --check,"
	@echo "                   pytest (SQLite, or DATABASE_URL; TEST_WORKERS=auto), coverage (100 % on scoring)"
	@echo "make lint | fmt    ruff check / ruff format + fix imports"
	@echo "make migrate       apply migrations and load fixtures/ (inserts missing rows only)"
	@echo "make demo          create the demo accounts (idempotent)"
	@echo "make check-deploy  manage.py check --deploy with production-like environment"
	@echo "make messages      update and compile the zh_Hans catalog (needs gettext)"
	@echo "make load          the 20-table load scenario (PostgreSQL, gunicorn, Redis; 10 min): LOAD_ARGS=..."
	@echo "make reset         delete the SQLite database and the demo stamp"
	@echo "make clean         delete .venv, stamps and caches"

$(PY):
	$(PYTHON) -m venv $(VENV)

# Debian's libraries for WeasyPrint, installed once when missing (as root), or named.
$(STAMPS)/system.done:
	@if command -v dpkg >/dev/null 2>&1; then \
	  missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	  if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	    else echo "PDFs need:$$missing — run: sudo apt-get install$$missing"; exit 1; fi; \
	  fi; \
	else echo "not Debian: install Pango and HarfBuzz (libharfbuzz-subset) for WeasyPrint yourself"; fi
	@mkdir -p $(STAMPS)
	@touch $@

# Reinstall only when a requirements file changes.
$(VENV)/.requirements.stamp: requirements.txt | $(PY) $(STAMPS)/system.done
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(VENV)/.requirements-dev.stamp: requirements.txt requirements-dev.txt | $(PY) $(STAMPS)/system.done
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

$(VENV)/.requirements-load.stamp: requirements.txt requirements-load.txt | $(PY) $(STAMPS)/system.done
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-load.txt
	touch $@

migrate: $(VENV)/.requirements.stamp
	$(DEV_ENV) $(PY) manage.py migrate --no-input
	$(DEV_ENV) $(PY) manage.py loaddefaults

# The demo command is idempotent by itself; the stamp only keeps it quiet on later runs.
$(STAMPS)/demo.done: | migrate
	$(DEV_ENV) $(PY) manage.py demo --rooms 2
	@mkdir -p $(STAMPS)
	touch $@

demo: migrate
	$(DEV_ENV) $(PY) manage.py demo --rooms 2

run: migrate $(STAMPS)/demo.done
	@mkdir -p staticfiles  # keeps WhiteNoise from warning about a missing STATIC_ROOT
	$(DEV_ENV) $(PY) manage.py runserver 127.0.0.1:8000

test: $(VENV)/.requirements-dev.stamp
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict --config-file "" scoring --exclude scoring/tests
	$(DEV_ENV) $(VENV)/bin/mypy clubapp
	$(DEV_ENV) $(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -n $(TEST_WORKERS) --dist load --durations=25
	$(VENV)/bin/coverage report --include="scoring/*" --fail-under=100 --skip-covered

lint: $(VENV)/.requirements-dev.stamp
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fmt: $(VENV)/.requirements-dev.stamp
	$(VENV)/bin/ruff check --select I --fix .
	$(VENV)/bin/ruff format .

check-deploy: $(VENV)/.requirements.stamp
	DEBUG=0 ALLOWED_HOSTS=example.com \
	SECRET_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	ID_NUMBER_KEYS="$$($(PY) -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())')" \
	ID_NUMBER_HASH_KEY="$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(40))')" \
	$(PY) manage.py check --deploy --fail-level WARNING

messages: $(VENV)/.requirements.stamp
	$(DEV_ENV) $(PY) manage.py makemessages -l zh_Hans -i ".venv/*" -i "scoring/*" -i "bench/*"
	$(DEV_ENV) $(PY) manage.py compilemessages -l zh_Hans -i ".venv"

# The load scenario (bench/README.md "load.py"): its own PostgreSQL database, made afresh
# (LOAD_DATABASE_URL), Redis at LOAD_REDIS_URL unless LOAD_ARGS has --no-redis.
# LOAD_ARGS="--minutes 1" for a smoke run, "--servers 2" for two gunicorns behind a proxy.
load: $(VENV)/.requirements-load.stamp
	$(PY) bench/load.py $(LOAD_ARGS)

reset:
	rm -f db.sqlite3 $(STAMPS)/demo.done

clean:
	rm -rf $(VENV) $(STAMPS) .pytest_cache .ruff_cache .coverage htmlcov
