"""Item 5 of the "nothing lost" issue: a secret an endpoint echoes is stored nowhere.

An endpoint that answers 401 with the Authorization header it received ("Incorrect API key
provided: Bearer sk-...") used to put the key into stdout, the output JSONL, the LLM cache,
the warehouse, the Dagster event log and the compute logs. Every secret value the process
knows is now replaced by [REDACTED:<NAME>] before an error text is stored, logged or
printed. These tests run the real thing (`cardio extract` and `dagster asset materialize`
as subprocesses, BAML over HTTP to a local echoing server, real DuckDB and a real Dagster
instance in a temporary DAGSTER_HOME) and then search everything written for the key.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from cardio_assets.records import RowExtraction, RowRecord, TaggedRow
from tests.reliability.secret_scan import fragments, fresh_key, leaks
from tests.replay_server import ReplayServer, ensure_baml_client

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".venv" / "bin"
KEY_ENV = "CARDIO_LLM_API_KEY"  # api_key_env of local-vllm, the default client of models.yaml
REDACTED = f"[REDACTED:{KEY_ENV}]"
PARTITION = "ccs-sample-docling"  # the smallest sample guideline (one Docling JSON table)


@pytest.fixture(scope="module", autouse=True)
def _baml_client() -> Path:
    return ensure_baml_client()


@pytest.fixture()
def echo():
    """A server that answers every request with 401 and the Authorization header it got."""
    with ReplayServer() as server:
        server.state.answer_all_with = "echo_auth401"
        yield server


def _env(cardio_home: Path, base_url: str, key: str, **extra: str) -> dict[str, str]:
    """The environment of a user who exported the key: shipped configs, local-vllm."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CARDIO_", "DAGSTER_", "NEO4J_", "BAML_"))
    }
    env.update(
        CARDIO_HOME=str(cardio_home),
        CARDIO_LLM_BASE_URL=base_url,
        **{KEY_ENV: key},
        **extra,
    )
    return env


def _rows_file(path: Path) -> Path:
    texts = [
        "In patients with HFrEF and LVEF <= 35%, an ICD is recommended.",
        "Aspirin 75-100 mg daily is recommended in patients with chronic coronary syndrome.",
    ]
    rows = [
        RowRecord(
            id=f"demo:table_000:r{i}",
            guideline="demo",
            guideline_title="Demo guideline",
            table_id="table_000",
            row_index=i,
            header=["Recommendations", "Class", "Level"],
            row_text=text,
            level="B",
            section="Demo",
            **{"class": "I"},
        )
        for i, text in enumerate(texts)
    ]
    path.write_text("".join(r.model_dump_json(by_alias=True) + "\n" for r in rows), "utf-8")
    return path


def _assert_key_was_sent_not_prompted(server: ReplayServer, key: str) -> None:
    """The test means something only if the key really went out, and only in the header."""
    requests = server.state.requests
    assert requests, "the endpoint was never called"
    assert all(r["authorization"] == f"Bearer {key}" for r in requests)
    bodies = json.dumps([r["body"] for r in requests])
    assert not [f for f in fragments(key) if f in bodies], "the key is in a prompt"


def _assert_cache_keys_are_key_free(cache_path: Path, key: str) -> None:
    """Failed entries are kept; their key columns are hashes and the model, the same as
    without a key, and their error names the secret by its variable only."""
    from cardio_assets.logic.llm_cache import LlmCache
    from cardio_assets.logic.llm_extraction import input_hash, prompt_hash

    entries = LlmCache(cache_path).entries()
    assert entries
    for e in entries:
        assert e.prompt_hash == prompt_hash(e.function)  # rendered here, with no key set
        assert len(e.input_hash) == len(input_hash("")) and e.model == "Qwen/Qwen2.5-7B-Instruct"
        assert "HTTP 401" in e.error and REDACTED in e.error


