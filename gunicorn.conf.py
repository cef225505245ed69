"""gunicorn's settings, read from the working directory: `gunicorn clubapp.wsgi`.

Workers and threads come from the command line or the environment
(`WEB_CONCURRENCY`, `GUNICORN_CMD_ARGS="--workers 3 --threads 4"`); sizing them
against PostgreSQL's connection limit: docs/operations.md "Database connections".

Logs: the master and the workers write one format in one time zone, UTC
(clubapp/core/logformat.py): the error log (gunicorn's own lines) to stderr, the
access log to stdout. The access line leaves out gunicorn's `%(t)s`, which is the
process's local time (+0800 in a worker, once Django has set its TIME_ZONE): the
formatter's UTC time starts the line instead.
"""

_FORMATTER = "clubapp.core.logformat.UTCFormatter"

logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"utc": {"()": _FORMATTER}},
    "handlers": {
        "error": {
            "class": "logging.StreamHandler",
            "formatter": "utc",
            "stream": "ext://sys.stderr",
        },
        "access": {
            "class": "logging.StreamHandler",
            "formatter": "utc",
            "stream": "ext://sys.stdout",
        },
    },
    "root": {"level": "INFO", "handlers": ["error"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["access"], "propagate": False},
    },
}
# address "request line" status bytes duration user-agent (no %(t)s: see above)
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
