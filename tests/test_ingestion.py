"""The three ingestion assets (docling_tables, table_rows, tagged_rows) materialized
in-process for the sample guidelines.

Real Docling conversions, real DuckDB, a real (temporary) Dagster instance. Expectations
come from the sources themselves (registry expected_rows, the Docling JSON pieces, the same
tables in two formats), plus the exact tagged text of one row.
"""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pytest
from docling_core.types.doc import DoclingDocument

from cardio_assets import paths
from cardio_assets.assets.docling_tables import docling_tables
from cardio_assets.assets.table_rows import table_rows
from cardio_assets.assets.tagged_rows import tagged_rows
from cardio_assets.config import load_registry
from cardio_assets.partitions import sync_guideline_partitions
from cardio_assets.records import RowRecord, TableRecord, TaggedRow
from resources.docling_converter import DoclingConverterResource
from resources.duckdb_io_manager import DuckDBRecordIOManager, read_records

SAMPLES = ["ccs-sample", "ccs-sample-docling", "hf-sample", "hf-sample-docx"]
DOCLING_JSON = (
    paths.PROJECT_ROOT / "data/guidelines/ccs-sample/ccs-sample-revascularization_62_63.json"
)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    """Materialize every sample partition once; return results, warehouse path, instance."""
    tmp = tmp_path_factory.mktemp("foundation")
    warehouse = tmp / "warehouse.duckdb"
    resources = {
        "io_manager": DuckDBRecordIOManager(database=str(warehouse)),
        "docling": DoclingConverterResource(),
    }
    (tmp / "dagster").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp / "dagster")) as instance:
        added = sync_guideline_partitions(instance)
        assert set(SAMPLES) <= set(added)
        results = {
            g: dg.materialize(
                [docling_tables, table_rows, tagged_rows],
                instance=instance,
                resources=resources,
                partition_key=g,
            )
            for g in SAMPLES
        }
        yield {"results": results, "warehouse": warehouse, "instance": instance}


def _rows(run, guideline: str) -> list[RowRecord]:
    return read_records(run["warehouse"], "table_rows", RowRecord, [guideline])


def _tables(run, guideline: str) -> list[TableRecord]:
    return read_records(run["warehouse"], "docling_tables", TableRecord, [guideline])


def test_every_sample_partition_succeeds_with_registry_row_counts(run):
    registry = load_registry()
    for guideline in SAMPLES:
        result = run["results"][guideline]
        assert result.success
        rows = _rows(run, guideline)
        expected = registry.get(guideline).expected_rows
        assert expected, f"{guideline} has no expected_rows in the registry"
        per_table: dict[str, int] = {}
        for row in rows:
            per_table[row.table_id] = per_table.get(row.table_id, 0) + 1
        assert per_table == expected
        checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
        assert checks["expected_rows_per_table"].passed
        assert checks["rows_found"].passed
        assert checks["class_and_level_found"].passed
        assert checks["both_passes_tagged"].passed


def test_continuation_pieces_from_pages_62_63_are_one_table(run):
    (table,) = _tables(run, "ccs-sample-docling")
    assert table.pieces == 2
    assert table.pages == [62, 63]
    doc = DoclingDocument.model_validate(json.loads(DOCLING_JSON.read_text(encoding="utf-8")))
    first, second = doc.tables
    first_of_piece_two = " ".join(second.data.grid[1][0].text.split())
    last_section_of_piece_one = next(
        " ".join(row[0].text.split())
        for row in reversed(first.data.grid)
        if len({c.text for c in row}) == 1
    )
    rows = _rows(run, "ccs-sample-docling")
    continued = next(r for r in rows if r.row_text == first_of_piece_two)
    # the page break falls inside a section: the section heading carries over
    assert continued.section == last_section_of_piece_one
    assert continued.row_index > 0 and continued.pages == [62, 63]
    # the repeated header row of piece two is not a recommendation
    assert not any(r.row_text.lower().startswith("recommendations") for r in rows)


def test_same_table_in_two_formats_gives_the_same_rows(run):
    def key(row: RowRecord):
        return (row.table_id, row.row_index, row.row_text, row.class_, row.level, row.section)

    assert [key(r) for r in _rows(run, "hf-sample")] == [
        key(r) for r in _rows(run, "hf-sample-docx")
    ]
    html_revasc = [r for r in _rows(run, "ccs-sample") if r.table_id == "table_003"]
    json_revasc = _rows(run, "ccs-sample-docling")
    assert [(r.row_text, r.class_, r.level, r.section) for r in html_revasc] == [
        (r.row_text, r.class_, r.level, r.section) for r in json_revasc
    ]


