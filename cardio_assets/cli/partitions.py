"""``cardio partitions sync``: register every guideline as a partition of the instance.

Loading the definitions never writes to the instance (so importing them, in a test or a
code server, changes nothing). Partitions are added by the inbox sensor while the daemon
runs, by ``cardio demo``, and by this command: run it after editing
configs/guidelines.yaml when you materialize from the command line
(``dagster asset materialize --partition ID``) or before opening the UI (``make ui`` does).
"""

from __future__ import annotations

import click

from cardio_assets.cli.instance import dagster_home, open_instance


@click.group("partitions")
def partitions_group() -> None:
    """Guideline partitions of the Dagster instance ($DAGSTER_HOME)."""


@partitions_group.command("sync")
def sync_command() -> None:
    """Add a partition for every registered guideline and every inbox document."""
    from cardio_assets.partitions import known_guideline_ids, sync_guideline_partitions

    with open_instance() as instance:
        added = sync_guideline_partitions(instance)
    if added:
        click.echo(f"registered partitions: {', '.join(added)}")
    click.echo(f"{len(known_guideline_ids())} guideline partition(s) in {dagster_home()}")
