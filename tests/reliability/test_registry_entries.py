"""Item 4 of the "nothing lost" issue: one invalid registry entry breaks only itself.

An unknown key in one entry of configs/guidelines.yaml used to fail the runs of every
partition, while `dagster definitions validate` said all was well and `cardio status` printed
a traceback. Entries are now validated one by one: the bad entry's partition fails naming the
key, the others run, and validation and `cardio status` name the bad entry. A key given twice
in a YAML mapping is refused instead of silently keeping the last value.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
from click.testing import CliRunner

from cardio_assets.config import ConfigError, load_pipeline_settings, load_registry

ROOT = Path(__file__).resolve().parents[2]
HTML = """<html><body><table><tr><th>Recommendations</th><th>Class</th><th>Level</th></tr>
<tr><td>Gizmo review is recommended yearly.</td><td>I</td><td>C</td></tr></table></body></html>"""


@pytest.fixture()
def registry_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    doc = tmp_path / "gizmo.html"
    doc.write_text(HTML, encoding="utf-8")
    configs = tmp_path / "configs"
    configs.mkdir()
    for name in (
        "pipeline.yaml",
        "models.yaml",
        "guideline_graph_schema.yaml",
        "abbreviations.txt",
    ):
        (configs / name).write_text((ROOT / "configs" / name).read_text(encoding="utf-8"))
    (configs / "guidelines.yaml").write_text(
        "guidelines:\n"
        f"  - id: good-one\n    title: Good\n    sources: ['{doc}']\n"
        f"  - id: bad-one\n    title: Bad\n    sources: ['{doc}']\n    colour: blue\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(configs))
    return configs


def _messages(result: dg.ExecuteInProcessResult) -> str:
    texts = []
    for event in result.all_events:
        if event.is_step_failure:
            data = event.step_failure_data
            texts += [str(data.user_failure_data and data.user_failure_data.description)]
            texts += [str(data.error and data.error.message)]
    return "\n".join(texts)


def test_bad_entry_fails_only_its_partition_naming_the_key(registry_dir: Path, tmp_path: Path):
    from cardio_assets.assets.docling_tables import docling_tables
    from cardio_assets.assets.table_rows import table_rows
    from cardio_assets.partitions import known_guideline_ids, sync_guideline_partitions
    from resources.docling_converter import DoclingConverterResource
    from resources.duckdb_io_manager import DuckDBRecordIOManager

    assert known_guideline_ids() == ["good-one", "bad-one"]
    resources = {
        "io_manager": DuckDBRecordIOManager(database=str(tmp_path / "w.duckdb")),
        "docling": DoclingConverterResource(),
    }
    (tmp_path / "dagster").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp_path / "dagster")) as instance:
        sync_guideline_partitions(instance)

        def run(key: str) -> dg.ExecuteInProcessResult:
            return dg.materialize(
                [docling_tables, table_rows],
                instance=instance,
                resources=resources,
                partition_key=key,
                raise_on_error=False,
            )

        assert run("good-one").success
        bad = run("bad-one")
        assert not bad.success
        message = _messages(bad)
        assert "guideline 'bad-one'" in message
        assert "guidelines[bad-one].colour" in message and "not permitted" in message


def test_validate_and_status_name_the_bad_entry(registry_dir: Path, tmp_path: Path):
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path)}
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    validate = subprocess.run(
        [
            sys.executable,
            "-m",
            "dagster",
            "definitions",
            "validate",
            "-m",
            "cardio_assets.definitions",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert validate.returncode == 0, (validate.stdout + validate.stderr)[-3000:]
    assert "guidelines[bad-one].colour" in validate.stderr

    from cardio_assets.cli.status import status_command

    result = CliRunner(env={"DAGSTER_HOME": str(tmp_path)}).invoke(status_command, [])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "registry problem" in result.output and "guidelines[bad-one].colour" in result.output
    assert "guideline good-one" in result.output


def test_a_key_given_twice_is_refused(tmp_path: Path):
    registry = tmp_path / "guidelines.yaml"
    registry.write_text(
        "guidelines:\n  - id: twice\n    title: First title\n    sources: [a.html]\n"
        "    title: Second title\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as excinfo:
        load_registry(registry)
    assert "duplicate key 'title'" in str(excinfo.value) and "line 3" in str(excinfo.value)
    pipeline = tmp_path / "pipeline.yaml"
    pipeline.write_text("grounding:\n  top_k: 5\n  top_k: 50\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="duplicate key 'top_k'"):
        load_pipeline_settings(pipeline)
