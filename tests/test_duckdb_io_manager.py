"""The generic DuckDB record IO manager on a real DuckDB file and real Dagster runs."""

from pathlib import Path

import dagster as dg
import duckdb
import pytest
from pydantic import BaseModel, Field

from cardio_assets.records import RowRecord, TableRecord, TaggedRow
from resources.duckdb_io_manager import (
    DuckDBRecordIOManager,
    RecordStorageError,
    read_records,
    write_records,
)


def _table(guideline: str, table_id: str, body: list[list[str]]) -> TableRecord:
    return TableRecord(
        guideline=guideline,
        table_id=table_id,
        source_file="x.html",
        source_sha256="0" * 64,
        source_format="html",
        pages=[62, 63],
        caption="Caption with 'quotes'; DROP TABLE x; --",
        header=["Recommendations", "Class^a", "Level^b"],
        body=body,
        footnotes=["a Class."],
        pieces=2,
        raw_grid=[["r"]],
        footnote_markers=["a", "b"],
    )


def test_round_trip_keeps_nested_fields_aliases_and_order(tmp_path: Path):
    db = tmp_path / "w.duckdb"
    tables = [
        _table("g1", f"table_00{i}", [["text", "I", "A"], [f"row {i}", "IIb", "B"]])
        for i in range(3)
    ]
    assert write_records(db, "docling_tables", TableRecord, tables, ["g1"]) == 3
    assert read_records(db, "docling_tables", TableRecord, ["g1"]) == tables
    row = RowRecord(
        id="g1:table_000:r0",
        guideline="g1",
        guideline_title="T",
        table_id="table_000",
        row_index=0,
        header=["Recommendations", "Class", "Level"],
        row_text="text",
        **{"class": "IIa"},
        level="B",
    )
    write_records(db, "table_rows", RowRecord, [row], ["g1"])
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute('SELECT "class", guideline FROM table_rows').fetchall() == [
            ("IIa", "g1")
        ]
    assert read_records(db, "table_rows", RowRecord, ["g1"])[0].class_ == "IIa"


def test_writing_a_partition_replaces_only_its_rows(tmp_path: Path):
    db = tmp_path / "w.duckdb"
    write_records(db, "docling_tables", TableRecord, [_table("g1", "table_000", [["a"]])], ["g1"])
    write_records(db, "docling_tables", TableRecord, [_table("g2", "table_000", [["b"]])], ["g2"])
    new = [_table("g1", "table_000", [["c"]]), _table("g1", "table_001", [["d"]])]
    write_records(db, "docling_tables", TableRecord, new, ["g1"])
    assert read_records(db, "docling_tables", TableRecord, ["g1"]) == new
    assert [t.body for t in read_records(db, "docling_tables", TableRecord, ["g2"])] == [[["b"]]]
    assert len(read_records(db, "docling_tables", TableRecord, None)) == 3
    with pytest.raises(RecordStorageError, match="outside the partition"):
        write_records(db, "docling_tables", TableRecord, [_table("g2", "t", [])], ["g1"])


class _V1(BaseModel):
    guideline: str
    name: str
    score: int


class _V2(BaseModel):
    guideline: str
    name: str
    score: int
    tags: list[str] = Field(default_factory=list)
    note: str | None = None


class _Clash(BaseModel):
    guideline: str
    name: str
    score: str


def test_added_field_becomes_a_column_and_old_rows_get_defaults(tmp_path: Path):
    db = tmp_path / "w.duckdb"
    write_records(db, "stage", _V1, [_V1(guideline="g1", name="old", score=1)], ["g1"])
    write_records(db, "stage", _V2, [_V2(guideline="g2", name="new", score=2, tags=["x"])], ["g2"])
    assert read_records(db, "stage", _V2, ["g1"]) == [_V2(guideline="g1", name="old", score=1)]
    assert read_records(db, "stage", _V2, ["g2"])[0].tags == ["x"]


def test_failed_write_rolls_back_and_keeps_the_old_rows(tmp_path: Path):
    db = tmp_path / "w.duckdb"
    write_records(db, "stage", _V1, [_V1(guideline="g1", name="kept", score=1)], ["g1"])
    with pytest.raises(duckdb.Error):
        write_records(
            db, "stage", _Clash, [_Clash(guideline="g1", name="x", score="not a number")], ["g1"]
        )
    assert read_records(db, "stage", _V1, ["g1"]) == [_V1(guideline="g1", name="kept", score=1)]


def test_unsafe_identifiers_are_refused(tmp_path: Path):
    with pytest.raises(RecordStorageError, match="not a safe SQL identifier"):
        write_records(tmp_path / "w.duckdb", 'x"; DROP TABLE y; --', _V1, [], ["g"])


guidelines = dg.StaticPartitionsDefinition(["g1", "g2"])


@dg.asset(
    partitions_def=guidelines, metadata={"record_type": "TaggedRow", "partition_expr": "guideline"}
)
def tagged_demo(context: dg.AssetExecutionContext) -> list[TaggedRow]:
    return [
        TaggedRow(
            row_id=f"{context.partition_key}:r{i}",
            guideline=context.partition_key,
            focus="MAIN",
            text=f"v{i}",
        )
        for i in range(2 if context.partition_key == "g1" else 3)
    ]


@dg.asset(
    partitions_def=guidelines, metadata={"record_type": "TaggedRow", "partition_expr": "guideline"}
)
def tagged_copy(tagged_demo: list[TaggedRow]) -> list[TaggedRow]:
    return [t.model_copy(update={"focus": "POPULATION"}) for t in tagged_demo]


@dg.asset(partitions_def=guidelines)
def without_record_type() -> list[TaggedRow]:
    return []


def test_through_dagster_partitioned_assets_and_inputs(tmp_path: Path):
    db = tmp_path / "w.duckdb"
    resources = {"io_manager": DuckDBRecordIOManager(database=str(db))}
    for key in ("g1", "g2", "g1"):
        result = dg.materialize([tagged_demo, tagged_copy], partition_key=key, resources=resources)
        assert result.success
    copies = read_records(db, "tagged_copy", TaggedRow, None)
    assert [(c.guideline, c.focus) for c in copies] == [("g1", "POPULATION")] * 2 + [
        ("g2", "POPULATION")
    ] * 3
    meta = result.asset_materializations_for_node("tagged_copy")[0].metadata
    assert meta["duckdb_rows_written"].value == 2 and meta["duckdb_table"].value == "tagged_copy"
    with pytest.raises(RecordStorageError, match="record_type"):
        dg.materialize([without_record_type], partition_key="g1", resources=resources)
