"""Bad input for the ingestion stages: each case fails (or warns) naming guideline, file and
table, and one broken guideline never affects another partition.

Every case is a real file run through real Docling / docling-core and a real Dagster run.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import dagster as dg
import pytest
from click.testing import CliRunner

from cardio_assets.assets.docling_tables import docling_tables
from cardio_assets.assets.table_rows import table_rows
from cardio_assets.assets.tagged_rows import tagged_rows
from cardio_assets.cli.rows import rows_command
from cardio_assets.config import ConfigError, load_registry
from cardio_assets.logic.guideline_tables import guideline_tables
from cardio_assets.logic.sources import SourceError
from cardio_assets.partitions import sync_guideline_partitions
from cardio_assets.records import RowRecord
from resources.docling_converter import DoclingConverterResource, convert_path
from resources.duckdb_io_manager import DuckDBRecordIOManager, read_records

GOOD_HTML = """<html><body><p>Table 1 Recommendations for widget care</p>
<table><tr><th>Recommendations</th><th>Class<sup>a</sup></th><th>Level<sup>b</sup></th></tr>
<tr><td>Widget checks are recommended yearly.</td><td>I</td><td>B</td></tr>
<tr><td>Widget polishing is not recommended.</td><td>III</td><td>C</td></tr></table>
<p><sup>a</sup>Class of recommendation.</p><p><sup>b</sup>Level of evidence.</p>
</body></html>"""
NO_TABLES_HTML = "<html><body><h1>Only prose</h1><p>No table in this document.</p></body></html>"
NO_CLASS_HTML = """<html><body><table>
<tr><th>Parameter</th><th>Target</th></tr>
<tr><td>Resting heart rate</td><td>below 70 bpm</td></tr>
<tr><td>Blood pressure</td><td>below 130/80 mmHg</td></tr></table></body></html>"""


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A registry of good and broken guidelines in a private config dir."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.html").write_text(GOOD_HTML, encoding="utf-8")
    (docs / "no_tables.html").write_text(NO_TABLES_HTML, encoding="utf-8")
    (docs / "no_class.html").write_text(NO_CLASS_HTML, encoding="utf-8")
    (docs / "empty.html").write_text("  \n", encoding="utf-8")
    (docs / "fake.docx").write_text(GOOD_HTML, encoding="utf-8")
    (docs / "fake.pdf").write_text("just text", encoding="utf-8")
    (docs / "broken.json").write_text(
        '{"schema_name": "DoclingDocument", "texts": [', encoding="utf-8"
    )
    (docs / "wrong_shape.json").write_text(
        '{"schema_name": "DoclingDocument", "name": "x", "body": {"children": "not a list"}}',
        encoding="utf-8",
    )
    (docs / "a_folder.html").mkdir()
    with zipfile.ZipFile(docs / "corrupt.docx", "w") as zf:
        zf.writestr("hello.txt", "a zip, but not a Word document")
    entries = {
        "good": "good.html",
        "no-tables": "no_tables.html",
        "no-class": "no_class.html",
        "empty-doc": "empty.html",
        "fake-docx": "fake.docx",
        "corrupt-docx": "corrupt.docx",
        "fake-pdf": "fake.pdf",
        "broken-json": "broken.json",
        "wrong-shape-json": "wrong_shape.json",
        "missing": "does_not_exist.html",
        "folder": "a_folder.html",
    }
    configs = tmp_path / "configs"
    configs.mkdir()
    lines = ["guidelines:"]
    for gid, name in entries.items():
        lines += [f"  - id: {gid}", f"    title: Test {gid}", f"    sources: ['{docs / name}']"]
    (configs / "guidelines.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(configs))
    monkeypatch.setenv("CARDIO_HOME", str(tmp_path / "home"))
    (tmp_path / "dagster").mkdir()
    warehouse = tmp_path / "warehouse.duckdb"
    resources = {
        "io_manager": DuckDBRecordIOManager(database=str(warehouse)),
        "docling": DoclingConverterResource(),
    }
    with dg.instance_for_test(temp_dir=str(tmp_path / "dagster")) as instance:
        sync_guideline_partitions(instance)

        def run(guideline: str) -> dg.ExecuteInProcessResult:
            return dg.materialize(
                [docling_tables, table_rows, tagged_rows],
                instance=instance,
                resources=resources,
                partition_key=guideline,
                raise_on_error=False,
            )

        yield {"run": run, "docs": docs, "warehouse": warehouse}


def _failure_message(result: dg.ExecuteInProcessResult) -> str:
    assert not result.success
    failures = [e for e in result.all_events if e.is_step_failure]
    assert failures, "expected a step failure"
    data = failures[0].step_failure_data
    return " ".join(
        filter(
            None,
            [
                data.user_failure_data and data.user_failure_data.description,
                data.error and data.error.message,
            ],
        )
    )


@pytest.mark.parametrize(
    ("guideline", "file_name", "expected"),
    [
        ("missing", "does_not_exist.html", "does not exist"),
        ("folder", "a_folder.html", "is not a regular file"),
        ("empty-doc", "empty.html", "is empty"),
        ("fake-docx", "fake.docx", "is not a DOCX file"),
        ("corrupt-docx", "corrupt.docx", "is a ZIP archive but not a Word document"),
        ("fake-pdf", "fake.pdf", "is not a PDF file"),
        ("broken-json", "broken.json", "malformed Docling JSON"),
        ("wrong-shape-json", "wrong_shape.json", "malformed Docling JSON at key 'body"),
    ],
)
def test_broken_source_fails_its_partition_naming_guideline_and_file(
    workspace, guideline: str, file_name: str, expected: str
):
    message = _failure_message(workspace["run"](guideline))
    assert f"guideline '{guideline}'" in message
    assert file_name in message
    assert expected in message


def test_broken_guideline_never_affects_another_partition(workspace):
    assert workspace["run"]("good").success
    good_rows = read_records(workspace["warehouse"], "table_rows", RowRecord, ["good"])
    assert [(r.class_, r.level) for r in good_rows] == [("I", "B"), ("III", "C")]
    assert not workspace["run"]("broken-json").success
    assert not workspace["run"]("missing").success
    assert read_records(workspace["warehouse"], "table_rows", RowRecord, ["good"]) == good_rows
    assert read_records(workspace["warehouse"], "table_rows", RowRecord, ["broken-json"]) == []


def test_document_without_tables_gives_zero_rows_a_warning_and_stops_the_run(workspace):
    """Zero rows are materialized with the warning, and the blocking rows_found check stops
    the run there, so an empty document never replaces what follows (nothing-lost issue)."""
    result = workspace["run"]("no-tables")
    assert not result.success
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert not checks["rows_found"].passed
    assert checks["rows_found"].severity == dg.AssetCheckSeverity.ERROR
    materialized = {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    assert "tagged_rows" not in materialized
    rows_meta = next(
        e.step_materialization_data.materialization.metadata
        for e in result.get_asset_materialization_events()
        if e.asset_key.to_user_string() == "table_rows"
    )
    assert rows_meta["rows"].value == 0
    assert "no tables found" in rows_meta["warnings"].value


def test_table_without_class_level_gives_no_rows_and_says_why(workspace):
    """A table whose rows carry no class and level is not a recommendation table (real-
    ingestion issue): it stays in docling_tables, gives no rows, and the warning names the
    guideline, the file, the table and why; the blocking rows_found check stops the run."""
    result = workspace["run"]("no-class")
    assert not result.success
    rows = read_records(workspace["warehouse"], "table_rows", RowRecord, ["no-class"])
    assert rows == []
    rows_meta = next(
        e.step_materialization_data.materialization.metadata
        for e in result.get_asset_materialization_events()
        if e.asset_key.to_user_string() == "table_rows"
    )
    warning = rows_meta["warnings"].value
    assert "guideline 'no-class'" in warning and "no_class.html" in warning
    assert "table table_000" in warning and "no column of classes" in warning
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert not checks["rows_found"].passed


def test_partition_unknown_to_registry_and_inbox_fails_clearly(workspace, tmp_path):
    registry = load_registry()
    assert registry.get("ghost") is None
    with pytest.raises(Exception, match="ghost"):
        workspace["run"]("ghost")  # not even a partition: Dagster refuses, naming the key


def test_pdf_without_weights_names_the_download_command(tmp_path: Path):
    pdf = tmp_path / "guideline.pdf"
    pdf.write_bytes(b"%PDF-1.4\n% minimal\n")
    with pytest.raises(SourceError) as excinfo:
        convert_path(pdf, artifacts_path=str(tmp_path / "no_weights_here"))
    message = str(excinfo.value)
    assert "docling-tools models download" in message
    assert "artifacts_path" in message and str(tmp_path / "no_weights_here") in message


def test_unreadable_file_is_named(tmp_path: Path):
    path = tmp_path / "locked.html"
    if os.geteuid() == 0:
        # root ignores file modes; /proc/self/mem is a regular file whose read fails (EIO)
        path.symlink_to("/proc/self/mem")
    else:
        path.write_text(GOOD_HTML, encoding="utf-8")
        path.chmod(0)
    with pytest.raises(SourceError, match="locked.html: cannot be read"):
        guideline_tables(
            "g", [path], convert_path, footnote_marker_pattern="^a", continuation_words=[]
        )


def test_registry_entry_errors_name_the_key(tmp_path: Path):
    bad = tmp_path / "guidelines.yaml"
    bad.write_text(
        "guidelines:\n  - id: fine\n    title: ok\n    sources: [x.html]\n"
        "  - id: second\n    title: ok\n    sources: [y.html]\n    expected_rows: {table_000: -1}\n"
        "  - id: third\n    sources: [z.html]\n    colour: blue\n",
        encoding="utf-8",
    )
    registry = load_registry(bad)  # a bad entry fails only its own partition ...
    assert registry.ids == ["fine"]
    assert set(registry.invalid) == {"second", "third"}
    with pytest.raises(ConfigError) as excinfo:  # ... and the whole file can still be checked
        registry.raise_if_invalid(bad)
    message = str(excinfo.value)
    assert str(bad) in message
    assert "guidelines[second].expected_rows" in message
    assert "guidelines[third].title" in message and "Field required" in message
    assert "guidelines[third].colour" in message
    assert "guidelines[fine]" not in message


def test_cli_rows_reports_bad_input_and_writes_good_rows(tmp_path: Path):
    runner = CliRunner()
    out = tmp_path / "rows.jsonl"
    missing = runner.invoke(rows_command, [str(tmp_path / "nope.md"), "--out", str(out)])
    assert (
        missing.exit_code == 1
        and "nope.md" in missing.output
        and "does not exist" in missing.output
    )
    doc = tmp_path / "widgets.html"
    doc.write_text(GOOD_HTML, encoding="utf-8")
    ok = runner.invoke(rows_command, [str(doc), "--title", "Widget guideline", "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    import json

    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [list(line) for line in lines] == [
        [
            "id",
            "guideline_title",
            "table_title",
            "header",
            "footnotes",
            "row_text",
            "class",
            "level",
            "section",
            "table_id",
            "row_index",
            "pages",
            "printed_text",
            "stem",
            "bullet",
            "references",
            "footnote_markers",
            "marker_spans",
            "abbreviations",
            "also_at",
            "boxes",
        ]
    ] * 2
    assert lines[1]["id"] == "widgets:table_000:r1"
    assert lines[1]["class"] == "III" and lines[1]["guideline_title"] == "Widget guideline"
    assert lines[0]["header"] == ["Recommendations", "Class", "Level"]
    assert lines[0]["table_title"] == "Table 1 Recommendations for widget care"
    assert lines[0]["footnotes"] == ["a Class of recommendation.", "b Level of evidence."]
    assert lines[0]["pages"] == []  # HTML has no pages: unknown stays empty
