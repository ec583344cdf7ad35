"""``cardio status [--guideline ID] [--json]``: which asset partitions are stale, per guideline.

After a threshold edit in configs/, users need to know exactly what to re-run for which
guideline. Dagster's global "unsynced" badge is unreliable for partitioned assets, so this
reads each partition's LAST materialization from the instance (its ``dagster/code_version``,
``dagster/data_version`` and ``dagster/input_data_version/<upstream>`` tags), compares them
with the code versions the definitions compute NOW from configs/, and applies the rule in
cardio_assets/logic/staleness.py. It ends with the ``dagster asset materialize`` selection
that brings each guideline back in sync.

Current code versions come from importing cardio_assets.definitions in this process, so
the command sees configs/ (or $CARDIO_CONFIG_DIR) as they are when it runs; the assets,
their parents and what each one's code version reads (its ``cardio/code_version_reads``
metadata) all come from that Definitions object.

Before reporting, it marks runs whose processes were killed as failed and frees the pool
slots they held (cardio_assets/sensors/orphaned_runs.py), and prints each run it marked.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import click

from cardio_assets.cli.instance import current_nodes, last_materialization, open_instance
from cardio_assets.logic.staleness import (
    AssetNode,
    AssetStatus,
    State,
    downstream_of,
    partition_status,
    rematerialize_roots,
    selection_string,
)


@dataclass(frozen=True)
class GuidelineStatus:
    guideline: str
    registered: bool  # a partition of the instance (else: never materialized by definition)
    assets: list[AssetStatus]
    roots: list[str]

    @property
    def select(self) -> str:
        return selection_string(self.roots)

    def command(self) -> str | None:
        if not self.roots:
            return None
        return (
            "dagster asset materialize -m cardio_assets.definitions "
            f"--select '{self.select}' --partition {self.guideline}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "guideline": self.guideline,
            "registered_partition": self.registered,
            "assets": [
                {
                    "asset": s.asset,
                    "state": str(s.state),
                    "reasons": list(s.reasons),
                    "run_id": s.run_id,
                    "timestamp": s.timestamp,
                    "materialized_at": _iso(s.timestamp),
                    "recorded_code_version": s.recorded_code_version,
                    "current_code_version": s.current_code_version,
                }
                for s in self.assets
            ],
            "stale": [s.asset for s in self.assets if s.state is State.STALE],
            "never_materialized": [s.asset for s in self.assets if s.state is State.NEVER],
            "rematerialize": {"select": self.select, "command": self.command()}
            if self.roots
            else None,
        }


def _iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


# --------------------------------------------------------------------------- dagster side


def guideline_status(
    instance: Any, nodes: Sequence[AssetNode], guideline: str, registered: bool = True
) -> GuidelineStatus:
    last = {n.name: last_materialization(instance, n.name, guideline) for n in nodes}
    statuses = partition_status(nodes, last)
    return GuidelineStatus(guideline, registered, statuses, rematerialize_roots(nodes, statuses))


def collect(
    instance: Any, guideline: str | None, nodes: Sequence[AssetNode]
) -> list[GuidelineStatus]:
    """Status of every known guideline (instance partitions, registry, inbox), or one."""
    from cardio_assets.partitions import GUIDELINE_PARTITIONS_NAME, known_guideline_ids

    partitions = list(instance.get_dynamic_partitions(GUIDELINE_PARTITIONS_NAME))
    known = known_guideline_ids()
    everything = [*known, *(p for p in partitions if p not in known)]
    if guideline is not None:
        if guideline not in everything:
            raise click.BadParameter(
                f"unknown guideline '{guideline}': not a partition of the instance, not in "
                f"configs/guidelines.yaml, not in the inbox. Known: {', '.join(everything) or 'none'}",
                param_hint="--guideline",
            )
        everything = [guideline]
    return [guideline_status(instance, nodes, g, g in partitions) for g in everything]


# --------------------------------------------------------------------------- output


def render(report: GuidelineStatus) -> str:
    rows = [("asset", "state", "last run", "materialized", "reason")]
    for s in report.assets:
        rows.append(
            (
                s.asset,
                "STALE" if s.state is State.STALE else str(s.state),
                (s.run_id or "-")[:8],
                _iso(s.timestamp) or "-",
                "; ".join(s.reasons),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"guideline {report.guideline}"]
    if not report.registered:
        lines[0] += "  (not yet a partition of this instance)"
    for row in rows:
        lines.append(
            "  "
            + "  ".join(c.ljust(w) for c, w in zip(row[:4], widths, strict=True))
            + "  "
            + row[4]
        )
    command = report.command()
    lines.append(f"  rematerialize: {command}" if command else "  up to date")
    return "\n".join(line.rstrip() for line in lines)


def run_stale(
    instance: Any, defs: Any, nodes: Sequence[AssetNode], reports: Sequence[GuidelineStatus]
) -> list[tuple[str, bool, str, float]]:
    """Run each guideline's stale selection in this process, one run per guideline (the
    definitions are imported once for all of them, and every step runs in this process:
    no command, run worker or step process to start per guideline). Returns (guideline,
    success, run id, seconds)."""
    import time

    import dagster as dg

    from cardio_assets.partitions import GUIDELINE_PARTITIONS_NAME

    job = defs.resolve_implicit_global_asset_job_def()
    done = []
    for report in reports:
        if not report.roots:
            continue
        if not report.registered:
            instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, [report.guideline])
        keys = [dg.AssetKey(name) for name in downstream_of(nodes, report.roots)]
        click.echo(f"{report.guideline}: running {report.select} ...", err=True)
        started = time.perf_counter()
        result = job.execute_in_process(
            instance=instance,
            partition_key=report.guideline,
            asset_selection=keys,
            raise_on_error=False,
            tags={"cardio/trigger": "cardio status --rematerialize"},
            # step progress at INFO (what each stage did), not Dagster's DEBUG event stream
            run_config={"loggers": {"console": {"config": {"log_level": "INFO"}}}},
        )
        took = time.perf_counter() - started
        verdict = "succeeded" if result.success else "FAILED"
        click.echo(f"{report.guideline}: run {result.run_id} {verdict} in {took:.1f} s", err=True)
        done.append((report.guideline, result.success, result.run_id, took))
    return done


@click.command("status")
@click.option(
    "--guideline",
    "guidelines",
    multiple=True,
    help="One guideline (partition) id; repeat for several. Default: every known guideline.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--rematerialize",
    is_flag=True,
    help="Then run, in this process, exactly what is stale or never materialized: one run "
    "per guideline (a new guideline runs whole). Exits 1 if a run fails.",
)
def status_command(guidelines: tuple[str, ...], as_json: bool, rematerialize: bool) -> None:
    """Per-guideline staleness of every asset partition; marks killed runs failed first."""
    from cardio_assets.config import ConfigError, load_registry
    from cardio_assets.sensors.orphaned_runs import release_orphaned_runs

    try:
        problems = load_registry().problems
        nodes = current_nodes()
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    runs: list[tuple[str, bool, str, float]] = []
    with open_instance() as instance:
        # a killed run would otherwise show STARTED and hold its pool slots forever
        released = release_orphaned_runs(instance, by="cardio status")
        reports = [r for g in (guidelines or (None,)) for r in collect(instance, g, nodes)]
        if rematerialize:
            from cardio_assets.definitions import defs

            runs = run_stale(instance, defs, nodes, reports)
            ran = {guideline for guideline, *_ in runs}
            reports = [
                guideline_status(instance, nodes, r.guideline) if r.guideline in ran else r
                for r in reports
            ]
    _report(reports, problems, released, as_json, runs)
    failed = [guideline for guideline, ok, _, _ in runs if not ok]
    if failed:
        raise click.ClickException(f"rematerialization failed for: {', '.join(failed)}")


def _report(
    reports: Sequence[GuidelineStatus],
    problems: Sequence[str],
    released: Any,
    as_json: bool,
    runs: Sequence[tuple[str, bool, str, float]],
) -> None:
    from cardio_assets.config import config_path

    if as_json:
        payload: dict[str, Any] = {
            "guidelines": [r.to_json() for r in reports],
            "registry_problems": problems,
            "killed_runs": released.to_json(),
        }
        if runs:
            payload["rematerialized"] = [
                {"guideline": g, "success": ok, "run_id": run_id, "seconds": round(took, 1)}
                for g, ok, run_id, took in runs
            ]
        click.echo(json.dumps(payload, indent=2))
        return
    for problem in problems:
        click.echo(
            f"registry problem: {config_path('guidelines.yaml')}: {problem} "
            "(that guideline's runs fail until it is fixed)",
            err=True,
        )
    for line in released.lines():
        click.echo(line)
    if released.lines():
        click.echo()
    for report in reports:
        click.echo(render(report))
        click.echo()
    stale = sum(1 for r in reports for s in r.assets if s.state is State.STALE)
    never = sum(1 for r in reports for s in r.assets if s.state is State.NEVER)
    click.echo(
        f"{len(reports)} guideline(s): {stale} stale, {never} never materialized asset partitions"
    )
