"""``cardio backfill [--guideline ID ...] [--select SEL]``: the UI's partition backfill,
from the command line.

It submits the same backfill as Materialize -> several partitions -> Launch backfill in
the UI (a ``PartitionBackfill`` in the instance at $DAGSTER_HOME) and follows it to the
end, printing a line per guideline partition as its assets materialize. The daemon runs
the backfill (`make ui` starts one): every stage but neo4j_graph has a single-run backfill
policy, so the guidelines go through one run, and neo4j_graph loads one guideline per run.
"""

from __future__ import annotations

import time
import uuid

import click

from cardio_assets.cli.instance import dagster_home, open_instance

POLL_SECONDS = 2.0
# without a backfill daemon heartbeat this recent, say that nothing will pick the backfill up
DAEMON_STALE_SECONDS = 120.0
_END_STATES = {"COMPLETED_SUCCESS", "COMPLETED_FAILED", "COMPLETED", "FAILED", "CANCELED"}


def _daemon_alive(instance) -> bool:
    heartbeat = instance.get_daemon_heartbeats().get("BACKFILL")
    return heartbeat is not None and time.time() - heartbeat.timestamp < DAEMON_STALE_SECONDS


def _title(select: str, guidelines: list[str]) -> str:
    """The backfill's title in the UI (Dagster refuses titles over 100 characters)."""
    title = f"cardio backfill {select} x {len(guidelines)} guideline(s)"
    return title if len(title) <= 100 else title[:99] + "…"


def submit_backfill(instance, defs, guidelines: list[str], select: str) -> str:
    """Add the backfill to the instance; returns its id."""
    import dagster as dg
    from dagster._core.execution.backfill import PartitionBackfill

    graph = defs.resolve_asset_graph()
    keys = dg.AssetSelection.from_coercible(select.split(",")).resolve(graph)
    if not keys:
        raise click.ClickException(f"--select {select!r} selects no asset")
    backfill_id = uuid.uuid4().hex[:8]
    backfill = PartitionBackfill.from_asset_partitions(
        backfill_id=backfill_id,
        asset_graph=graph,
        partition_names=guidelines,
        asset_selection=sorted(keys, key=lambda k: k.to_user_string()),
        backfill_timestamp=time.time(),
        tags={"cardio/launched_by": "cardio backfill"},
        dynamic_partitions_store=instance,
        all_partitions=False,
        title=_title(select, guidelines),
        description=None,
        run_config=None,
    )
    instance.add_backfill(backfill)
    return backfill_id


def follow_backfill(instance, defs, backfill_id: str, guidelines: list[str], timeout: float):
    """Poll until the backfill ends; print progress lines. Returns its final status name."""
    from cardio_assets.logic.backfill_progress import changed_lines, progress

    graph = defs.resolve_asset_graph()
    shown: dict = {}
    started = time.monotonic()
    warned = False
    while True:
        backfill = instance.get_backfill(backfill_id)
        data = backfill.get_asset_backfill_data(graph)
        assets = len(data.target_subset.asset_keys)
        now = progress(
            guidelines,
            assets,
            (
                (p.asset_key.to_user_string(), p.partition_key)
                for p in data.materialized_subset.iterate_asset_partitions()
            ),
            (
                (p.asset_key.to_user_string(), p.partition_key)
                for p in data.failed_and_downstream_subset.iterate_asset_partitions()
            ),
        )
        for line in changed_lines(shown, now):
            click.echo(line)
        shown = now
        status = backfill.status.value
        if status in _END_STATES:
            return status
        elapsed = time.monotonic() - started
        if not warned and elapsed > 10 and not _daemon_alive(instance):
            click.echo(
                "  no Dagster daemon is running for this instance: start `make ui` (or "
                "`dagster-daemon run`) with the same DAGSTER_HOME; the backfill waits for it",
                err=True,
            )
            warned = True
        if elapsed > timeout:
            raise click.ClickException(
                f"backfill {backfill_id} still {status} after {timeout:.0f}s; it goes on in "
                "the daemon (Overview -> Backfills in the UI)"
            )
        time.sleep(POLL_SECONDS)


@click.command("backfill")
@click.option(
    "--guideline",
    "guidelines",
    multiple=True,
    help="Guideline partition (repeatable); default: every registered guideline.",
)
@click.option(
    "--select",
    default="*",
    show_default=True,
    help="Asset selection, as `dagster asset materialize --select` takes it "
    "(e.g. 'grounding_index*' for grounding_index and everything downstream).",
)
@click.option(
    "--timeout", default=3600.0, show_default=True, help="Seconds to follow the backfill."
)
@click.option("--no-wait", is_flag=True, help="Submit and print the id, do not follow it.")
def backfill_command(guidelines: tuple[str, ...], select: str, timeout: float, no_wait: bool):
    """Backfill guideline partitions through the Dagster daemon and follow it to the end."""
    from cardio_assets.definitions import defs
    from cardio_assets.logic.partition_batches import contiguous_ranges
    from cardio_assets.partitions import (
        GUIDELINE_PARTITIONS_NAME,
        known_guideline_ids,
        sync_guideline_partitions,
    )

    with open_instance() as instance:
        sync_guideline_partitions(instance)
        known = list(known_guideline_ids())
        chosen = list(dict.fromkeys(guidelines)) or known
        unknown = [g for g in chosen if g not in known]
        if unknown:
            raise click.ClickException(
                f"unknown guideline(s) {', '.join(unknown)}: known are {', '.join(known)} "
                "(configs/guidelines.yaml or the inbox)"
            )
        started = time.monotonic()
        backfill_id = submit_backfill(instance, defs, chosen, select)
        click.echo(
            f"backfill {backfill_id}: {select} x {', '.join(chosen)} submitted to {dagster_home()}"
        )
        ranges = contiguous_ranges(
            instance.get_dynamic_partitions(GUIDELINE_PARTITIONS_NAME), chosen
        )
        if len(ranges) > 1:
            click.echo(
                f"  {len(ranges)} runs per single-run stage: a run covers guidelines that are "
                "neighbours in the partition order (the order they were registered: "
                "configs/guidelines.yaml, then the inbox), and these form "
                f"{len(ranges)} groups: " + "; ".join(", ".join(r) for r in ranges)
            )
        if no_wait:
            return
        status = follow_backfill(instance, defs, backfill_id, chosen, timeout)
        click.echo(f"backfill {backfill_id} {status} in {time.monotonic() - started:.1f}s")
        if status != "COMPLETED_SUCCESS":
            raise SystemExit(1)
