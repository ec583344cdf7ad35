"""Item 6 of the "nothing lost" issue: no command replaces a file it was not meant to.

`cardio snomed load --db FILE` used to replace any existing FILE, the warehouse included, and
`cardio rows X --out X` / `cardio extract --rows X --out X` overwrote their own input. Now a
load replaces only a store `cardio snomed load` built (or any file with --force), and an
output that is one of the command's inputs (same path, a symlink to it, a hard link) is
always refused. Everything here is a real DuckDB file and the real `cardio` command.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
from click.testing import CliRunner

from cardio_assets.cli import main as cli
from cardio_assets.paths import DATA_DIR

SAMPLE_RF2 = DATA_DIR / "snomed_sample"
SAMPLE_DOC = DATA_DIR / "guidelines" / "hf-sample" / "hf-sample.md"


def _warehouse(path: Path) -> Path:
    """A DuckDB file like the pipeline's warehouse: tables, no store meta."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE table_rows (guideline VARCHAR, row_text VARCHAR)")
    con.execute("INSERT INTO table_rows VALUES (?, ?)", ["hf-sample", "Do the thing."])
    con.close()
    return path


def _rows_in(path: Path) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM table_rows").fetchone()[0]
    finally:
        con.close()


def test_snomed_load_replaces_only_a_store_it_built_unless_forced(tmp_path: Path) -> None:
    runner = CliRunner()
    warehouse = _warehouse(tmp_path / "warehouse.duckdb")
    document = tmp_path / "notes.txt"
    document.write_text("my notes\n", encoding="utf-8")

    for victim in (warehouse, document):
        result = runner.invoke(cli, ["snomed", "load", str(SAMPLE_RF2), "--db", str(victim)])
        assert result.exit_code == 1, result.output
        message = result.output.strip().splitlines()
        assert len(message) == 1 and message[0].startswith("Error: refusing to replace")
        assert str(victim) in message[0] and "--force" in message[0]
        assert "Traceback" not in result.output
    assert _rows_in(warehouse) == 1, "the warehouse must be left as it was"
    assert document.read_text(encoding="utf-8") == "my notes\n"

    # a symlink to the warehouse is the warehouse
    link = tmp_path / "store-link.duckdb"
    link.symlink_to(warehouse)
    result = runner.invoke(cli, ["snomed", "load", str(SAMPLE_RF2), "--db", str(link)])
    assert result.exit_code == 1 and "refusing to replace" in result.output
    assert _rows_in(warehouse) == 1

    # a store the project built is replaced (that is what a reload is for) ...
    store = tmp_path / "snomed.duckdb"
    for _ in range(2):
        result = runner.invoke(cli, ["snomed", "load", str(SAMPLE_RF2), "--db", str(store)])
        assert result.exit_code == 0, result.output
    # ... and anything else only when asked to
    result = runner.invoke(
        cli, ["snomed", "load", str(SAMPLE_RF2), "--db", str(document), "--force", "--quiet"]
    )
    assert result.exit_code == 0, result.output

    # the release itself is never a target, --force or not
    release_zip = tmp_path / "release.zip"
    import zipfile

    with zipfile.ZipFile(release_zip, "w") as zf:
        for f in SAMPLE_RF2.glob("sct2_*.txt"):
            zf.write(f, f"Snapshot/Terminology/{f.name}")
    before = release_zip.read_bytes()
    result = runner.invoke(
        cli, ["snomed", "load", str(release_zip), "--db", str(release_zip), "--force"]
    )
    assert result.exit_code == 1 and "is an input" in result.output, result.output
    assert release_zip.read_bytes() == before


def test_rows_and_extract_refuse_to_write_over_their_input(tmp_path: Path) -> None:
    runner = CliRunner()
    document = tmp_path / "hf-sample.md"
    document.write_bytes(SAMPLE_DOC.read_bytes())
    original = document.read_bytes()
    link = tmp_path / "out-link.jsonl"
    link.symlink_to(document)
    hard = tmp_path / "hard-link.md"
    os.link(document, hard)
    relative = Path(os.path.relpath(document))

    for out in (document, link, hard, relative):
        result = runner.invoke(cli, ["rows", str(document), "--out", str(out)])
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: refusing to write") and str(out) in result.output
        assert document.read_bytes() == original, f"--out {out} destroyed the document"

    rows = tmp_path / "rows.jsonl"
    result = runner.invoke(cli, ["rows", str(document), "--out", str(rows)])
    assert result.exit_code == 0, result.output
    rows_text = rows.read_text(encoding="utf-8")
    rows_link = tmp_path / "rows-link.jsonl"
    rows_link.symlink_to(rows)
    for out in (rows, rows_link):
        result = runner.invoke(cli, ["extract", "--rows", str(rows), "--out", str(out)])
        assert result.exit_code == 1, result.output
        assert "refusing to write" in result.output and "is an input" in result.output
        assert rows.read_text(encoding="utf-8") == rows_text
    # re-running into a previous output is the normal workflow and stays allowed
    pred = tmp_path / "pred.jsonl"
    for _ in range(2):
        result = runner.invoke(cli, ["extract", "--rows", str(rows), "--out", str(pred)])
        assert result.exit_code == 0, result.output
