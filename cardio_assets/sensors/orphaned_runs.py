"""Killed runs: mark runs whose processes are gone as failed and free their pool slots.

Why this exists: a run killed with SIGKILL (out of memory, a closed terminal, ``kill -9``)
never writes its end event. Dagster then shows it STARTED forever and, worse, keeps the
concurrency slots its steps claimed: with the ``llm`` pool at limit 1, every later
extraction waits for a slot nobody will free. Dagster's own run monitoring cannot see this
with the DefaultRunLauncher (it does not implement ``check_run_worker_health``), so the
pipeline checks itself: a STARTED (or CANCELING) run whose event log names processes of
which none is alive any more is marked FAILURE (CANCELED when it was being canceled) and
every slot and pending claim of it is freed. Slots still held by runs that already ended
are freed too, after a short grace.

``release_orphaned_runs`` is a plain function of the instance; the ``orphaned_run_sensor``
below (every 30 s while the daemon runs) and ``cardio status`` call it.

Assumes the runs are processes of this machine, as with the DefaultRunLauncher and the
local SQLite storage of this project: with any other launcher it checks nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dagster as dg

from cardio_assets.logic.processes import Worker, all_gone

# events written by the run's own processes: the orchestrator (RUN_START) and step workers
WORKER_EVENTS = frozenset(
    {
        dg.DagsterEventType.RUN_START,
        dg.DagsterEventType.STEP_WORKER_STARTED,
        dg.DagsterEventType.STEP_START,
    }
)
IN_FLIGHT = (dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING)
# a run that ended normally frees its slots itself; only a leak outlives this grace
FINISHED_GRACE_SECONDS = 30.0
SENSOR_INTERVAL_SECONDS = 30


@dataclass(frozen=True)
class ReleasedRun:
    """One run this pass marked as ended, and the slots it held."""

    run_id: str
    job_name: str
    partition: str | None
    was: str  # status before: STARTED | CANCELING
    now: str  # FAILURE | CANCELED
    workers: tuple[Worker, ...]
    freed_slots: tuple[str, ...]  # "<pool>: <step>" claimed or waiting

    def describe(self) -> str:
        pids = ", ".join(f"{w.pid} ({w.role})" for w in self.workers)
        where = f" partition {self.partition}" if self.partition else ""
        slots = f"; freed {', '.join(self.freed_slots)}" if self.freed_slots else ""
        return (
            f"run {self.run_id} ({self.job_name}{where}) was {self.was} but its processes "
            f"are gone (pid {pids}): marked {self.now}{slots}"
        )


@dataclass
class ReleaseReport:
    marked: list[ReleasedRun] = field(default_factory=list)
    # runs that had already ended but still held slots: run id -> slots freed
    freed_after_end: dict[str, tuple[str, ...]] = field(default_factory=dict)
    skipped: str | None = None  # why nothing was checked

    def lines(self) -> list[str]:
        out = [r.describe() for r in self.marked]
        out += [
            f"run {run_id} had ended but still held {', '.join(slots)}: freed"
            for run_id, slots in self.freed_after_end.items()
        ]
        return out

    def summary(self) -> str:
        if self.skipped:
            return f"not checked: {self.skipped}"
        if not self.marked and not self.freed_after_end:
            return "no killed runs, no leaked pool slots"
        return "; ".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        return {
            "marked": [
                {
                    "run_id": r.run_id,
                    "job_name": r.job_name,
                    "partition": r.partition,
                    "was": r.was,
                    "now": r.now,
                    "pids": [w.pid for w in r.workers],
                    "freed_slots": list(r.freed_slots),
                }
                for r in self.marked
            ],
            "freed_after_end": {k: list(v) for k, v in self.freed_after_end.items()},
            "skipped": self.skipped,
        }


def run_workers(instance: dg.DagsterInstance, run_id: str) -> list[Worker]:
    """Every process the run's events were written by, with when it first logged."""
    first: dict[int, Worker] = {}
    for entry in instance.all_logs(run_id, of_type=set(WORKER_EVENTS)):
        event = entry.dagster_event
        if event is None or not event.pid:
            continue
        if event.pid in first and first[event.pid].first_seen <= entry.timestamp:
            continue
        role = "run" if event.event_type == dg.DagsterEventType.RUN_START else "step"
        if role == "step" and event.step_key:
            role = f"step {event.step_key}"
        first[event.pid] = Worker(event.pid, entry.timestamp, role)
    return sorted(first.values(), key=lambda w: w.first_seen)


def held_slots(instance: dg.DagsterInstance) -> dict[str, list[str]]:
    """Run id -> "<pool>: <step>" of every claimed slot and queued claim, across pools."""
    storage = instance.event_log_storage
    if not storage.supports_global_concurrency_limits:
        return {}
    held: dict[str, list[str]] = {}
    for pool in sorted(storage.get_concurrency_keys()):
        info = storage.get_concurrency_info(pool)
        for slot in info.claimed_slots:
            held.setdefault(slot.run_id, []).append(f"{pool}: {slot.step_key}")
        for pending in info.pending_steps:
            if pending.assigned_timestamp is None:
                held.setdefault(pending.run_id, []).append(f"{pool}: {pending.step_key} (queued)")
    return held


