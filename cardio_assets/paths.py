"""Project-local locations of everything the pipeline writes.

All state lives under one folder (``var/`` in the repo by default, or ``$CARDIO_HOME``)
so a user can see, back up or delete it in one place.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
# The repo's own configs/; the folder in use is cardio_assets.config.config_dir(), which
# honours $CARDIO_CONFIG_DIR at every call.
DEFAULT_CONFIG_DIR = PROJECT_ROOT / "configs"
DATA_DIR = PROJECT_ROOT / "data"


def var_dir() -> Path:
    """Root of all generated state (override with CARDIO_HOME)."""
    return Path(os.environ.get("CARDIO_HOME", PROJECT_ROOT / "var")).resolve()


def warehouse_path() -> Path:
    """DuckDB file holding every intermediate asset table (one ``guideline`` column each)."""
    return Path(os.environ.get("CARDIO_WAREHOUSE", var_dir() / "warehouse.duckdb"))


def llm_cache_path() -> Path:
    """DuckDB file of raw LLM responses: its own file so extraction never waits on the warehouse lock."""
    return Path(os.environ.get("CARDIO_LLM_CACHE", var_dir() / "llm_cache.duckdb"))


def outputs_dir() -> Path:
    """Human-facing exports: per-table JSON, grounding_index JSON, extracted_rules JSONL."""
    return var_dir() / "outputs"


def guideline_output_dir(guideline: str) -> Path:
    return outputs_dir() / guideline
