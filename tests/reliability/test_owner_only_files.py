"""Files under $CARDIO_HOME are owner-only: 0700 folders, 0600 files, whatever the umask.

The warehouse, the LLM cache (raw answers), the terminology store of a licensed release,
the exports and Neo4j's data and logs used to be created world-readable (umask 022). Each is
created here the way the pipeline creates it, under a umask of 022, and every folder and
file is checked; the Neo4j part is the session's real launcher (tests/neo4j_fixtures.py).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cardio_assets import paths
from cardio_assets.exports import write_json, write_jsonl
from cardio_assets.logic.guideline_tables import write_table_json
from cardio_assets.logic.llm_cache import CacheEntry, LlmCache
from cardio_assets.records import TableRecord
from cardio_assets.terminology.build import load_rf2
from cardio_assets.terminology.location import ensure_default_store, sample_release_dir
from resources.duckdb_io_manager import read_records, write_records


def _loose(root: Path) -> list[str]:
    """Every path under root (root included) that group or others may read or enter."""
    found = []
    for path in [root, *root.rglob("*")]:
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            continue
        if mode & 0o077:
            found.append(f"{oct(stat.S_IMODE(mode))} {path.relative_to(root.parent)}")
    return found


@pytest.mark.neo4j
def test_everything_the_pipeline_writes_is_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, neo4j_server
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("CARDIO_HOME", str(home))
    for name in ("CARDIO_WAREHOUSE", "CARDIO_LLM_CACHE", "CARDIO_SNOMED_STORE"):
        monkeypatch.delenv(name, raising=False)
    table = TableRecord(
        guideline="g",
        table_id="table_000",
        source_file="g.html",
        source_sha256="0" * 64,
        source_format="html",
        header=["Recommendations", "Class", "Level"],
        body=[["Do the thing.", "I", "A"]],
    )
    previous = os.umask(0o022)  # the common default: what made everything world-readable
    try:
        write_records(paths.warehouse_path(), "docling_tables", TableRecord, [table], ["g"])
        LlmCache().store(
            CacheEntry(
                function="ExtractMain",
                prompt_hash="p",
                model="m",
                input_hash="i",
                raw_response="{}",
                parsed={"concepts": [], "actions": []},
            )
        )
        out = paths.guideline_output_dir("g")
        write_table_json([table], out / "tables")
        write_json(out / "grounding_index.json", {})
        write_jsonl(out / "extracted_rules.jsonl", [{"id": "g:table_000:r0"}])
        ensure_default_store()
        load_rf2(sample_release_dir(), home / "terminology" / "snomed.duckdb")
    finally:
        os.umask(previous)
    assert read_records(paths.warehouse_path(), "docling_tables", TableRecord, ["g"]) == [table]

    expected = [
        "warehouse.duckdb",
        "llm_cache.duckdb",
        "outputs/g/tables/table_000.json",
        "outputs/g/grounding_index.json",
        "outputs/g/extracted_rules.jsonl",
        "terminology/snomed_sample.duckdb",
        "terminology/snomed_sample.duckdb.index.npz",
        "terminology/snomed.duckdb",
        "terminology/snomed.duckdb.index.npz",
    ]
    assert [p for p in expected if not (home / p).is_file()] == []
    assert _loose(home) == []

    # the real launcher started by the session: data, transaction logs, debug.log, its log
    neo4j_root = neo4j_server.root
    for name in ("password", "launcher.log", "launcher.pid", "launcher.json", "dbms"):
        assert (neo4j_root / name).exists(), name
    assert list((neo4j_root / "dbms").rglob("debug.log")), "Neo4j writes logs/debug.log"
    assert list((neo4j_root / "dbms" / "data").rglob("*")), "Neo4j writes its store"
    assert _loose(neo4j_root) == []
