"""The memory a tournament file's import takes before it refuses a file (archive/transfer.py, read_file), for the files
that used to cost a worker hundreds of MB or a 500, and for the fullest file it still parses.

Each case runs in a process of its own (peak RSS is a process's high-water mark): the file's bytes are made there,
then read_file is called on them; the figure is the peak RSS above the process's RSS with the bytes in hand. "as
before" parses the same bytes with json.loads alone, as the import did before its checks. No database is used.

Run by hand: .venv/bin/python bench/import_limits.py [TOURNAMENT_FILE_MAX_MB, default the setting's default]
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "18 MB of empty objects (the issue's file)": "b'{\"rows\":[' + b'{},' * 6_000_000 + b'{}]}'",
    "100,000 deep": "b'[' * 100_000 + b']' * 100_000",
    "40 MB (over the size)": "b'{\"rows\":\"' + b'x' * 40_000_000 + b'\"}'",
    "texts of 2 characters, as many as the limit lets through": "b'{\"rows\":[' + b'\"ab\",' * (LIMIT // 8 - 1) + b'\"ab\"]}'",
    "numbers of 4 digits, as many as the limit lets through": "b'{\"rows\":[' + b'1000,' * (LIMIT // 8 - 1) + b'1000]}'",
}

CHILD = """
import os, resource, sys, time, json
sys.path.insert(0, {root!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from archive.transfer import read_file
from core.errors import ServiceError
LIMIT = settings.TOURNAMENT_FILE_MAX_MB * 1_000_000
raw = {make}
def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024
base = rss()
started = time.perf_counter()
try:
    if {before}:
        json.loads(raw.decode())
        said = "parsed"
    else:
        read_file(raw)
        said = "parsed"
except ServiceError as exc:
    said = exc.code
except RecursionError:
    said = "RecursionError (a 500)"
spent = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{{len(raw) / 1e6:6.1f}} MB  {{said:<24}} {{max(0, peak - base):7.0f}} MB above the bytes in hand  {{spent:5.2f}} s")
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
        if not name.startswith(("40 MB", "texts", "numbers")):
            print(f"  as before (json):    {run(make, True, env)}")


if __name__ == "__main__":
    main()
