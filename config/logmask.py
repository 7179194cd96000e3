"""No secret in a log line: the paths of dealer links and lobby screen links carry their secret
(`/dealer/<secret>/`, `/display/<secret>/`, a room TV's `/display/room/<secret>/`, and their sockets under `/ws/`).
uvicorn logs every socket it accepts with its path, and its access log (ACCESS_LOG=1) every request; Django logs the
path of a refused request. This filter masks the secret in any record that passes a handler it sits on: Django's console
handler (config/settings.py LOGGING) and uvicorn's own handlers (config/asgi.py)."""

from __future__ import annotations

import logging
import re

from core.database import database_unavailable

SECRET_PATH = re.compile(r"(/(?:ws/)?(?:dealer|display)/(?:room/)?)(?!\*)([^/\s\"'?#]+)")
MASK = "***"


def mask(text: str) -> str:
    return SECRET_PATH.sub(lambda m: m.group(1) + MASK, text)


def _masked(value):
    return mask(value) if isinstance(value, str) else value


class SecretMask(logging.Filter):
    """Masks link secrets in the record's message and its arguments (uvicorn's access formatter reads the
    arguments one by one, so they keep their shape)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_masked(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _masked(arg) for key, arg in record.args.items()}
        return True


def mask_handlers(*names: str) -> None:
    """Put the mask on every handler of these loggers (uvicorn configures its own before the app loads)."""
    for name in names:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, SecretMask) for f in handler.filters):
                handler.addFilter(SecretMask())


class DatabaseDown(logging.Filter):
    """A request or a clock tick that failed because the database cannot be used now (down, restarting, a connection
    lost, the pool out of connections: core.database.database_unavailable) is one warning line, not a traceback each
    time: while PostgreSQL is away every request fails so, and the room answers 503 until it is back. Any other
    error keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        if database_unavailable(exc):
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            record.msg, record.args = f"{record.getMessage()}: the database is unavailable ({type(exc).__name__}: {first})", None
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
