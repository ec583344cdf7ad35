"""What several ``cardio`` commands need from Dagster, written once.

``cardio status``, ``cardio audit`` and ``cardio partitions sync`` open the same instance
(``$DAGSTER_HOME``, default the repo root, as the Makefile and ``cardio demo`` use) and read
a partition's last materialization the same way: its run, time and the version tags
Dagster records (``dagster/code_version``, ``dagster/data_version``,
``dagster/input_data_version/<upstream>``). Which assets there are, in pipeline order, and
what each one's code version reads come from the Definitions object (``current_nodes``),
never from a list kept here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from cardio_assets import paths
from cardio_assets.logic.staleness import AssetNode, Materialization, toposort

DATA_VERSION_TAG = "dagster/data_version"
CODE_VERSION_TAG = "dagster/code_version"
INPUT_DATA_VERSION_PREFIX = "dagster/input_data_version/"


def dagster_home() -> Path:
    """$DAGSTER_HOME, else the repo root (where the project's dagster.yaml is)."""
    return Path(os.environ.get("DAGSTER_HOME") or paths.PROJECT_ROOT).resolve()


def instance_storage_dir(home: Path) -> Path:
    """Where the instance at ``home`` keeps its runs: its dagster.yaml's sqlite storage folder
    (relative paths resolve against ``home``, as open_instance opens it), without the last
    "storage" part (the project's layout: var/dagster/storage, var/dagster/compute_logs, …);
    ``home`` itself when the file names no such folder."""
    import yaml

    try:
        config = yaml.safe_load((home / "dagster.yaml").read_text(encoding="utf-8")) or {}
        base = Path(config["storage"]["sqlite"]["base_dir"])
    except (OSError, KeyError, TypeError, yaml.YAMLError):
        return home
    base = base if base.is_absolute() else home / base
    return base.parent if base.name == "storage" else base


@contextmanager
def open_instance() -> Iterator[Any]:
    """The instance at ``dagster_home()``. The project's dagster.yaml has paths relative to
    DAGSTER_HOME, so it is opened from there and the working directory restored after."""
    import dagster as dg

    home = dagster_home()
    if not home.is_dir():
        raise click.ClickException(
            f"DAGSTER_HOME={home} is not a folder: point it at the instance the pipeline runs in"
        )
    previous_home, previous_cwd = os.environ.get("DAGSTER_HOME"), Path.cwd()
    os.environ["DAGSTER_HOME"] = str(home)
    os.chdir(home)
    try:
        with dg.DagsterInstance.get() as instance:
            yield instance
    finally:
        os.chdir(previous_cwd)
        if previous_home is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = previous_home


def last_materialization(instance: Any, asset: str, guideline: str) -> Materialization | None:
    """The last materialization of one asset partition, or None when it never ran."""
    import dagster as dg

    result = instance.fetch_materializations(
        dg.AssetRecordsFilter(
            asset_key=dg.AssetKey.from_user_string(asset), asset_partitions=[guideline]
        ),
        limit=1,
    )
    if not result.records:
        return None
    record = result.records[0]
    tags = dict(record.asset_materialization.tags or {})
    return Materialization(
        run_id=record.run_id,
        timestamp=record.timestamp,
        code_version=tags.get(CODE_VERSION_TAG),
        data_version=tags.get(DATA_VERSION_TAG),
        input_data_versions={
            k[len(INPUT_DATA_VERSION_PREFIX) :]: v
            for k, v in tags.items()
            if k.startswith(INPUT_DATA_VERSION_PREFIX)
        },
    )


def current_nodes(defs: Any = None) -> list[AssetNode]:
    """The pipeline's guideline-partitioned assets as defined now (code versions computed
    from configs/ at import), upstream first."""
    from cardio_assets.assets._code_versions import CODE_VERSION_READS
    from cardio_assets.partitions import GUIDELINE_PARTITIONS_NAME

    if defs is None:
        from cardio_assets.definitions import defs
    nodes = []
    for spec in defs.resolve_all_asset_specs():
        if getattr(spec.partitions_def, "name", None) != GUIDELINE_PARTITIONS_NAME:
            continue
        nodes.append(
            AssetNode(
                name=spec.key.to_user_string(),
                code_version=spec.code_version,
                parents=tuple(d.asset_key.to_user_string() for d in spec.deps),
                code_version_reads=str(spec.metadata.get(CODE_VERSION_READS, "")),
            )
        )
    return toposort(nodes)


def code_version_reads(defs: Any = None) -> dict[str, str]:
    """Asset -> what its code version reads, for the assets that say so in their metadata."""
    return {n.name: n.code_version_reads for n in current_nodes(defs) if n.code_version_reads}


def pipeline_assets(defs: Any = None) -> list[str]:
    """The partitioned assets' names, upstream first (the steps of one guideline's run)."""
    return [n.name for n in current_nodes(defs)]
