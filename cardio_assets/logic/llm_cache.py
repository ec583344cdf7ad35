"""DuckDB cache of LLM extraction responses, so re-materializing never pays twice.

Keyed by (function, prompt hash, model, input hash): a changed prompt template, output
schema or model misses the cache, an unchanged row hits it. Successful entries are reused
as they are; failed entries are kept for audit (raw answer + error) and retried on the next
run. Error texts and raw answers are redacted (cardio_assets/logic/redaction.py) as they
are written, whoever built the entry; the key holds hashes and the model name, never a
secret. The cache is its own DuckDB file (``paths.llm_cache_path()``) so LLM work never waits
on the warehouse writer lock. Connections are short-lived (``warehouse.connect``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardio_assets import paths
from cardio_assets.logic.redaction import known_secrets, redact, safe_error
from cardio_assets.warehouse import connect

_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_responses (
    function VARCHAR NOT NULL,
    prompt_hash VARCHAR NOT NULL,
    model VARCHAR NOT NULL,
    input_hash VARCHAR NOT NULL,
    client VARCHAR,
    provider VARCHAR,
    raw_response VARCHAR,
    parsed_json VARCHAR,
    input_tokens BIGINT,
    output_tokens BIGINT,
    latency_ms DOUBLE,
    attempts INTEGER,
    error VARCHAR,
    created_at TIMESTAMP,
    PRIMARY KEY (function, prompt_hash, model, input_hash)
)
"""

_COLUMNS = (
    "function",
    "prompt_hash",
    "model",
    "input_hash",
    "client",
    "provider",
    "raw_response",
    "parsed_json",
    "input_tokens",
    "output_tokens",
    "latency_ms",
    "attempts",
    "error",
    "created_at",
)


_SELECT = (
    "SELECT function, prompt_hash, model, input_hash, client, provider, raw_response, "
    "parsed_json, input_tokens, output_tokens, latency_ms, attempts, error, created_at "
    "FROM llm_responses"
)
_SELECT_SUCCESSES = (
    _SELECT + " WHERE function = ? AND prompt_hash = ? AND model = ? "
    "AND list_contains(?, input_hash) AND error IS NULL AND parsed_json IS NOT NULL"
)
_SELECT_ALL = _SELECT + " ORDER BY created_at DESC"
_UPSERT = (
    "INSERT OR REPLACE INTO llm_responses (function, prompt_hash, model, input_hash, client, "
    "provider, raw_response, parsed_json, input_tokens, output_tokens, latency_ms, attempts, "
    "error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass
class CacheEntry:
    function: str
    prompt_hash: str
    model: str
    input_hash: str
    raw_response: str | None
    parsed: dict[str, Any] | None  # {"concepts": [...], "actions": [...]} as record dumps
    error: str | None = None
    client: str | None = None
    provider: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_ms: float | None = None
    attempts: int = 1
    created_at: datetime | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.parsed is not None


class LlmCache:
    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path else paths.llm_cache_path()
        with connect(self.path) as con:
            con.execute(_SCHEMA)

    def successes(
        self, function: str, prompt_hash: str, model: str, input_hashes: Iterable[str]
    ) -> dict[str, CacheEntry]:
        """Reusable entries for these inputs, by input hash (failed entries are not returned)."""
        wanted = sorted(set(input_hashes))
        if not wanted:
            return {}
        with connect(self.path) as con:
            rows = con.execute(_SELECT_SUCCESSES, [function, prompt_hash, model, wanted]).fetchall()
        return {row[3]: _entry(row) for row in rows}

    def store(self, entry: CacheEntry) -> None:
        """Insert or replace the entry for its key (a retried failure overwrites itself)."""
        self.store_many([entry])

    def store_many(self, entries: Iterable[CacheEntry]) -> None:
        """One short connection and transaction for a batch of finished calls."""
        now = datetime.now(UTC).replace(tzinfo=None)
        secrets = known_secrets()
        rows = [
            [
                e.function,
                e.prompt_hash,
                e.model,
                e.input_hash,
                e.client,
                e.provider,
                redact(e.raw_response, secrets) if e.raw_response else e.raw_response,
                json.dumps(e.parsed, sort_keys=True) if e.parsed is not None else None,
                e.input_tokens,
                e.output_tokens,
                e.latency_ms,
                e.attempts,
                safe_error(e.error, secrets=secrets) if e.error else e.error,
                e.created_at or now,
            ]
            for e in entries
        ]
        if not rows:
            return
        with connect(self.path) as con:
            con.execute("BEGIN TRANSACTION")
            con.executemany(_UPSERT, rows)
            con.execute("COMMIT")

    def entries(self) -> list[CacheEntry]:
        """Every entry, newest first (for audits and tests)."""
        with connect(self.path) as con:
            rows = con.execute(_SELECT_ALL).fetchall()
        return [_entry(row) for row in rows]


def _entry(row: tuple[Any, ...]) -> CacheEntry:
    data = dict(zip(_COLUMNS, row, strict=True))
    parsed_json = data.pop("parsed_json")
    parsed = json.loads(parsed_json) if parsed_json is not None else None
    raw = data.pop("raw_response")
    return CacheEntry(parsed=parsed, raw_response=raw, **data)
