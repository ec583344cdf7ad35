"""Short-lived DuckDB connections that wait, for a bounded time, for the single-writer lock.

DuckDB lets one process write a file at a time. Dagster runs steps in separate
processes, so every writer opens, writes and closes quickly, and a connection
attempt that meets another process's lock retries with backoff instead of failing
the run. The wait is bounded ($CARDIO_LOCK_TIMEOUT_S, default 30 s), is announced once
it lasts over a second, and ends in one DatabaseLockedError naming the file and the
process holding it: a stuck holder must not look like a hang.

Files DuckDB creates here are made owner-only (cardio_assets/files.py).
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from cardio_assets.errors import UserError
from cardio_assets.files import make_private, private_dir

LOCK_TIMEOUT_ENV = "CARDIO_LOCK_TIMEOUT_S"
DEFAULT_LOCK_TIMEOUT_S = 30.0
ANNOUNCE_AFTER_S = 1.0
_LOCK_MARKERS = ("Could not set lock", "Conflicting lock", "database is locked")
_HOLDER = re.compile(r"Conflicting lock is held in (?P<program>.+?) \(PID (?P<pid>\d+)\)")
_log = logging.getLogger(__name__)


class DatabaseLockedError(UserError):
    """Another process kept the DuckDB file locked for longer than the configured wait."""


def lock_timeout_s() -> float:
    """Seconds to wait for another process's lock: $CARDIO_LOCK_TIMEOUT_S, else 30."""
    raw = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_LOCK_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if value < 0:
        raise UserError(f"{LOCK_TIMEOUT_ENV}={raw!r} is not a number of seconds (>= 0)")
    return value


def lock_holder(message: str) -> str:
    """'PID 123, /usr/bin/python3' from DuckDB's lock error, or 'another process'."""
    found = _HOLDER.search(message)
    return f"PID {found['pid']}, {found['program']}" if found else "another process"


@contextmanager
def connect(
    path: Path | str,
    *,
    read_only: bool = False,
    timeout_s: float | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """Open ``path``, waiting up to ``timeout_s`` (default: lock_timeout_s()) for a lock held
    by another process; ``on_wait`` (default: a logged warning) hears once that it waits."""
    path = Path(path)
    timeout = lock_timeout_s() if timeout_s is None else timeout_s
    say = on_wait or _log.warning
    created = False
    if not read_only:
        private_dir(path.parent)
        created = not path.exists()
    start = time.monotonic()
    delay = 0.05
    announced = False
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only)
            break
        except duckdb.IOException as exc:
            message = str(exc)
            if not any(m in message for m in _LOCK_MARKERS):
                raise
            waited = time.monotonic() - start
            if waited >= timeout:
                raise DatabaseLockedError(
                    f"{path} is locked by {lock_holder(message)}; gave up after {waited:.0f} s. "
                    "Let that process finish or stop it, then retry (or wait longer: "
                    f"{LOCK_TIMEOUT_ENV}=SECONDS)"
                ) from None
            if not announced and waited >= ANNOUNCE_AFTER_S:
                announced = True
                say(
                    f"{path} is locked by {lock_holder(message)}: waiting up to {timeout:.0f} s "
                    f"for it ({LOCK_TIMEOUT_ENV})"
                )
            time.sleep(min(delay, max(timeout - waited, 0.0)))
            delay = min(delay * 2, 1.0)
    try:
        if created and path.exists():
            make_private(path)
        yield con
    finally:
        con.close()
