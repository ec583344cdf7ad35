"""Is a process that logged something still running? (No Dagster imports.)

A run killed with SIGKILL (out of memory, a closed terminal) never writes its end event, so
its status stays STARTED and its concurrency slots stay claimed. Its event log still names
the process ids that did the work; these helpers decide whether such a process is alive.

A pid alone is not proof: a killed step process can linger as a zombie (its parent died
too, nobody reaps it) and pids are reused. So a process counts as alive only when it
exists, is not a zombie, and started no later than the moment it logged (on Linux, from
/proc; elsewhere only existence is checked).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
# /proc/stat's btime has whole seconds and start times clock ticks: allow that much error
START_TIME_SLACK_SECONDS = 2.0


@dataclass(frozen=True)
class Worker:
    """A process a run's event log names: its pid and when it first logged."""

    pid: int
    first_seen: float  # epoch seconds of its first event
    role: str  # "run" (orchestrating process) or "step <key>"


def _proc_stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name, or None if unreadable."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ..."; comm may hold spaces and parentheses
    return text[text.rfind(")") + 2 :].split()


def _boot_time() -> float | None:
    try:
        for line in (PROC / "stat").read_text().splitlines():
            if line.startswith("btime "):
                return float(line.split()[1])
    except OSError:
        return None
    return None


def process_start_time(pid: int) -> float | None:
    """Epoch seconds at which ``pid`` started (Linux /proc), None when unknown."""
    fields = _proc_stat_fields(pid)
    boot = _boot_time()
    if fields is None or boot is None or len(fields) < 20:
        return None
    return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime


def process_alive(pid: int, logged_at: float | None = None) -> bool:
    """True if ``pid`` runs, is not a zombie and (when known) started by ``logged_at``."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    fields = _proc_stat_fields(pid)
    if fields is None:
        return not PROC.is_dir()  # no /proc (macOS): existence is all we know
    if fields[0] in ("Z", "X"):  # zombie or dead: killed, not yet reaped
        return False
    if logged_at is not None:
        started = process_start_time(pid)
        if started is not None and started > logged_at + START_TIME_SLACK_SECONDS:
            return False  # pid reused by a process born after the one that logged
    return True


def all_gone(workers: Iterable[Worker], alive: Callable[[Worker], bool] | None = None) -> bool:
    """A run is orphaned when it named at least one worker and none of them is alive: no
    process is left that could still finish it (a step process outliving a killed parent
    keeps the run alive until it ends too)."""
    check = alive or (lambda w: process_alive(w.pid, w.first_seen))
    workers = list(workers)
    return bool(workers) and not any(check(w) for w in workers)
