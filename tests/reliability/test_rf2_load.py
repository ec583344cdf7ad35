"""RF2 loading: nothing dropped without a count, nothing left behind by a killed load.

Duplicate concept / description ids used to be collapsed to one row silently; they are now
counted in the store's ``load_skip`` table like every other skipped component. A load killed
midway (``kill -9``, out of memory) used to leave its ``.snomed-load-*`` work folder, a
store-sized copy, beside the target forever; the next load now removes it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardio_assets.paths import DATA_DIR, PROJECT_ROOT
from cardio_assets.terminology.build import load_rf2
from cardio_assets.warehouse import connect

SAMPLE = DATA_DIR / "snomed_sample"
CONCEPT_FILE = "sct2_Concept_Snapshot_INT_20250101.txt"
DESC_FILE = "sct2_Description_Snapshot-en_INT_20250101.txt"
REL_FILE = "sct2_Relationship_Snapshot_INT_20250101.txt"


def _release(tmp_path: Path) -> Path:
    folder = tmp_path / "release"
    folder.mkdir()
    for name in (CONCEPT_FILE, DESC_FILE, REL_FILE):
        shutil.copy(SAMPLE / name, folder / name)
    return folder


def _repeat_rows(path: Path, count: int) -> list[int]:
    """Append a second copy of the first ``count`` data rows; returns their ids."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = lines[1 : 1 + count]
    path.write_text("\n".join([*lines, *rows]) + "\n", encoding="utf-8")
    return [int(r.split("\t")[0]) for r in rows]


def test_duplicate_ids_are_counted_in_load_skip(tmp_path: Path) -> None:
    release = _release(tmp_path)
    concept_ids = _repeat_rows(release / CONCEPT_FILE, 2)
    description_ids = _repeat_rows(release / DESC_FILE, 3)
    db = tmp_path / "store.duckdb"
    report = load_rf2(release, db)
    with connect(db, read_only=True) as con:
        skips = {
            reason: (count, json.loads(examples))
            for reason, count, examples in con.execute(
                "SELECT reason, count, examples FROM load_skip"
            ).fetchall()
        }
        concepts = con.execute("SELECT count(*) FROM concept").fetchone()[0]
    by_kind = {
        kind: next((v for k, v in skips.items() if k.startswith(f"duplicate {kind} ids")), None)
        for kind in ("concept", "description")
    }
    assert by_kind["concept"] == (2, sorted(concept_ids)), skips
    assert by_kind["description"] == (3, sorted(description_ids)), skips
    assert not any(k.startswith("duplicate relationship") for k in skips)
    assert any("duplicate concept ids" in line for line in report.lines())
    # the store itself is unchanged by the repeats: one row per id
    original = load_rf2(SAMPLE, tmp_path / "original.duckdb")
    assert concepts == original.counts["concepts"]


def _work_folders(parent: Path) -> list[Path]:
    return sorted(p for p in parent.glob(".snomed-load-*") if p.is_dir())


def test_a_killed_load_leaves_no_work_folder_after_the_next_load(tmp_path: Path) -> None:
    target_dir = tmp_path / "terminology"
    target_dir.mkdir()
    db = target_dir / "snomed.duckdb"
    cardio = str(Path(sys.executable).with_name("cardio"))
    env = {**os.environ, "CARDIO_HOME": str(tmp_path / "home")}
    for _attempt in range(5):
        proc = subprocess.Popen(
            [cardio, "snomed", "load", str(SAMPLE), "--db", str(db), "--quiet"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        # kill it once the build is under way: its DuckDB file exists in the work folder
        while proc.poll() is None and time.monotonic() < deadline:
            if any((f / "store.duckdb").exists() for f in _work_folders(target_dir)):
                os.kill(proc.pid, signal.SIGKILL)
                break
            time.sleep(0.002)
        proc.wait()
        if proc.returncode == -signal.SIGKILL:
            break
    else:
        pytest.fail("the load always finished before it could be killed")
    assert _work_folders(target_dir), "the killed load left its work folder (the premise)"

    report = load_rf2(SAMPLE, db)
    assert report.counts["concepts"] > 0
    assert _work_folders(target_dir) == []