def test_cardio_extract_prints_and_stores_no_echoed_key(tmp_path: Path, echo) -> None:
    key = fresh_key()
    home = tmp_path / "cardio_home"
    rows = _rows_file(tmp_path / "rows.jsonl")
    out = tmp_path / "pred.jsonl"
    env = _env(home, echo.base_url, key)
    command = [str(BIN / "cardio"), "extract", "--rows", str(rows), "--out", str(out)]

    run = subprocess.run(
        [*command, "--backend", "llm"], env=env, capture_output=True, text=True, timeout=300
    )
    # The key pasted as the client name: the "unknown LLM client" error must not show it.
    pasted = subprocess.run(
        [*command, "--model", key], env=env, capture_output=True, text=True, timeout=300
    )
    texts = {"stdout": run.stdout + pasted.stdout, "stderr": run.stderr + pasted.stderr}
    found = leaks(key, [home, out.parent], texts)
    assert found == [], found

    assert run.returncode == 0, run.stderr[-2000:]
    assert "failed rows 2" in run.stdout
    assert "HTTP 401" in run.stderr and REDACTED in run.stderr  # the echo was shown, redacted
    _assert_key_was_sent_not_prompted(echo, key)
    _assert_cache_keys_are_key_free(home / "llm_cache.duckdb", key)
    assert pasted.returncode != 0
    assert "unknown LLM client" in pasted.stderr and REDACTED in pasted.stderr


