"""Real concurrency for service tests: jobs run in threads released together by a barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def at_once(jobs: list[Callable[[], object]], timeout: float = 30) -> list:
    """Run the jobs at the same moment, each in its own thread (and database connection); returns,
    in the jobs' order, what each returned or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def worker(i: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results[i] = job()
        except Exception as exc:  # the caller looks at it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return results
