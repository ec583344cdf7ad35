"""Guideline partitions: registry sync and the inbox sensor, on a real Dagster instance."""

import os
import time
from pathlib import Path

import dagster as dg
import pytest

from cardio_assets.config import load_registry
from cardio_assets.partitions import (
    GUIDELINE_PARTITIONS_NAME,
    inbox_guideline_id,
    resolve_guideline,
    sync_guideline_partitions,
)
from cardio_assets.sensors.inbox import build_inbox_sensor

DOC = (
    "<html><body><table><tr><th>Recommendations</th><th>Class</th><th>Level</th></tr>"
    "<tr><td>Do the thing.</td><td>I</td><td>A</td></tr></table></body></html>"
)


@pytest.fixture()
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CARDIO_HOME", str(tmp_path / "home"))
    (tmp_path / "dagster").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp_path / "dagster")) as inst:
        yield inst


def _partitions(instance: dg.DagsterInstance) -> list[str]:
    return instance.get_dynamic_partitions(GUIDELINE_PARTITIONS_NAME)


def test_sync_adds_registry_and_inbox_guidelines_and_prunes_on_request(instance, tmp_path):
    registry_ids = load_registry().ids
    assert registry_ids, "the bundled registry lists the sample guidelines"
    inbox = tmp_path / "home" / "inbox"
    inbox.mkdir(parents=True)
    (inbox / "My New Guideline 2025.html").write_text(DOC, encoding="utf-8")
    (inbox / "notes.txt").write_text("ignored: not a supported extension", encoding="utf-8")
    added = sync_guideline_partitions(instance)
    assert added == [*registry_ids, "my_new_guideline_2025"]
    assert sync_guideline_partitions(instance) == []
    instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, ["stale"])
    sync_guideline_partitions(instance)
    assert "stale" in _partitions(instance)
    sync_guideline_partitions(instance, prune=True)
    assert sorted(_partitions(instance)) == sorted([*registry_ids, "my_new_guideline_2025"])
    entry = resolve_guideline("my_new_guideline_2025")
    assert entry.title == "My New Guideline 2025"
    assert entry.source_paths() == [inbox / "My New Guideline 2025.html"]


def test_inbox_sensor_registers_new_documents_and_requests_their_runs(instance, tmp_path):
    sensor = build_inbox_sensor(dg.AssetSelection.all())
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    inbox = tmp_path / "home" / "inbox"

    first = sensor(dg.build_sensor_context(instance=instance))
    added = [k for r in first.dynamic_partitions_requests for k in r.partition_keys]
    assert added == load_registry().ids  # registry entries, no inbox folder yet
    assert first.run_requests == []
    instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, added)

    inbox.mkdir(parents=True)
    doc = inbox / "hf-update.md"
    doc.write_text("| Recommendations | Class | Level |\n|---|---|---|\n| Do it. | I | A |\n")
    second = sensor(dg.build_sensor_context(instance=instance, cursor=first.cursor))
    assert [k for r in second.dynamic_partitions_requests for k in r.partition_keys] == [
        "hf-update"
    ]
    assert [r.partition_key for r in second.run_requests] == ["hf-update"]
    instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, ["hf-update"])

    third = sensor(dg.build_sensor_context(instance=instance, cursor=second.cursor))
    assert third.run_requests == [] and third.skip_reason is not None

    later = time.time() + 5
    os.utime(doc, (later, later))  # the file was replaced: run it again, same partition
    fourth = sensor(dg.build_sensor_context(instance=instance, cursor=third.cursor))
    assert [r.partition_key for r in fourth.run_requests] == ["hf-update"]
    assert fourth.run_requests[0].run_key != second.run_requests[0].run_key
    assert fourth.dynamic_partitions_requests == []


def test_inbox_ids_are_safe_partition_keys():
    assert inbox_guideline_id(Path("ESC 2024 CCS (final).pdf")) == "esc_2024_ccs_final"
    assert inbox_guideline_id(Path("???.html")) == "document"


def test_definitions_collect_stage_modules_and_the_inbox_sensor():
    from cardio_assets.definitions import RESOURCES, defs

    keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}
    assert {"docling_tables", "table_rows", "tagged_rows"} <= keys
    assert (
        defs.resolve_sensor_def("guideline_inbox_sensor").default_status
        == dg.DefaultSensorStatus.RUNNING
    )
    assert {"io_manager", "docling"} <= set(RESOURCES)
    for key in ("docling_tables", "table_rows", "tagged_rows"):
        node = defs.resolve_asset_graph().get(dg.AssetKey(key))
        assert node.partitions_def.name == GUIDELINE_PARTITIONS_NAME
        assert node.metadata["partition_expr"] == "guideline"


def test_importing_the_definitions_adds_no_partition(tmp_path):
    """Loading the code location (a code server, `dagster definitions validate`, a test)
    writes nothing to the instance: partitions come from the sensor, the demo and
    `cardio partitions sync` only."""
    import os
    import subprocess
    import sys

    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    script = (
        "import json, dagster as dg\n"
        "import cardio_assets.definitions\n"
        "with dg.DagsterInstance.get() as instance:\n"
        f"    print(json.dumps(list(instance.get_dynamic_partitions({GUIDELINE_PARTITIONS_NAME!r}))))\n"
    )
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert load_registry().ids  # there were guidelines it could have added
