"""The log filters of config/settings.py LOGGING (config/logmask.py): a failure because the database is away is one
warning line, never a traceback; any other error keeps its traceback."""

from __future__ import annotations

import logging
import sys

from django.db import OperationalError

from config.logmask import DatabaseDown


def record_of(exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        info = sys.exc_info()
    return logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Service Unavailable: %s", ("/api/x/",), info)


def test_a_request_failed_by_the_database_away_is_one_warning_line():
    down = OperationalError("connection failed: Connection refused\n\tIs the server running on that host?")
    record = record_of(down)
    assert DatabaseDown().filter(record)
    assert record.exc_info is None and record.levelname == "WARNING"
    assert logging.Formatter().format(record) == (
        "Service Unavailable: /api/x/: the database is unavailable (OperationalError: connection failed: Connection refused)"
    )


def test_any_other_error_keeps_its_traceback():
    record = record_of(ValueError("a bug"))
    assert DatabaseDown().filter(record)
    assert record.levelname == "ERROR" and "Traceback" in logging.Formatter().format(record)
