"""Short-lived DuckDB connections that wait for the single-writer lock.

DuckDB lets one process write a file at a time. Dagster runs steps in separate
processes, so every writer opens, writes and closes quickly, and a connection
attempt that meets another process's lock retries with backoff instead of failing
the run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

_LOCK_MARKERS = ("Could not set lock", "Conflicting lock", "database is locked")


@contextmanager
def connect(
    path: Path | str, *, read_only: bool = False, timeout_s: float = 120.0
) -> Iterator[duckdb.DuckDBPyConnection]:
    path = Path(path)
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout_s
    delay = 0.05
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
            break
        except duckdb.IOException as exc:
            if not any(m in str(exc) for m in _LOCK_MARKERS) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 1.0)
    try:
        yield con
    finally:
        con.close()
