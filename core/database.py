"""Whether an error means the database cannot be used now (down, restarting, a connection lost or refused, the
pool out of connections), as against a constraint broken or bad SQL: web/server.py answers the first 503, and the
logs (config/logmask.DatabaseDown) write it as one line."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError


def _driver_errors() -> tuple[type[BaseException], ...]:
    """psycopg's own connection errors (the pool's PoolTimeout, PoolClosed and TooManyRequests are
    OperationalErrors), for one raised where Django did not wrap it in its own."""
    try:
        import psycopg
    except ImportError:  # SQLite only
        return ()
    return (psycopg.OperationalError, psycopg.InterfaceError)


DATABASE_UNAVAILABLE = (OperationalError, InterfaceError, *_driver_errors())


def database_unavailable(exc: BaseException | None) -> bool:
    """The error, or one it was raised from or while handling, says the database cannot be used now:
    down, restarting, a connection lost or refused, or the pool out of connections (a constraint
    broken or bad SQL is another error: a 500)."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, DATABASE_UNAVAILABLE):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False
