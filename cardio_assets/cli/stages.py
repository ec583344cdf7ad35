"""Stages 4-7 in one process, for ``cardio extract`` and ``cardio build``: both extraction
passes through the extractor resources the assets use (``LexiconExtractorResource.extract``
/ ``LlmExtractorResource.extract``, as assets/_extraction_factory.py calls them), the merge
(logic/extraction_runs.py) and grounding (logic/grounding_runs.py). Not a command.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardio_assets.config import ConfigError, GroundingSchema, GroundingStageSettings
from cardio_assets.logic import extraction_runs as runs
from cardio_assets.logic import grounding_runs
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.redaction import redact
from cardio_assets.records import GroundingCandidate, GroundingOutcome, MergedRow, RowRecord

if TYPE_CHECKING:
    from resources.lexicon_extractor import LexiconExtractorResource


@dataclass
class StagesResult:
    passes: dict[str, runs.PassReport]
    merged: list[MergedRow]
    candidates: list[GroundingCandidate]
    outcomes: list[GroundingOutcome]
    search_errors: dict[tuple[str, str], str] = field(default_factory=dict)

    def failed_rows(self) -> set[str]:
        return {r.row_id for p in self.passes.values() for r in p.failures}


def _bar(label: str, total: int):
    return click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)


def extract_merge_ground(
    rows: list[RowRecord],
    choice: runs.BackendChoice,
    *,
    store: object,
    abbreviations: Abbreviations,
    grounding: GroundingStageSettings,
    schema: GroundingSchema,
    models_path: Path | None = None,
    span_tagger: str | None = None,
    lexicon: LexiconExtractorResource | None = None,
) -> StagesResult:
    """What main_extractions ... grounding_index compute for ``rows``, with progress on
    stderr; the extractor resources with their default configuration, as in the assets
    (``lexicon`` replaces the lexicon one: a benchmark's variant of it)."""
    from cardio_assets.logic.tagged_rows import tag_rows
    from resources.lexicon_extractor import LexiconExtractorResource
    from resources.llm_extractor import LlmExtractorResource

    if lexicon is not None and span_tagger is not None:
        raise ValueError("give the span tagger to the lexicon resource, not beside it")
    passes: dict[str, runs.PassReport] = {}
    if choice.backend == "lexicon":
        lexicon = lexicon or LexiconExtractorResource(span_tagger=span_tagger or "")
        for focus in ("MAIN", "POPULATION"):
            with _bar(f"{focus:<10}", len(rows)) as bar:
                results = lexicon.extract(
                    rows, focus, searcher=store, progress=lambda done, total: bar.update(1)
                )
            passes[focus] = runs.lexicon_pass(focus, results)
    else:
        tagged = tag_rows(rows)
        llm = LlmExtractorResource(models_config=str(models_path) if models_path else "")
        for focus in ("MAIN", "POPULATION"):
            click.echo(
                f"{focus}: {len(rows)} LLM calls at most (cached answers are reused)", err=True
            )
            try:
                report = llm.extract(runs.tagged_for(tagged, focus), choice.model)
            except ConfigError as exc:
                raise click.ClickException(str(exc)) from exc
            passes[focus] = runs.llm_pass(focus, report)

    merged = runs.merge_extractions(
        rows, passes["MAIN"].results, passes["POPULATION"].results, abbreviations
    )
    terms = grounding_runs.grounding_terms(merged)
    search_errors: dict[tuple[str, str], str] = {}
    with _bar("grounding ", len(terms)) as bar:
        candidates = grounding_runs.search_candidates(
            terms,
            store,  # type: ignore[arg-type]
            abbreviations,
            grounding,
            progress=lambda done, total: bar.update(1),
            errors=search_errors,
        )
    for (role, term), error in search_errors.items():
        click.echo(redact(f"  terminology search failed for {role} {term!r}: {error}"), err=True)
    outcomes = grounding_runs.select_all(merged, candidates, schema)
    return StagesResult(passes, merged, candidates, outcomes, search_errors)
