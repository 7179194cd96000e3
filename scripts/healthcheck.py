"""The web container's health check (docker-compose.yml): GET /healthz, exit 0 on 200, 1 otherwise.

    python scripts/healthcheck.py [URL]    (default http://127.0.0.1:8000/healthz)

It asks the server on loopback, but Django answers only the host names in ALLOWED_HOSTS (any other
Host header is a 400), so the request names the first of them, read from the same environment
variable as config/settings.py. /healthz is exempt from the HTTPS redirect (SECURE_REDIRECT_EXEMPT),
so plain HTTP inside the container is enough. No Django import: it runs every few seconds.
"""

from __future__ import annotations

import http.client
import os
import sys
from urllib.parse import urlsplit

DEFAULT_URL = "http://127.0.0.1:8000/healthz"


def host_header(allowed_hosts: str) -> str:
    """A Host that ALLOWED_HOSTS accepts: its first entry ("*" accepts any; ".example.com" accepts example.com)."""
    for entry in (item.strip() for item in allowed_hosts.split(",")):
        if entry and entry != "*":
            return entry.lstrip(".")
    return "localhost"


def check(url: str, host: str, timeout: float = 4.0) -> tuple[int, str]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        connection.request("GET", parts.path or "/", headers={"Host": host})
        answer = connection.getresponse()
        return answer.status, answer.read(200).decode("utf-8", "replace")
    finally:
        connection.close()


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else DEFAULT_URL
    # The production default of config/settings.py when ALLOWED_HOSTS is not set.
    host = host_header(os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1"))
    try:
        status, body = check(url, host)
    except OSError as exc:
        print(f"healthcheck: {url} (Host: {host}): {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"healthcheck: {url} (Host: {host}): {status} {body}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
