"""`cardio backfill` and automation, against `make ui`'s stack (webserver + daemon).

One backfill of the two root stages for two guidelines is submitted with `cardio backfill`
(as a user would, through the daemon): it must run as ONE run (single-run backfill policy),
print a progress line per partition and end COMPLETED_SUCCESS. Nothing else is launched:
the automation sensor (shipped RUNNING) must then bring every downstream stage of both
partitions up to date by itself, within a bounded time.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass

import dagster as dg
import pytest

from cardio_assets.sensors.automation import AUTOMATION_SENSOR_NAME
from tests.dagster_dev_fixtures import wait_until

pytestmark = pytest.mark.daemon

# neighbours in configs/guidelines.yaml: a single-run backfill covers one range of partitions
GUIDELINES = ["ccs-sample-pdf", "hf-sample"]
ROOTS = ["docling_tables", "table_rows"]
DOWNSTREAM = [
    "tagged_rows",
    "main_extractions",
    "population_extractions",
    "merged_concepts",
    "grounding_candidates",
    "grounding_index",
    "extracted_rules",
    "neo4j_graph",
]
AUTOMATION_SECONDS = 900  # sensor tick (30 s) + runs of 8 stages x 2 guidelines on 2 cores
AUTOMATION_TAG = "dagster/from_automation_condition"


@pytest.fixture(scope="module")
def backfilled(dagster_dev):
    started = time.time()  # materializations before the backfill (other tests') do not count
    done = dagster_dev.cardio(
        "backfill",
        *(arg for g in GUIDELINES for arg in ("--guideline", g)),
        "--select",
        ",".join(ROOTS),
        "--timeout",
        "600",
    )
    return Backfilled(done, started)


@dataclass(frozen=True)
class Backfilled:
    done: subprocess.CompletedProcess
    started: float  # time.time() before it was submitted


def _instance(dagster_dev) -> dg.DagsterInstance:
    return dg.DagsterInstance.from_config(str(dagster_dev.dagster_home))


def _last(instance, asset: str, guideline: str):
    result = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[guideline]),
        limit=1,
    )
    return result.records[0] if result.records else None


def test_cardio_backfill_runs_both_partitions_in_one_run(backfilled, dagster_dev) -> None:
    out = backfilled.done.stdout + backfilled.done.stderr
    assert backfilled.done.returncode == 0, out + dagster_dev.log_tail()
    assert "COMPLETED_SUCCESS" in out, out
    for guideline in GUIDELINES:
        assert f"{guideline}: {len(ROOTS)}/{len(ROOTS)} assets materialized" in out, out
    backfill_id = out.split()[1].rstrip(":")
    with _instance(dagster_dev) as instance:
        runs = instance.get_runs(dg.RunsFilter(tags={"dagster/backfill": backfill_id}))
        assert len(runs) == 1, [r.run_id for r in runs]  # single-run policy: one run for both
        for asset in ROOTS:
            for guideline in GUIDELINES:
                record = _last(instance, asset, guideline)
                assert record is not None and record.run_id == runs[0].run_id, (asset, guideline)
        rows = {
            g: _last(instance, "table_rows", g).asset_materialization.metadata["rows"].value
            for g in GUIDELINES
        }
    # each partition carries its own metadata, not the sum of the run's
    assert all(count > 0 for count in rows.values()), rows
    assert rows[GUIDELINES[0]] != rows[GUIDELINES[1]], rows


def _by_automation(instance, record) -> bool:
    run = instance.get_run_by_id(record.run_id)
    tags = dict(run.tags)
    if (
        tags.get(AUTOMATION_TAG) == "true"
        or tags.get("dagster/sensor_name") == AUTOMATION_SENSOR_NAME
    ):
        return True
    backfill_id = tags.get("dagster/backfill")
    backfill = instance.get_backfill(backfill_id) if backfill_id else None
    return bool(backfill and dict(backfill.tags).get(AUTOMATION_TAG) == "true")


def test_automation_brings_downstream_up_to_date(backfilled, dagster_dev) -> None:
    assert backfilled.done.returncode == 0, backfilled.done.stdout + backfilled.done.stderr
    with _instance(dagster_dev) as instance:

        def fresh(asset: str, guideline: str):
            record = _last(instance, asset, guideline)
            return record if record and record.timestamp >= backfilled.started else None

        def missing():
            return [f"{a}[{g}]" for a in DOWNSTREAM for g in GUIDELINES if fresh(a, g) is None]

        try:
            wait_until(
                "downstream materialized by automation",
                lambda: not missing(),
                AUTOMATION_SECONDS,
                5,
            )
        except pytest.fail.Exception:
            pytest.fail(f"still missing {missing()}\n{dagster_dev.log_tail()}")
        not_automatic = [
            f"{a}[{g}]"
            for a in DOWNSTREAM
            for g in GUIDELINES
            if not _by_automation(instance, fresh(a, g))
        ]
    assert not not_automatic, f"materialized, but not by automation: {not_automatic}"
