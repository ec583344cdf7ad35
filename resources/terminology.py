"""Dagster resource for the SNOMED CT terminology store.

The loader, the DuckDB store and the numpy search index live in
``resources.snomed_store`` (no Dagster import, so the CLI and benchmark start fast);
this module re-exports them and adds the ConfigurableResource the assets use.
"""

from __future__ import annotations

from pathlib import Path

from dagster import ConfigurableResource, Failure
from pydantic import Field

from resources.snomed_store import (
    LoadReport,
    RF2Error,
    SnomedStore,
    StoreError,
    TermIndex,
    configured_store_path,
    default_store_path,
    ensure_default_store,
    find_rf2_files,
    load_rf2,
    open_store,
)

__all__ = [
    "LoadReport",
    "RF2Error",
    "SnomedStore",
    "SnomedTerminology",
    "StoreError",
    "TermIndex",
    "configured_store_path",
    "default_store_path",
    "ensure_default_store",
    "find_rf2_files",
    "load_rf2",
    "open_store",
]


class SnomedTerminology(ConfigurableResource):
    """A built SNOMED CT store (DuckDB + search index).

    Leave ``store_path`` empty to use $CARDIO_SNOMED_STORE, or else the bundled sample
    release, built on first use into $CARDIO_HOME/terminology/. Point it at a store made by
    ``cardio snomed load RF2_DIR --db PATH`` to ground against a licensed release.
    """

    store_path: str | None = Field(
        default=None,
        description="DuckDB terminology store; empty = bundled sample (built automatically)",
    )

    def resolved_path(self) -> Path:
        return Path(self.store_path) if self.store_path else configured_store_path()

    def store(self) -> SnomedStore:
        """The opened store, cached per process (index arrays load once). An unusable store
        fails the step with its one-line message (file + fix), not a traceback."""
        try:
            return open_store(self.resolved_path())
        except StoreError as exc:
            raise Failure(description=str(exc)) from None

    def fingerprint(self) -> str:
        """Content hash of the loaded RF2 files: put it in code versions so loading another
        release marks grounding stale (rebuilding the same release does not)."""
        return self.store().source_sha256()
