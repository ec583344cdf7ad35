"""Dagster resource for the `llm` extraction backend (BAML over a configured endpoint).

Thin on purpose: retries, the response cache and the BAML calls live in
cardio_assets/logic/llm_extraction.py; the extraction assets and ``cardio extract`` both run
a pass through ``extract``.

Assets that call it should run in the Dagster concurrency pool ``LLM_POOL`` (``pool=LLM_POOL``
on the asset), so simultaneous runs share one cap on LLM work; within a run the resource
bounds requests in flight with an asyncio semaphore (``max_concurrency``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dagster import ConfigurableResource
from pydantic import Field

from cardio_assets.config import config_hash, load_models_config
from cardio_assets.logic.llm_extraction import LlmRunReport, extract_rows, prompt_hashes
from cardio_assets.records import TaggedRow

LLM_POOL = "llm"


class LlmExtractorResource(ConfigurableResource):
    """Runs ExtractMain / ExtractPopulation on tagged rows through a client from models.yaml."""

    model: str = Field(
        default="",
        description="Client name in configs/models.yaml (empty = its `default`).",
    )
    models_config: str = Field(
        default="", description="Path of the models YAML (empty = configs/models.yaml)."
    )
    cache_path: str = Field(
        default="", description="LLM response cache (empty = $CARDIO_HOME/llm_cache.duckdb)."
    )
    max_concurrency: int = Field(
        default=0, ge=0, description="Requests in flight per run (0 = the client's setting)."
    )

    def extract(self, rows: Sequence[TaggedRow], model: str | None = None) -> LlmRunReport:
        """One RowExtraction per row (failures recorded in `error`, never raised per row).
        ``model`` (a run's choice) wins over the resource's own ``model``."""
        return extract_rows(
            rows,
            client_name=model or self.model or None,
            models_config=self.models_config or None,
            cache_path=self.cache_path or None,
            max_concurrency=self.max_concurrency or None,
        )

    def describe(self) -> dict[str, Any]:
        """Client identity and prompt hashes (no secrets) for asset metadata and code_version."""
        name, client = load_models_config(self.models_config or None).client(self.model or None)
        return {
            "client": name,
            "provider": client.provider,
            "model": client.model,
            "config_hash": config_hash(client),
            "prompt_hashes": prompt_hashes(),
        }
