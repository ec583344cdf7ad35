"""The llm backend's endpoint settings do what models.yaml and the README say.

- models.yaml and the README say local-vllm's CARDIO_LLM_API_KEY is optional; with it
  unset the run used to stop before any call.
Real components: the generated BAML client over HTTP to 127.0.0.1, real DuckDB cache.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.records import TaggedRow
from tests.replay_server import ReplayServer, ensure_baml_client, load_recordings


@pytest.fixture(scope="module", autouse=True)
def _baml_client() -> Path:
    return ensure_baml_client()


def _row(name: str = "af_oac_main") -> TaggedRow:
    recording = load_recordings()[name]
    focus = "POPULATION" if "FOCUS: POPULATION" in recording.tagged_row else "MAIN"
    return TaggedRow(row_id=f"t:{name}", guideline="t", focus=focus, text=recording.tagged_row)


def test_local_vllm_runs_without_a_key(tmp_path: Path, monkeypatch) -> None:
    """The shipped configs/models.yaml entry, pointed at the replay server, no key set."""
    from cardio_assets.logic.llm_extraction import extract_rows

    monkeypatch.delenv("CARDIO_LLM_API_KEY", raising=False)
    with ReplayServer() as server:
        monkeypatch.setenv("CARDIO_LLM_BASE_URL", server.base_url)
        report = extract_rows(
            [_row("hf_icd_main")], client_name="local-vllm", cache_path=tmp_path / "c.duckdb"
        )
        assert report.client == "local-vllm" and report.failures == 0
        assert server.calls("hf_icd_main") == 1
        (request,) = server.state.requests
        assert request["authorization"] is None  # no key sent, not an empty "Bearer "
