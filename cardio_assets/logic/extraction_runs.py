"""The extraction passes and their merge over many rows: the code the assets AND
``cardio extract`` call, so the CLI reproduces the pipeline exactly.

The Dagster assets are thin (one stage each, stored in DuckDB between stages) while
``cardio extract`` runs every stage in one process; both run the passes through the same
extractor resources (resources/lexicon_extractor.py, resources/llm_extractor.py), turn
what they return into a ``PassReport`` here, merge with ``merge_extractions`` and ground
with grounding_runs.py, so an evaluation of the CLI output is an evaluation of the
pipeline. No Dagster imports here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardio_assets.config import ConfigError, ExtractionSettings
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.grounding_runs import groundings_map
from cardio_assets.logic.merged_concepts import merge_row, prediction_line
from cardio_assets.records import (
    Focus,
    GroundingOutcome,
    MergedRow,
    RowExtraction,
    RowRecord,
    TaggedRow,
)

if TYPE_CHECKING:
    from cardio_assets.logic.llm_extraction import LlmRunReport

BACKENDS = ("lexicon", "llm")

# --------------------------------------------------------------------------- config


@dataclass(frozen=True)
class BackendChoice:
    """The backend (and LLM client name) a run uses, after every override was applied."""

    backend: str
    model: str | None = None  # models.yaml client name; None = its default (llm only)


def choose_backend(
    settings: ExtractionSettings, backend: str | None = None, model: str | None = None
) -> BackendChoice:
    """Run config / CLI flags win over configs/pipeline.yaml; a model name alone means llm."""
    chosen = backend or ("llm" if model else settings.backend)
    if chosen not in BACKENDS:
        raise ConfigError(f"extraction backend {chosen!r} is not one of {list(BACKENDS)}")
    if chosen == "lexicon":
        return BackendChoice("lexicon", None)
    return BackendChoice("llm", model or settings.model or None)


# --------------------------------------------------------------------------- extraction


@dataclass
class PassReport:
    """What one extraction pass did, for asset metadata and the CLI summary."""

    focus: Focus
    backend: str
    model: str | None
    results: list[RowExtraction]
    prompt_hash: str | None = None
    http_calls: int = 0
    cache_hits: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    # llm backend: what the deterministic checks of its answers dropped or corrected
    # (llm_validation.validation_summary); None for the lexicon, which has no such checks
    validation: dict[str, Any] | None = None

    @property
    def failures(self) -> list[RowExtraction]:
        return [r for r in self.results if r.error]

    def failure_share(self) -> float:
        return len(self.failures) / len(self.results) if self.results else 0.0


def lexicon_pass(focus: Focus, results: Sequence[RowExtraction]) -> PassReport:
    """The report of a lexicon pass: its model (the rules version) and prompt hash are
    the ones every row record carries."""
    first = results[0] if results else None
    return PassReport(
        focus=focus,
        backend="lexicon",
        model=first.model if first else None,
        results=list(results),
        prompt_hash=first.prompt_hash if first else None,
    )


def tagged_for(tagged: Sequence[TaggedRow], focus: Focus) -> list[TaggedRow]:
    """The tagged texts one llm pass sends (one per row)."""
    return [t for t in tagged if t.focus == focus]


def llm_pass(focus: Focus, report: LlmRunReport) -> PassReport:
    """The report of an llm pass (failures recorded per row, never raised)."""
    from cardio_assets.logic.llm_validation import validation_summary

    function_hash = next(iter(report.prompt_hashes.values()), None)
    return PassReport(
        focus=focus,
        backend="llm",
        model=report.model,
        results=report.results,
        prompt_hash=function_hash,
        http_calls=report.http_calls,
        cache_hits=report.cache_hits,
        extra={
            "client": report.client,
            "input_tokens": report.input_tokens,
            "output_tokens": report.output_tokens,
        },
        validation=validation_summary(report.results),
    )


# --------------------------------------------------------------------------- merge


def merge_extractions(
    rows: Sequence[RowRecord] | None,
    main: Sequence[RowExtraction],
    population: Sequence[RowExtraction],
    abbreviations: Abbreviations,
) -> list[MergedRow]:
    """One MergedRow per row (row order of ``rows`` when given, else of the MAIN pass).

    A row with only one pass (the other failed to run at all) is still merged; per-pass
    errors travel on ``MergedRow.errors``.
    """
    main_by_id = {r.row_id: r for r in main}
    pop_by_id = {r.row_id: r for r in population}
    order = [r.id for r in rows] if rows is not None else list(main_by_id)
    order += [rid for rid in pop_by_id if rid not in set(order)]
    merged: list[MergedRow] = []
    for row_id in order:
        m, p = main_by_id.get(row_id), pop_by_id.get(row_id)
        if m is None and p is None:
            continue
        try:
            merged.append(merge_row(m, p, abbreviations))
        except Exception as exc:  # one odd row must not sink the guideline
            first = m or p
            assert first is not None
            merged.append(
                MergedRow(
                    row_id=row_id,
                    guideline=first.guideline,
                    backend=first.backend,
                    model=first.model,
                    errors=[f"merge: {type(exc).__name__}: {exc}"],  # bounded by MergedRow
                )
            )
    return merged


# --------------------------------------------------------------------------- output lines


def prediction_lines(
    rows: Sequence[RowRecord],
    merged: Sequence[MergedRow],
    outcomes: Sequence[GroundingOutcome],
) -> list[dict[str, Any]]:
    """The ``cardio extract`` output: one line per row (issue 4 item 6 format)."""
    by_id = {m.row_id: m for m in merged}
    groundings = groundings_map(outcomes)
    lines = []
    for row in rows:
        m = by_id.get(row.id) or MergedRow(row_id=row.id, guideline=row.guideline)
        line = prediction_line(
            row.row_text,
            row.guideline,
            m,
            row_id=row.id,
            class_=row.class_,
            level=row.level,
            groundings=groundings,
        )
        if m.errors:
            line["errors"] = list(m.errors)
        lines.append(line)
    return lines


def dumps_line(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False)
