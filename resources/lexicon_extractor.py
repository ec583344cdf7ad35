"""The offline ``lexicon`` extraction backend as a Dagster resource.

Thin on purpose: the rules live in cardio_assets/logic/lexicon/ (no Dagster there). The
resource holds the configuration and wires the abbreviation list and (optionally) the
SNOMED CT store into the extractor; the extraction assets and ``cardio extract`` both run
a pass through ``extract``. Same output records as resources/llm_extractor.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from dagster import ConfigurableResource
from pydantic import Field

from cardio_assets.config import (
    file_sha256,
    load_abbreviations,
    load_pipeline_settings,
    resolve_project_path,
)
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.lexicon import LexiconExtractor, LexiconSettings, term_lookup_from_searcher
from cardio_assets.logic.lexicon.span_tagger import SpanTagger, provenance_path
from cardio_assets.records import Focus, RowExtraction, RowRecord


class LexiconExtractorResource(ConfigurableResource):
    """Rule + terminology extraction of MAIN and POPULATION passes, offline and deterministic."""

    abbreviations_path: str = Field(
        default="", description="Abbreviation list (empty = configs/abbreviations.txt)."
    )
    use_terminology: bool = Field(
        default=True,
        description="Ask the SNOMED CT store which role a phrase plays (semantic tag).",
    )
    min_term_score: float = Field(
        default=0.9,
        ge=0.0,
        le=1.0,
        description="Composite match score a SNOMED description needs before its tag decides a role.",
    )
    max_ngram: int = Field(
        default=6, ge=1, le=12, description="Longest sub-phrase tried against the terminology."
    )
    span_tagger: str = Field(
        default="",
        description="Span tagger model file ('' = extraction.span_tagger of "
        "configs/pipeline.yaml; 'none' = the rules alone).",
    )

    span_tagger_scope: str = Field(
        default="",
        description="Rows the span tagger reads: 'learned_guidelines' (those of the "
        "guidelines it was trained on), 'all_guidelines', or '' = extraction."
        "span_tagger_scope of configs/pipeline.yaml.",
    )

    def abbreviations(self) -> Abbreviations:
        return load_abbreviations(
            Path(self.abbreviations_path) if self.abbreviations_path else None
        )

    def build(self, searcher: object | None = None) -> LexiconExtractor:
        """The logic extractor; ``searcher`` is a grounding.TermSearcher (the SNOMED store)."""
        abbreviations = self.abbreviations()
        lookup = None
        if self.use_terminology and searcher is not None:
            lookup = term_lookup_from_searcher(searcher, dict(abbreviations.mapping))
        scope = self.span_tagger_scope or load_pipeline_settings().extraction.span_tagger_scope
        settings = LexiconSettings(
            min_term_score=self.min_term_score,
            max_ngram=self.max_ngram,
            span_tagger_scope=scope,  # type: ignore[arg-type]  # checked by LexiconSettings
        )
        return LexiconExtractor(abbreviations, lookup, settings, self.tagger())

    def tagger(self) -> SpanTagger | None:
        """The configured span tagger, opened once per model file (None = rules alone)."""
        choice = self.span_tagger or load_pipeline_settings().extraction.span_tagger or "none"
        if choice == "none":
            return None
        path = resolve_project_path(choice)
        # keyed by the state of the model and its sidecar too: a model retrained (or its
        # guideline list rewritten) while this process lives is opened again
        return _open_tagger(path, _file_state(path), _file_state(provenance_path(path)))

    def extract(
        self,
        rows: Sequence[RowRecord],
        focus: Focus,
        searcher: object | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[RowExtraction]:
        """One RowExtraction per row (a failing row carries its error, never raises);
        ``progress(done, total)`` after each row."""
        extractor = self.build(searcher)
        results: list[RowExtraction] = []
        for done, row in enumerate(rows, 1):
            results.append(extractor.extract(row, focus))
            if progress:
                progress(done, len(rows))
        return results

    def describe(self, searcher: object | None = None) -> dict[str, Any]:
        """Backend identity for asset metadata and code_version hashing."""
        extractor = self.build(searcher)
        return {
            "backend": "lexicon",
            "model": extractor.model_name,
            "prompt_hash": extractor.prompt_hash(),
        }


def _file_state(path: Path) -> str | None:
    """The file's content hash (None when absent): what the open-once cache keys on."""
    return file_sha256(path) if path.is_file() else None


@lru_cache(maxsize=4)
def _open_tagger(path: Path, model_state: str | None, sidecar_state: str | None) -> SpanTagger:
    return SpanTagger(path)