def test_class_level_header_footnotes_and_sections(run):
    for guideline in SAMPLES:
        rows = _rows(run, guideline)
        tables = {t.table_id: t for t in _tables(run, guideline)}
        for row in rows:
            assert row.header == ["Recommendations", "Class", "Level"]  # markers stripped
            assert row.class_ in {"I", "IIa", "IIb", "III"}
            assert row.level in {"A", "B", "C"}
            assert row.section, row.id
            assert "^" not in row.section and not row.section.endswith((" c", " d"))
            assert any(f.startswith("a ") for f in row.footnotes)
            assert any(f.startswith("b ") for f in row.footnotes)
            assert row.footnotes == tables[row.table_id].footnotes
            assert row.id == f"{guideline}:{row.table_id}:r{row.row_index}"
            assert "\n" not in row.row_text and "<br>" not in row.row_text
        # a negative recommendation survives with its class
        assert any(r.class_ == "III" and "not recommended" in r.row_text for r in rows)


def test_exact_tagged_text_of_one_row(run):
    tagged = read_records(run["warehouse"], "tagged_rows", TaggedRow, ["ccs-sample-docling"])
    main = next(
        t for t in tagged if t.row_id == "ccs-sample-docling:table_000:r6" and t.focus == "MAIN"
    )
    assert main.text == (
        "GUIDELINE: Sample 2024 guideline on chronic coronary syndromes, revascularization table"
        " as Docling JSON (CardioGuidelinesGraph test material)\n"
        "SOURCE_TYPE: table\n"
        "FOCUS: MAIN\n"
        "HEADER: Recommendations | Class | Level\n"
        "SECTION: Left main and multivessel disease\n"
        "FOOTNOTES: a Class of recommendation. b Level of evidence. c SYNTAX score thresholds"
        " refer to the anatomical SYNTAX score. d CABG = coronary artery bypass grafting;"
        " FFR = fractional flow reserve; IVUS = intravascular ultrasound; LAD = left anterior"
        " descending artery; LVEF = left ventricular ejection fraction; OCT = optical coherence"
        " tomography.\n"
        "ROW: For patients with CCS and LVEF ≤35% who are at high surgical risk or not operable,"
        " PCI may be considered. | IIb | B"
    )
    population = next(t for t in tagged if t.row_id == main.row_id and t.focus == "POPULATION")
    assert population.text == main.text.replace("FOCUS: MAIN", "FOCUS: POPULATION")
    assert len(tagged) == 2 * len(_rows(run, "ccs-sample-docling"))


def test_materialization_metadata_and_output_files(run):
    result = run["results"]["ccs-sample"]
    by_asset = {
        e.asset_key.to_user_string(): e.step_materialization_data.materialization.metadata
        for e in result.get_asset_materialization_events()
    }
    assert by_asset["docling_tables"]["tables"].value == 4
    assert by_asset["table_rows"]["rows"].value == 40
    assert "| id |" in by_asset["table_rows"]["preview"].value
    assert by_asset["tagged_rows"]["tagged_rows"].value == 80
    tables_dir = Path(by_asset["docling_tables"]["tables_dir"].value)
    assert tables_dir == paths.guideline_output_dir("ccs-sample") / "tables"
    files = sorted(p.name for p in tables_dir.glob("*.json"))
    assert files == [f"table_00{i}.json" for i in range(4)]
    saved = TableRecord.model_validate_json((tables_dir / "table_003.json").read_text())
    assert saved == next(t for t in _tables(run, "ccs-sample") if t.table_id == "table_003")
    lines = Path(by_asset["table_rows"]["rows_jsonl"].value).read_text().splitlines()
    assert len(lines) == 40


def test_code_versions_include_the_stage_config_hash(run):
    from cardio_assets.config import config_hash, load_pipeline_settings

    settings = load_pipeline_settings()
    assert docling_tables.code_versions_by_key[docling_tables.key].endswith(
        config_hash([settings.docling])
    )
    assert table_rows.code_versions_by_key[table_rows.key].endswith(config_hash([settings.rows]))


def test_rematerializing_one_partition_leaves_the_others(run):
    before = {g: _rows(run, g) for g in SAMPLES}
    resources = {
        "io_manager": DuckDBRecordIOManager(database=str(run["warehouse"])),
        "docling": DoclingConverterResource(),
    }
    result = dg.materialize(
        [docling_tables, table_rows, tagged_rows],
        instance=run["instance"],
        resources=resources,
        partition_key="ccs-sample-docling",
    )
    assert result.success
    after = {g: _rows(run, g) for g in SAMPLES}
    assert after == before  # same rows, no duplicates, others untouched
