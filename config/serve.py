"""The production server: `python -m config.serve`.

uvicorn with WEB_CONCURRENCY worker processes (default: one per core), each running the ASGI
application with its own bounded database pool (config/settings.py, DB_CONNECTIONS). Live pushes reach
a screen whichever worker holds its socket: they travel through the Redis channel layer, so several
workers need REDIS_URL (without it, one worker is started whatever WEB_CONCURRENCY says). Client
addresses come from X-Forwarded-For only from FORWARDED_ALLOW_IPS (default loopback; docs/operating.md,
"Deploying"). HOST and PORT as for scripts/dev (default 0.0.0.0:8000 here, the container's port).
"""

from __future__ import annotations

import os

import uvicorn


def options(environ: dict[str, str] | None = None) -> dict:
    env = os.environ if environ is None else environ
    workers = max(1, int(env.get("WEB_CONCURRENCY") or os.cpu_count() or 1))
    if not env.get("REDIS_URL"):
        workers = 1  # the in-memory channel layer cannot carry a push from one process to another
    return {
        "host": env.get("HOST", "0.0.0.0"),  # noqa: S104 -- the server's port inside its container
        "port": int(env.get("PORT", "8000")),
        "workers": workers,
        "proxy_headers": True,
        "forwarded_allow_ips": env.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        "ws_per_message_deflate": False,
        "log_level": env.get("LOG_LEVEL", "info").lower(),
        "access_log": env.get("ACCESS_LOG", "0") == "1",
        "timeout_graceful_shutdown": 10,
    }


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    settings = options()
    # The settings size each worker's pool from WEB_CONCURRENCY: give them the number actually started.
    os.environ["WEB_CONCURRENCY"] = str(settings["workers"])
    uvicorn.run("config.asgi:application", **settings)


if __name__ == "__main__":
    main()
