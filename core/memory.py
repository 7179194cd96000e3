"""A worker process's memory of answers per state version, and of the versions themselves.

Every change of a tournament is an audited event with the next sequence number (tournament/services/audit.py),
so (tournament, version) names a state of everything a screen shows. What many screens ask at one
version (the room's seats, the lobby's and the floor's snapshots) is computed once per version in each
worker, and the others wait for that one computation instead of each making its own.

The versions are read from the database; each worker remembers the last one it read for a short time
(`FRESH_SECONDS`) so a crowd of phones does not make one query each:
- a phone that names the version it has been told of (the sequence of the push it reacts to) gets an
  answer at least that new, whatever the time: pushes come after the commit, and each change makes a push;
- a first load takes a version at most `FRESH_SECONDS` old;
- a change made in this worker forgets its tournament's version at once (`forget_version`).
Plain Python: no Django here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import NamedTuple

FRESH_SECONDS = 0.25  # how long a version read from the database is taken without asking again
TRUSTED_SECONDS = 5.0  # how long it answers a phone that names a version no newer than it


class Versions(NamedTuple):
    read_at: float  # time.monotonic() when it was read
    event_seq: int  # the tournament's event sequence
    seats_seq: int  # the last event that may change a public seat answer


_versions: dict[int, Versions] = {}
_kept: dict[tuple[str, int], tuple[int, object]] = {}  # (what, tournament) -> (version, answer): the newest only
_locks: dict[tuple[str, int], threading.Lock] = {}
_locks_lock = threading.Lock()


def known_versions(pk: int, seen: int | None = None) -> Versions | None:
    """The versions this worker read lately, if they may answer: at least as new as `seen` (the event
    sequence a phone was told of) and read within TRUSTED_SECONDS, or, with nothing seen, within
    FRESH_SECONDS. None: read them from the database (then `remember_versions`)."""
    known = _versions.get(pk)
    if known is None:
        return None
    age = time.monotonic() - known.read_at
    if seen is not None:
        return known if known.event_seq >= seen and age < TRUSTED_SECONDS else None
    return known if age < FRESH_SECONDS else None


def remember_versions(pk: int, event_seq: int, seats_seq: int, read_at: float) -> None:
    """`read_at`: time.monotonic() taken before the query, so the age is never understated."""
    known = _versions.get(pk)
    if known is None or known.event_seq <= event_seq:
        _versions[pk] = Versions(read_at, event_seq, seats_seq)


def forget_version(pk: int) -> None:
    """A change in this worker: the next read asks the database."""
    _versions.pop(pk, None)


def at_version(
    what: str,
    pk: int,
    seq: int,
    compute: Callable[[], tuple[int, object]],
    *,
    meanwhile: bool = False,
    step: Callable[[int, object], tuple[int, object] | None] | None = None,
) -> tuple[int, object]:
    """`compute()` once per version of `what` in this worker. Requests run in threads of their own: the
    ones asking at a new version wait for one computation. `compute` returns (version it read, answer);
    a newer version than asked for is as good (it was read after this one). Returns (version, answer).
    `meanwhile`: the caller takes the answer of the version before while the new one is being computed
    (a first load, which takes a version a moment old anyway: FRESH_SECONDS); it never waits then.
    `step(version, answer)`: the new answer made from the one kept (never changed in place), or None when
    it cannot be: then `compute()`."""
    key = (what, pk)
    kept = _kept.get(key)
    if kept is not None and kept[0] >= seq:
        return kept
    with _locks_lock:
        lock = _locks.setdefault(key, threading.Lock())
    if not lock.acquire(blocking=not (meanwhile and kept is not None)):
        return kept  # being computed by another request: the version before, for a moment more
    try:
        kept = _kept.get(key)
        if kept is None or kept[0] < seq:
            stepped = step(*kept) if step is not None and kept is not None else None
            kept = stepped if stepped is not None else compute()
            _kept[key] = kept
    finally:
        lock.release()
    return kept


def forget_all() -> None:
    """Tests: a rolled-back test's ids and versions come back in the next one."""
    _versions.clear()
    _kept.clear()