def _materialize(
    env: dict[str, str], select: list[str], run_config: dict
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(BIN / "dagster"),
            "asset",
            "materialize",
            "-m",
            "cardio_assets.definitions",
            "--select",
            ",".join(select),
            "--partition",
            PARTITION,
            "--config-json",
            json.dumps(run_config),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_dagster_materialization_stores_and_logs_no_echoed_key(tmp_path: Path, echo) -> None:
    key = fresh_key()
    home, dagster_home = tmp_path / "cardio_home", tmp_path / "dagster_home"
    dagster_home.mkdir()  # no dagster.yaml: every storage defaults to inside DAGSTER_HOME
    env = _env(home, echo.base_url, key, DAGSTER_HOME=str(dagster_home))
    llm = {"config": {"backend": "llm"}}
    run_config = {
        "ops": {"main_extractions": llm, "population_extractions": llm},
        "execution": {"config": {"in_process": {}}},
    }
    stages = ["docling_tables", "table_rows", "tagged_rows"]
    passes = ["main_extractions", "population_extractions"]
    # the partitions a user registers before `dagster asset materialize --partition`
    synced = subprocess.run(
        [str(BIN / "cardio"), "partitions", "sync"], env=env, capture_output=True, text=True
    )
    assert synced.returncode == 0, synced.stderr
    first = _materialize(env, stages + passes, run_config)

    # The key pasted into pipeline.yaml as the client name: the asset raises, and what
    # Dagster records of the exception (event log, compute logs, console) is redacted.
    config_dir = tmp_path / "configs"  # holds the pasted key: the user's file, not scanned
    shutil.copytree(ROOT / "configs", config_dir)
    pipeline = yaml.safe_load((config_dir / "pipeline.yaml").read_text("utf-8"))
    pipeline["extraction"].update(backend="llm", model=key)
    (config_dir / "pipeline.yaml").write_text(yaml.safe_dump(pipeline), "utf-8")
    second = _materialize(
        {**env, "CARDIO_CONFIG_DIR": str(config_dir)},
        ["main_extractions"],
        {"execution": {"config": {"in_process": {}}}},
    )
    texts = {"stdout": first.stdout + second.stdout, "stderr": first.stderr + second.stderr}
    found = leaks(key, [home, dagster_home], texts)
    assert found == [], found[:10]

    # every row failed: both passes are stored with their (redacted) errors and the
    # blocking extraction_failures check fails the run, so nothing downstream is built
    assert first.returncode != 0 and "extraction_failures" in first.stdout + first.stderr
    _assert_key_was_sent_not_prompted(echo, key)
    _assert_cache_keys_are_key_free(home / "llm_cache.duckdb", key)
    from resources.duckdb_io_manager import read_records

    stored = read_records(home / "warehouse.duckdb", "main_extractions", RowExtraction, None)
    assert stored and all("HTTP 401" in r.error and REDACTED in r.error for r in stored)
    logs = list(dagster_home.rglob("compute_logs/*.err"))
    assert logs and any(REDACTED in p.read_text("utf-8", "replace") for p in logs)

    assert second.returncode != 0
    console = second.stdout + second.stderr
    assert "RedactedError" in console and "unknown LLM client" in console
    assert REDACTED in console


def test_a_key_cut_by_the_error_bound_leaves_no_piece(tmp_path: Path, echo, monkeypatch) -> None:
    """Redaction runs before truncation: wherever the bound falls, no part of the key stays."""
    from cardio_assets.logic.llm_cache import LlmCache
    from cardio_assets.logic.llm_extraction import extract_rows
    from cardio_assets.logic.redaction import MAX_ERROR_CHARS

    key = fresh_key()
    monkeypatch.setenv("CARDIO_TEST_ECHO_KEY", key)  # a name only this models file knows
    models = tmp_path / "models.yaml"
    client = {
        "provider": "openai-generic",
        "base_url": echo.base_url,
        "model": "echo",
        "api_key_env": "CARDIO_TEST_ECHO_KEY",
        "max_retries": 0,
    }
    models.write_text(json.dumps({"default": "echo", "clients": {"echo": client}}), "utf-8")
    row = TaggedRow(row_id="t:r0", guideline="t", focus="MAIN", text="ROW: aspirin | I | A")
    errors = []
    for padding in range(0, MAX_ERROR_CHARS + 40, 3):
        echo.state.echo_padding = padding
        report = extract_rows([row], models_config=models, cache_path=tmp_path / "c.duckdb")
        errors.append(report.results[0].error)
    assert all(e and "HTTP 401" in e and len(e) <= MAX_ERROR_CHARS for e in errors)
    assert any("[REDACTED:CARDIO_TEST_ECHO_KEY]" in e for e in errors)
    assert any("cut," in e for e in errors)
    stored = [e.error for e in LlmCache(tmp_path / "c.duckdb").entries()]
    assert leaks(key, [tmp_path], {"errors": "\n".join(errors + stored)}) == []


def test_neo4j_passwords_are_redacted_like_api_keys(tmp_path: Path, monkeypatch) -> None:
    """NEO4J_PASSWORD and the launcher's generated password ($CARDIO_HOME/neo4j/password)
    are known secrets too: a per-row error and the LLM cache never hold them."""
    from cardio_assets.logic.llm_cache import CacheEntry, LlmCache

    env_password, local_password = fresh_key(), fresh_key()
    home = tmp_path / "cardio_home"
    (home / "neo4j").mkdir(parents=True)
    (home / "neo4j" / "password").write_text(local_password + "\n", "utf-8")
    monkeypatch.setenv("CARDIO_HOME", str(home))
    monkeypatch.setenv("NEO4J_PASSWORD", env_password)
    text = f"auth failed for neo4j:{env_password} (local {local_password})"

    row = RowExtraction(
        row_id="t:r0", guideline="t", focus="MAIN", backend="llm", input_hash="x", error=text
    )
    assert row.error == (
        "auth failed for neo4j:[REDACTED:NEO4J_PASSWORD] (local [REDACTED:LOCAL_NEO4J_PASSWORD])"
    )
    cache = LlmCache(tmp_path / "cache.duckdb")
    cache.store(
        CacheEntry(
            function="ExtractMain",
            prompt_hash="p",
            model="m",
            input_hash="i",
            raw_response=text,
            parsed=None,
            error=text,
        )
    )
    (entry,) = cache.entries()
    assert entry.error == row.error and entry.raw_response == row.error
    for secret in (env_password, local_password):
        assert leaks(secret, [tmp_path / "cache.duckdb"]) == []
