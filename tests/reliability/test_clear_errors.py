"""One-line errors instead of tracebacks, for the problems a user fixes.

A bad grounding schema, a $CARDIO_SNOMED_STORE that is not a store (or a truncated one) and a
DuckDB file locked by another process each used to end in a traceback; the bad schema and
the bad store also kept the Dagster code location from loading, and a locked warehouse made
`cardio audit` hang for two minutes without a word. Each is now one `Error:` line naming the
file and what to do; the code location loads; the lock wait is bounded, configurable and
announced. Real `cardio` processes, real DuckDB files, a real second process holding a lock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from cardio_assets.paths import DEFAULT_CONFIG_DIR, PROJECT_ROOT

CARDIO = [str(Path(sys.executable).with_name("cardio"))]
LOAD_DEFINITIONS = (
    "from cardio_assets.definitions import defs; "
    "keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}; "
    "assert 'grounding_index' in keys and 'grounding_candidates' in keys, keys; print('LOADED')"
)


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDIO_", "NEO4J_"))}
    env.update(
        CARDIO_HOME=str(home),
        NEO4J_URI="bolt://127.0.0.1:9",  # never a developer's server; nothing listens there
        NEO4J_PASSWORD="unused",
        **extra,
    )
    return env


def _run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=timeout
    )


def _one_error_line(proc: subprocess.CompletedProcess, *must_name: str) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-1500:], proc.stderr[-3000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    errors = [line for line in proc.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, proc.stderr[-3000:]
    for text in must_name:
        assert text in errors[0], errors[0]
    return errors[0]


def test_bad_grounding_schema_is_one_line_and_the_code_location_still_loads(
    tmp_path: Path,
) -> None:
    configs = tmp_path / "configs"
    shutil.copytree(DEFAULT_CONFIG_DIR, configs)
    schema = configs / "guideline_graph_schema.yaml"
    text = schema.read_text(encoding="utf-8")
    schema.write_text(text.replace("min_match_score: 0.75", "min_match_score: 7.5", 1))
    env = _env(tmp_path / "home", CARDIO_CONFIG_DIR=str(configs))

    proc = _run([*CARDIO, "ground", "heart failure", "--role", "Condition"], env)
    line = _one_error_line(proc, str(schema), "roles.Condition.min_match_score")
    assert "fix" in line

    loaded = _run([sys.executable, "-c", LOAD_DEFINITIONS], env)
    assert loaded.returncode == 0 and "LOADED" in loaded.stdout, loaded.stderr[-3000:]
    assert "roles.Condition.min_match_score" in loaded.stderr  # said once, as a warning

    schema.write_text("roles: [unclosed\n", encoding="utf-8")
    proc = _run([*CARDIO, "ground", "heart failure", "--role", "Condition"], env)
    _one_error_line(proc, str(schema), "not valid YAML")


def test_snomed_store_env_pointing_at_a_non_store_or_truncated_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    good = tmp_path / "good.duckdb"
    built = _run([*CARDIO, "snomed", "load", "data/snomed_sample", "--db", str(good)], _env(home))
    assert built.returncode == 0, built.stderr[-2000:]

    text_file = tmp_path / "notes.duckdb"
    text_file.write_text("not a database\n", encoding="utf-8")
    truncated = tmp_path / "truncated.duckdb"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    other_duckdb = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(other_duckdb))
    con.execute("CREATE TABLE table_rows (guideline VARCHAR)")
    con.close()

    for bad in (text_file, truncated, other_duckdb):
        env = _env(home, CARDIO_SNOMED_STORE=str(bad))
        proc = _run([*CARDIO, "ground", "heart failure", "--role", "Condition"], env)
        line = _one_error_line(proc, str(bad), "CARDIO_SNOMED_STORE")
        assert "cardio snomed load" in line
    # the code location reads the store's release id when it loads: it must still load
    loaded = _run(
        [sys.executable, "-c", LOAD_DEFINITIONS], _env(home, CARDIO_SNOMED_STORE=str(truncated))
    )
    assert loaded.returncode == 0 and "LOADED" in loaded.stdout, loaded.stderr[-3000:]
    assert str(truncated) in loaded.stderr  # said once, as a warning


def test_duckdb_lock_held_by_another_process_is_a_bounded_announced_wait(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    warehouse = home / "warehouse.duckdb"
    duckdb.connect(str(warehouse)).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time, duckdb\n"
            f"con = duckdb.connect({str(warehouse)!r})\n"
            "print('HOLDING', flush=True)\n"
            "time.sleep(600)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "HOLDING"
        env = _env(home, CARDIO_LOCK_TIMEOUT_S="3")
        started = time.monotonic()
        proc = _run([*CARDIO, "audit", "hf-sample:table_000:r1"], env, timeout=60)
        elapsed = time.monotonic() - started
        line = _one_error_line(proc, str(warehouse), f"PID {holder.pid}", "CARDIO_LOCK_TIMEOUT_S")
        assert "locked" in line
        assert "waiting up to 3 s" in proc.stderr, proc.stderr[-2000:]
        assert elapsed < 40, f"the wait must stop at CARDIO_LOCK_TIMEOUT_S, took {elapsed:.0f} s"
    finally:
        holder.kill()
        holder.wait()
    # the lock gone, the same command goes on to read the (empty) warehouse
    proc = _run([*CARDIO, "audit", "hf-sample:table_000:r1"], _env(home))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
