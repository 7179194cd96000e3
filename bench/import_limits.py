"""The memory a tournament file's import takes before it refuses a file (archive/services/transfer.py, read_file), for the files
that used to cost a worker hundreds of MB or a 500, and for the fullest file it still parses.

Each case runs in a process of its own: the file's bytes are made there, then read_file is called on them; the figure
is the peak of the memory allocated while it runs (tracemalloc, which sees numpy's arrays too), the bytes in hand not
counted. "as before" parses the same bytes with json.loads alone, as the import did before its checks (the parse of
a file the checks let through costs what it did). No database is used.

Run by hand: .venv/bin/python bench/import_limits.py [TOURNAMENT_FILE_MAX_MB, default the setting's default]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "18 MB of empty objects (the file that took hundreds of MB)": "b'{\"rows\":[' + b'{},' * 6_000_000 + b'{}]}'",
    "100,000 deep": "b'[' * 100_000 + b']' * 100_000",
    "40 MB (over the size)": "b'{\"rows\":\"' + b'x' * 40_000_000 + b'\"}'",
    "texts of 2 characters, as many as the limit lets through": "b'{\"rows\":[' + b'\"ab\",' * (LIMIT // 8 - 3) + b'\"ab\"]}'",
    "numbers of 4 digits, as many as the limit lets through": "b'{\"rows\":[' + b'1000,' * (LIMIT // 8 - 3) + b'1000]}'",
    "one more text than the limit lets through": "b'{\"rows\":[' + b'\"ab\",' * (LIMIT // 8 - 2) + b'\"ab\"]}'",
}

CHILD = """
import json, os, sys, time, tracemalloc
sys.path.insert(0, {root!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from archive.services.transfer import read_file
from core.errors import ServiceError
LIMIT = settings.TOURNAMENT_FILE_MAX_MB * 1_000_000
raw = {make}
started = time.perf_counter()
tracemalloc.start()
try:
    document = json.loads(raw.decode()) if {before} else read_file(raw)
    said = "parsed"
except ServiceError as exc:
    said = exc.code
except RecursionError:
    said = "RecursionError (a 500)"
peak = tracemalloc.get_traced_memory()[1] / 1e6
spent = time.perf_counter() - started
print(f"{{len(raw) / 1e6:5.1f}} MB file  {{said:<24}} peak {{peak:6.0f}} MB allocated  {{spent:5.2f}} s (traced)")
"""


def run(make: str, before: bool, env: dict) -> str:
    code = CHILD.format(root=str(ROOT), make=make, before=before)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def main() -> None:
    env = dict(os.environ, DEBUG=os.environ.get("DEBUG", "1"))
    if len(sys.argv) > 1:
        env["TOURNAMENT_FILE_MAX_MB"] = sys.argv[1]
    print(f"TOURNAMENT_FILE_MAX_MB={env.get('TOURNAMENT_FILE_MAX_MB', 'default')}")
    for name, make in CASES.items():
        print(f"{name}:")
        print(f"  read_file:           {run(make, False, env)}")
        if not name.startswith(("40 MB", "texts", "numbers", "one more")):
            print(f"  as before (json):    {run(make, True, env)}")


if __name__ == "__main__":
    main()
