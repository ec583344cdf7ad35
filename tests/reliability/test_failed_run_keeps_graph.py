"""Item 2 of the "nothing lost" issue: a failed extraction or an empty document never
replaces a good graph.

An unreachable LLM endpoint used to make every row fail while the run still succeeded, and
the guideline's graph was replaced by an empty one; a document without tables did the same.
Now the checks that guard downstream data block the run, and neo4j_graph refuses to replace
a loaded version with one holding fewer than graph.min_rule_share of its rules unless the run
says allow_shrink. Real Docling, DuckDB, Dagster runs and the session's real Neo4j.
"""

from __future__ import annotations

import socket
from pathlib import Path

import dagster as dg
import pytest
import yaml

from cardio_assets.logic.neo4j_graph import graph_counts
from cardio_assets.partitions import sync_guideline_partitions

pytestmark = pytest.mark.neo4j

GUIDELINE = "keep-graph-test"
ROWS = [
    ("Echocardiography is recommended every year in adults with heart failure.", "I", "B"),
    ("Gadget polishing is not recommended in widget disease.", "III", "C"),
    ("Sprocket therapy should be considered in patients with LVEF <40%.", "IIa", "B"),
    ("Cog implantation may be considered in heart failure.", "IIb", "C"),
]


def _html(rows: list[tuple[str, str, str]]) -> str:
    body = "".join(f"<tr><td>{t}</td><td>{c}</td><td>{lv}</td></tr>" for t, c, lv in rows)
    return (
        "<html><body><p>Table 1 Recommendations for widget disease</p><table>"
        "<tr><th>Recommendations</th><th>Class</th><th>Level</th></tr>"
        f"{body}</table></body></html>"
    )


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, neo4j_server):
    from cardio_assets.definitions import RESOURCES, defs
    from resources.duckdb_io_manager import DuckDBRecordIOManager
    from resources.llm_extractor import LlmExtractorResource as LlmExtractor
    from resources.neo4j_resource import Neo4jResource

    doc = tmp_path / "widget.html"
    doc.write_text(_html(ROWS), encoding="utf-8")
    configs = tmp_path / "configs"
    configs.mkdir()
    (configs / "guidelines.yaml").write_text(
        yaml.safe_dump(
            {"guidelines": [{"id": GUIDELINE, "title": "Widget test", "sources": [str(doc)]}]}
        ),
        encoding="utf-8",
    )
    models = configs / "models.yaml"
    models.write_text(
        yaml.safe_dump(
            {
                "default": "unreachable",
                "clients": {
                    "unreachable": {
                        "provider": "openai-generic",
                        "base_url": f"http://127.0.0.1:{_closed_port()}/v1",
                        "model": "nothing-listens-here",
                        "max_retries": 0,
                        "timeout_s": 5,
                        "connect_timeout_s": 2,
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(configs))
    resources = {
        **RESOURCES,
        "io_manager": DuckDBRecordIOManager(database=str(tmp_path / "warehouse.duckdb")),
        "neo4j": Neo4jResource(),
        "llm": LlmExtractor(
            models_config=str(models), cache_path=str(tmp_path / "llm_cache.duckdb")
        ),
    }
    (tmp_path / "dagster").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp_path / "dagster")) as instance:
        sync_guideline_partitions(instance)

        def run(run_config: dict | None = None) -> dg.ExecuteInProcessResult:
            return dg.materialize(
                [*defs.assets, *(defs.asset_checks or [])],
                instance=instance,
                resources=resources,
                selection=dg.AssetSelection.assets("neo4j_graph").upstream(),
                partition_key=GUIDELINE,
                run_config=run_config or {},
                raise_on_error=False,
            )

        yield {"run": run, "doc": doc}


def _step_errors(result: dg.ExecuteInProcessResult) -> str:
    texts = []
    for event in result.all_events:
        if event.is_step_failure:
            data = event.step_failure_data
            texts.append(str(data.user_failure_data and data.user_failure_data.description))
            texts.append(str(data.error and data.error.message))
    return "\n".join(texts)


def _materialized(result: dg.ExecuteInProcessResult) -> set[str]:
    return {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}


def test_failed_extraction_and_empty_document_keep_the_loaded_graph(workspace, neo4j_driver):
    first = workspace["run"]()
    assert first.success, _step_errors(first)
    before = graph_counts(neo4j_driver, GUIDELINE)
    assert before["nodes"]["Recommendation"] == len(ROWS)

    llm = {"config": {"backend": "llm"}}
    failed = workspace["run"]({"ops": {"main_extractions": llm, "population_extractions": llm}})
    assert not failed.success  # the run says it failed ...
    checks = {c.check_name: c for c in failed.get_asset_check_evaluations()}
    assert not checks["extraction_failures"].passed
    assert "neo4j_graph" not in _materialized(failed)  # ... and stopped before the graph
    assert graph_counts(neo4j_driver, GUIDELINE) == before

    workspace["doc"].write_text(
        "<html><body><h1>Prose only</h1><p>No table here.</p></body></html>", encoding="utf-8"
    )
    empty = workspace["run"]()
    assert not empty.success
    assert not {c.check_name: c for c in empty.get_asset_check_evaluations()}["rows_found"].passed
    assert "extracted_rules" not in _materialized(empty)
    assert graph_counts(neo4j_driver, GUIDELINE) == before


def test_a_much_smaller_version_needs_allow_shrink(workspace, neo4j_driver):
    from cardio_assets.logic.neo4j_graph import current_rule_count

    assert workspace["run"]().success
    loaded = graph_counts(neo4j_driver, GUIDELINE)
    workspace["doc"].write_text(_html(ROWS[:1]), encoding="utf-8")

    refused = workspace["run"]()
    assert not refused.success
    message = _step_errors(refused)
    assert f"guideline '{GUIDELINE}'" in message
    assert f"loaded version ({len(ROWS)} rules)" in message and "of 1 rules" in message
    assert "allow_shrink" in message
    assert graph_counts(neo4j_driver, GUIDELINE) == loaded

    allowed = workspace["run"]({"ops": {"neo4j_graph": {"config": {"allow_shrink": True}}}})
    assert allowed.success, _step_errors(allowed)
    assert current_rule_count(neo4j_driver, GUIDELINE) == 1
