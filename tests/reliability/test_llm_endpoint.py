"""LLM endpoints: errors say what happened, in bounded size; local-vllm runs without a key.

- An endpoint nobody listens on is "cannot reach http://.../v1 (connection refused)", not
  BAML's "HTTP 503: reqwest::Error { ... }" dump.
- A server that answers with a long non-JSON page makes BAML repeat the whole rendered
  prompt in its message; the stored error is the status and the start of the server's
  body, bounded by redaction.MAX_ERROR_CHARS, and never the prompt.
- models.yaml and the README say local-vllm's CARDIO_LLM_API_KEY is optional; with it
  unset the run used to stop before any call.
Real components: the generated BAML client over HTTP to 127.0.0.1, real DuckDB cache.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from cardio_assets.records import TaggedRow
from tests.replay_server import LONG_ERROR_HEAD, ReplayServer, ensure_baml_client, load_recordings


@pytest.fixture(scope="module", autouse=True)
def _baml_client() -> Path:
    return ensure_baml_client()


def _models(path: Path, base_url: str, **overrides: object) -> Path:
    client = {
        "provider": "openai-generic",
        "base_url": base_url,
        "model": "replay/qwen2.5-7b-instruct",
        "timeout_s": 5.0,
        "connect_timeout_s": 2.0,
        "max_retries": 1,
        "backoff_initial_s": 0.01,
        "backoff_max_s": 0.02,
    }
    client.update(overrides)
    path.write_text(json.dumps({"default": "t", "clients": {"t": client}}), "utf-8")
    return path


def _row(name: str = "af_oac_main") -> TaggedRow:
    recording = load_recordings()[name]
    focus = "POPULATION" if "FOCUS: POPULATION" in recording.tagged_row else "MAIN"
    return TaggedRow(row_id=f"t:{name}", guideline="t", focus=focus, text=recording.tagged_row)


def _closed_loopback_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago and that nothing listens on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_endpoint_says_cannot_reach(tmp_path: Path) -> None:
    from cardio_assets.logic.llm_cache import LlmCache
    from cardio_assets.logic.llm_extraction import extract_rows

    port = _closed_loopback_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    models = _models(tmp_path / "models.yaml", base_url)
    report = extract_rows([_row()], models_config=models, cache_path=tmp_path / "c.duckdb")
    (result,) = report.results
    assert result.error == f"cannot reach {base_url} (connection refused) (after 2 attempts)"
    assert report.http_calls == 2  # a network error is retried
    (entry,) = LlmCache(tmp_path / "c.duckdb").entries()
    assert entry.error == result.error


def test_long_error_body_is_bounded_and_holds_no_prompt(tmp_path: Path) -> None:
    from cardio_assets.logic.llm_cache import LlmCache
    from cardio_assets.logic.llm_extraction import extract_rows
    from cardio_assets.logic.redaction import MAX_ERROR_CHARS

    row = _row()
    with ReplayServer() as server:
        server.state.answer_all_with = "long_error"
        models = _models(tmp_path / "models.yaml", server.base_url)
        report = extract_rows([row], models_config=models, cache_path=tmp_path / "c.duckdb")
        assert server.calls() == 2  # HTTP 500 is retried
    (result,) = report.results
    error = result.error
    assert error.startswith(f"HTTP 500: {LONG_ERROR_HEAD}"), error[:200]
    assert error.endswith("(after 2 attempts)")
    assert len(error) <= MAX_ERROR_CHARS and "cut," in error
    # Neither the prompt template nor the row it was rendered with.
    assert "You read one row" not in error and "RenderedChatMessage" not in error
    assert not any(line in error for line in row.text.splitlines() if len(line) > 20)
    stored = LlmCache(tmp_path / "c.duckdb").entries()
    assert [e.error for e in stored] == [error]


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
