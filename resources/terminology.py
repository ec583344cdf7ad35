"""The SNOMED CT store as a Dagster resource (the store itself: cardio_assets/terminology/).

Thin on purpose: which store to open and how an unusable one fails a step. Everything
else (RF2 loading, the index, search) is plain code the CLI and the benchmarks share.
"""

from __future__ import annotations

from pathlib import Path

from dagster import ConfigurableResource, Failure
from pydantic import Field

from cardio_assets.terminology.location import configured_store_path, open_store
from cardio_assets.terminology.store import SnomedStore, StoreError


class SnomedTerminologyResource(ConfigurableResource):
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
