"""``cardio demo``: materialize every asset for every registered guideline, in-process.

Uses the project's Dagster instance (DAGSTER_HOME, default the repo root, storage in
var/dagster/), so the runs show up in the UI afterwards (`make ui`). The asset selection is
everything in the Definitions object, so stages added later join the demo automatically.
One failing guideline is reported and the others still run; the exit code is 1 then.
"""

from __future__ import annotations

import os
import sys

import click

# step logs stay in the run's event log (visible in the UI); the console gets warnings only
_QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def _count(metadata: dict) -> str:
    for key in ("duckdb_rows_written", "rows", "tables", "rules_loaded"):
        if key in metadata:
            return str(getattr(metadata[key], "value", metadata[key]))
    return "-"


@click.command("demo")
@click.option("--guideline", "guidelines", multiple=True, help="Only these partitions.")
def demo(guidelines: tuple[str, ...]) -> None:
    """Run the whole pipeline on the registered (sample) guidelines and print the counts."""
    from cardio_assets import paths
    from cardio_assets.cli.instance import dagster_home, instance_storage_dir, open_instance

    # dagster.yaml paths are relative to DAGSTER_HOME, where open_instance works from: pin
    # CARDIO_HOME (which may be relative to the caller's folder) first.
    os.environ["CARDIO_HOME"] = str(paths.var_dir())
    home = dagster_home()

    import dagster as dg

    from cardio_assets.definitions import RESOURCES, defs
    from cardio_assets.partitions import (
        GUIDELINE_PARTITIONS_NAME,
        known_guideline_ids,
        sync_guideline_partitions,
    )

    graph = defs.resolve_asset_graph()
    all_keys = graph.get_all_asset_keys()
    partitioned = [
        key
        for key in all_keys
        if getattr(graph.get(key).partitions_def, "name", None) == GUIDELINE_PARTITIONS_NAME
    ]
    unpartitioned = [
        key for key in all_keys if key not in partitioned and graph.get(key).is_materializable
    ]
    everything = [*defs.assets, *(defs.asset_checks or [])]

    from cardio_assets.cli.demo_graph import ensure_neo4j, graph_summary, pipeline_summary

    failures = 0
    neo4j_problem = ensure_neo4j()  # NEO4J_URI, else the local launcher (cardio neo4j start)
    if neo4j_problem:
        click.echo(f"WARNING: {neo4j_problem}; neo4j_graph will fail", err=True)
    metadata: dict[str, dict[str, dict]] = {}
    with open_instance() as instance:
        # the registry's guidelines as partitions (silently, as loading the definitions once
        # did: the demo's output is the counts)
        sync_guideline_partitions(instance)
        if unpartitioned:
            result = dg.materialize(
                everything,
                instance=instance,
                resources=RESOURCES,
                selection=dg.AssetSelection.assets(*unpartitioned),
                raise_on_error=False,
                tags={"cardio/origin": "demo"},
                run_config=_QUIET,
            )
            click.echo(f"shared assets: {'ok' if result.success else 'FAILED'}")
            failures += 0 if result.success else 1
        selected = list(guidelines) or known_guideline_ids()
        for guideline in selected:
            result = dg.materialize(
                everything,
                instance=instance,
                resources=RESOURCES,
                selection=dg.AssetSelection.assets(*partitioned),
                partition_key=guideline,
                raise_on_error=False,
                tags={"cardio/origin": "demo"},
                run_config=_QUIET,
            )
            metadata[guideline] = {
                event.asset_key.to_user_string(): dict(
                    event.step_materialization_data.materialization.metadata
                )
                for event in result.get_asset_materialization_events()
            }
            counts = {key: _count(meta) for key, meta in metadata[guideline].items()}
            status = "ok" if result.success else "FAILED"
            click.echo(
                f"{guideline}: {status}  "
                + "  ".join(f"{key}={value}" for key, value in counts.items())
            )
            if not result.success:
                failures += 1
                for event in result.all_events:
                    if event.is_step_failure and event.step_failure_data.error:
                        message = event.step_failure_data.error.message.strip().splitlines()
                        click.echo(f"  {event.step_key}: {message[-1] if message else ''}")
    pipeline_summary(metadata)
    if not graph_summary():
        failures += 1
    click.echo(f"\noutputs:   {paths.outputs_dir()}/<guideline>/")
    click.echo(f"warehouse: {paths.warehouse_path()}")
    click.echo(f"dagster:   {instance_storage_dir(home)} (see runs with `make ui`)")
    if failures:
        sys.exit(1)
