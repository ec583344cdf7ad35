"""Session fixture: one sample guideline through the WHOLE pipeline into the real Neo4j.

Real Docling conversion, lexicon extraction, grounding on the bundled SNOMED CT sample,
extracted_rules and the neo4j_graph load, run in a Dagster instance of its own (a temporary
DAGSTER_HOME) so `cardio audit` can read the run ids back. Imported by tests/conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardio_assets.records import ExtractedRule

SAMPLE_GUIDELINE = "hf-sample-docx"  # HFrEF table: class I, a LVEF threshold, class III rows


@dataclass
class LoadedSample:
    guideline: str
    run_id: str
    rules: list[ExtractedRule]
    dagster_home: Path


@pytest.fixture(scope="session")
def loaded_sample(neo4j_server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoadedSample]:
    import dagster as dg

    from cardio_assets import paths
    from cardio_assets.definitions import RESOURCES, defs
    from cardio_assets.partitions import sync_guideline_partitions
    from resources.duckdb_io_manager import read_records
    from resources.neo4j_resource import Neo4jResource

    home = tmp_path_factory.mktemp("dagster_home")
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    previous = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home)
    try:
        with dg.DagsterInstance.get() as instance:
            sync_guideline_partitions(instance)
            result = dg.materialize(
                [*defs.assets, *(defs.asset_checks or [])],
                instance=instance,
                # the session's local Neo4j (neo4j_server cleared any NEO4J_* variables)
                resources={**RESOURCES, "neo4j": Neo4jResource()},
                selection=dg.AssetSelection.assets("neo4j_graph").upstream(),
                partition_key=SAMPLE_GUIDELINE,
                raise_on_error=False,
            )
        failures = [
            f"{e.step_key}: {e.step_failure_data.error.message.strip()[-500:]}"
            for e in result.all_events
            if e.is_step_failure and e.step_failure_data.error
        ]
        assert result.success, f"sample pipeline failed: {failures}"
        rules = read_records(
            paths.warehouse_path(), "extracted_rules", ExtractedRule, [SAMPLE_GUIDELINE]
        )
        assert rules, "the sample produced no rules"
        yield LoadedSample(SAMPLE_GUIDELINE, result.run_id, rules, home)
    finally:
        if previous is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = previous