def _free(instance: dg.DagsterInstance, run_id: str) -> None:
    if instance.event_log_storage.supports_global_concurrency_limits:
        instance.event_log_storage.free_concurrency_slots_for_run(run_id)


def _mark_ended(
    instance: dg.DagsterInstance, run: dg.DagsterRun, workers: list[Worker], by: str
) -> str:
    pids = ", ".join(str(w.pid) for w in workers)
    message = (
        f"{by}: every process of this run is gone (pid {pids}): it was killed (out of "
        "memory, kill -9, a closed terminal) and can never report its end. Its "
        "concurrency slots were freed; re-materialize the partition to redo it."
    )
    if run.status == dg.DagsterRunStatus.CANCELING:
        instance.report_run_canceled(run, message)
        return str(dg.DagsterRunStatus.CANCELED.value)
    from dagster._core.events import JobFailureData, RunFailureReason

    instance.report_run_failed(
        run,
        message,
        JobFailureData(error=None, failure_reason=RunFailureReason.UNEXPECTED_TERMINATION),
    )
    return str(dg.DagsterRunStatus.FAILURE.value)


def release_orphaned_runs(
    instance: dg.DagsterInstance,
    *,
    by: str = "cardio",
    alive: Callable[[Worker], bool] | None = None,
    finished_grace_seconds: float = FINISHED_GRACE_SECONDS,
    now: float | None = None,
) -> ReleaseReport:
    """Mark in-flight runs whose processes are all gone as ended and free their slots;
    free slots that runs which already ended still hold. Safe to call at any time: a run
    is only touched once no process of it is alive and its status, read again after that
    check, is still in flight."""
    report = ReleaseReport()
    if not isinstance(instance.run_launcher, dg.DefaultRunLauncher):
        report.skipped = (
            f"run launcher {type(instance.run_launcher).__name__} may run workers on other "
            "machines; rely on Dagster's run monitoring there"
        )
        return report
    held = held_slots(instance)
    for record in instance.get_run_records(dg.RunsFilter(statuses=list(IN_FLIGHT))):
        run = record.dagster_run
        workers = run_workers(instance, run.run_id)
        if not all_gone(workers, alive):
            continue
        current = instance.get_run_by_id(run.run_id)  # it may have ended meanwhile
        if current is None or current.status not in IN_FLIGHT:
            continue
        new_status = _mark_ended(instance, current, workers, by)
        _free(instance, run.run_id)
        report.marked.append(
            ReleasedRun(
                run_id=run.run_id,
                job_name=run.job_name,
                partition=run.tags.get("dagster/partition"),
                was=str(current.status.value),
                now=new_status,
                workers=tuple(workers),
                freed_slots=tuple(held.pop(run.run_id, ())),
            )
        )
    report.freed_after_end = _free_slots_of_ended_runs(
        instance, held, finished_grace_seconds, time.time() if now is None else now
    )
    return report


def _free_slots_of_ended_runs(
    instance: dg.DagsterInstance,
    held: dict[str, list[str]],
    grace_seconds: float,
    now: float,
) -> dict[str, tuple[str, ...]]:
    freed: dict[str, tuple[str, ...]] = {}
    if not held:
        return freed
    records = {
        r.dagster_run.run_id: r for r in instance.get_run_records(dg.RunsFilter(run_ids=list(held)))
    }
    for run_id, slots in held.items():
        record = records.get(run_id)
        if record is not None:
            if not record.dagster_run.is_finished:
                continue
            ended = record.end_time or record.update_timestamp.timestamp()
            if now - ended < grace_seconds:
                continue
        _free(instance, run_id)  # ended long enough ago, or deleted
        freed[run_id] = tuple(slots)
    return freed


def build_orphaned_run_sensor(
    minimum_interval_seconds: int = SENSOR_INTERVAL_SECONDS,
) -> dg.SensorDefinition:
    """Sensor calling release_orphaned_runs on every tick (no runs requested)."""

    @dg.sensor(
        name="orphaned_run_sensor",
        minimum_interval_seconds=minimum_interval_seconds,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description=(
            "Marks runs whose processes were killed (kill -9, out of memory, a closed "
            "terminal) as failed and frees the concurrency pool slots they held, so later "
            "runs do not wait forever (cardio_assets/sensors/orphaned_runs.py)."
        ),
    )
    def orphaned_run_sensor(context: dg.SensorEvaluationContext) -> dg.SkipReason:
        report = release_orphaned_runs(context.instance, by="orphaned_run_sensor")
        for line in report.lines():
            context.log.warning(line)
        return dg.SkipReason(report.summary())

    return orphaned_run_sensor


orphaned_run_sensor = build_orphaned_run_sensor()
