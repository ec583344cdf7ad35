"""One load of a guideline at a time, across processes: a lease lock node in Neo4j.

Why: a load starts by deleting the half-written copies that earlier failed loads left
(``Guideline.pending_load_ids``). Two loads of the same guideline at once (a backfill and a
manual run, two `cardio demo`s) would each take the other's copy in progress for such a
leftover and delete it mid-write. So a load first takes ``(:LoadLock {guideline})``: the
holder is the load id, with an expiry the holder renews while it works; releasing clears
the holder and keeps the node (one per guideline), so takers always meet the same node.
Another load of the same guideline waits until the lock is released, or until its lease ran
out (the holder's process died: kill -9, out of memory), and then takes it over. The switch to a new version
commits only while its load still holds the lock (see ``_Q_SWITCH`` in cypher.py), so
a load whose lease was taken over can never make its copy current.

Neo4j has no "lock if free" statement: the query first writes the lock node (taking
Neo4j's write lock on it, so concurrent takers queue), and only then reads the holder, as
Neo4j's documentation prescribes against lost updates. Times come from the server's clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the driver is imported where a load runs, not by every run's process
    import neo4j

LOCK_SCHEMA_STATEMENTS: tuple[str, ...] = (
    "CREATE CONSTRAINT load_lock_guideline IF NOT EXISTS "
    "FOR (l:LoadLock) REQUIRE l.guideline IS UNIQUE",
)
DEFAULT_LEASE_SECONDS = 60.0  # how long a killed holder blocks the next load at most
DEFAULT_WAIT_SECONDS = 3600.0  # a live holder is waited for this long, then the load fails
POLL_SECONDS = 0.5

_Q_TAKE = """
MERGE (l:LoadLock {guideline: $guideline})
SET l.taking = true
WITH l, l.holder AS holder, l.holder_run_id AS holder_run_id, l.expires_at AS expires
WITH l, holder, holder_run_id, expires,
     holder IS NULL OR holder = $holder OR holder IN $dead
     OR expires < datetime.realtime() AS free
SET l.holder = CASE WHEN free THEN $holder ELSE holder END,
    l.holder_run_id = CASE WHEN free THEN $run_id ELSE holder_run_id END,
    l.expires_at = CASE WHEN free
        THEN datetime.realtime() + duration({milliseconds: $lease_ms}) ELSE expires END
REMOVE l.taking
RETURN free, holder, holder_run_id, toString(expires) AS expires
"""
_Q_RENEW = """
MATCH (l:LoadLock {guideline: $guideline, holder: $holder})
SET l.expires_at = datetime.realtime() + duration({milliseconds: $lease_ms})
RETURN count(l) AS n
"""
# Released by clearing the holder, never by deleting the node: a taker whose MERGE matched
# the node while a release deleted it would read no holder, "take" a node that no longer
# exists and go on as if it held the lock (seen under load;
# tests/reliability/test_concurrent_loads.py).
_Q_RELEASE = """
MATCH (l:LoadLock {guideline: $guideline, holder: $holder})
SET l.holder = null, l.holder_run_id = null, l.expires_at = null
"""

# Loads of THIS process that ended without being able to release their lock (Neo4j was
# down): they are certainly not running, so the next load here need not wait out their lease.
_unreleased: set[tuple[str, str]] = set()
_unreleased_guard = threading.Lock()


class LoadLockTimeout(RuntimeError):
    """Another load of the guideline held the lock for longer than we were willing to wait."""


class LoadLockLost(RuntimeError):
    """Our lease ran out and another load took the lock over: this load must not switch."""


@dataclass(frozen=True)
class Grant:
    waited_seconds: float
    taken_over: str | None  # load id of a holder whose lease had run out (or that ended)


class LoadLock:
    """The guideline's load lock for one load (``holder`` = its load id)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        guideline: str,
        holder: str,
        *,
        run_id: str | None = None,
        database: str = "neo4j",
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
    ) -> None:
        self.driver, self.guideline, self.holder = driver, guideline, holder
        self.run_id, self.database, self.lease_seconds = run_id, database, lease_seconds
        self.lost = False
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def _params(self) -> dict[str, object]:
        return {
            "guideline": self.guideline,
            "holder": self.holder,
            "lease_ms": int(self.lease_seconds * 1000),
        }

    def acquire(
        self,
        wait_seconds: float = DEFAULT_WAIT_SECONDS,
        on_wait: Callable[[str], None] | None = None,
        poll_seconds: float = POLL_SECONDS,
    ) -> Grant:
        """Take the lock, waiting while another live load holds it; then keep renewing
        it in a background thread until ``release``."""
        started = time.monotonic()
        told = False
        while True:
            with _unreleased_guard:
                dead = [h for g, h in _unreleased if g == self.guideline]
            with self.driver.session(database=self.database) as session:
                record = session.execute_write(
                    lambda tx, d=dead: tx.run(
                        _Q_TAKE, self._params(), run_id=self.run_id, dead=d
                    ).single()
                )
            if record["free"]:
                break
            waited = time.monotonic() - started
            holder = f"load {record['holder']} (run {record['holder_run_id'] or '-'})"
            if waited >= wait_seconds:
                raise LoadLockTimeout(
                    f"another load of guideline {self.guideline!r}, {holder}, still holds its "
                    f"load lock after {waited:.0f} s (lease until {record['expires']})"
                )
            if on_wait is not None and not told:
                on_wait(
                    f"waiting for {holder} to finish loading {self.guideline!r} "
                    f"(its lease runs until {record['expires']})"
                )
                told = True
            time.sleep(poll_seconds)
        previous = record["holder"]
        taken_over = previous if previous not in (None, self.holder) else None
        if taken_over is not None:
            with _unreleased_guard:
                _unreleased.discard((self.guideline, taken_over))
        self._renewer = threading.Thread(
            target=self._renew_until_stopped, name="neo4j-load-lock", daemon=True
        )
        self._renewer.start()
        return Grant(round(time.monotonic() - started, 3), taken_over)

    def _renew_until_stopped(self) -> None:
        """Push the expiry forward every quarter lease; a failed renewal is retried at the
        next turn (Neo4j down: the load itself fails); a lost lock is flagged."""
        while not self._stop.wait(self.lease_seconds / 4):
            try:
                with self.driver.session(database=self.database) as session:
                    renewed = session.run(_Q_RENEW, self._params()).single()
            except Exception:  # noqa: BLE001 - retried next turn
                continue
            if renewed is not None and renewed["n"] == 0:
                self.lost = True
                return

    def check(self) -> None:
        """Raise LoadLockLost once another load took the lock over."""
        if self.lost:
            raise LoadLockLost(
                f"the load lock of guideline {self.guideline!r} was taken over by another "
                f"load after this one's lease of {self.lease_seconds:g} s ran out"
            )

    def release(self) -> None:
        """Stop renewing and clear the holder if still ours (one attempt: if Neo4j is down,
        this process remembers the load ended and the lease expires for everyone else)."""
        self._stop.set()
        if self._renewer is not None:
            self._renewer.join()
        try:
            with self.driver.session(database=self.database) as session:
                session.run(_Q_RELEASE, self._params()).consume()
        except Exception:  # noqa: BLE001 - the lease ends by itself
            with _unreleased_guard:
                _unreleased.add((self.guideline, self.holder))
