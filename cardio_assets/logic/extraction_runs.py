"""Run the extraction passes, merge and grounding over many rows: the code the assets AND
``cardio extract`` call, so the CLI reproduces the pipeline exactly.

Why one module: the Dagster assets are thin (one stage each, stored in DuckDB between
stages) while ``cardio extract`` runs every stage in one process; both call the functions
below in the same order with the same settings, so an evaluation of the CLI output is an
evaluation of the pipeline. No Dagster imports here.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardio_assets.config import ConfigError, ExtractionSettings, GroundingStageSettings
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.grounding import TermSearcher, ground_candidates, select_grounding
from cardio_assets.logic.lexicon import LexiconExtractor
from cardio_assets.logic.measurements import attach_measurement
from cardio_assets.logic.merged_concepts import merge_row, prediction_line
from cardio_assets.records import (
    Focus,
    GroundingCandidate,
    GroundingOutcome,
    MergedConcept,
    MergedRow,
    RowExtraction,
    RowRecord,
    TaggedRow,
)

BACKENDS = ("lexicon", "llm")
MERGE_STAGE_VERSION = "1"

Progress = Callable[[int, int], None]  # (done, total)


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

    @property
    def failures(self) -> list[RowExtraction]:
        return [r for r in self.results if r.error]

    def failure_share(self) -> float:
        return len(self.failures) / len(self.results) if self.results else 0.0


def run_lexicon_pass(
    rows: Sequence[RowRecord],
    focus: Focus,
    extractor: LexiconExtractor,
    progress: Progress | None = None,
) -> PassReport:
    results: list[RowExtraction] = []
    for i, row in enumerate(rows, 1):
        results.append(extractor.extract(row, focus))
        if progress:
            progress(i, len(rows))
    return PassReport(
        focus=focus,
        backend="lexicon",
        model=extractor.model_name,
        results=results,
        prompt_hash=extractor.prompt_hash(),
    )


def run_llm_pass(
    tagged: Sequence[TaggedRow],
    focus: Focus,
    *,
    client_name: str | None,
    models_config: str | Path | None = None,
    cache_path: str | Path | None = None,
    max_concurrency: int | None = None,
) -> PassReport:
    """The llm backend on the tagged texts of one focus (failures recorded per row)."""
    from cardio_assets.logic.llm_extraction import extract_rows

    mine = [t for t in tagged if t.focus == focus]
    report = extract_rows(
        mine,
        client_name=client_name,
        models_config=models_config,
        cache_path=cache_path,
        max_concurrency=max_concurrency,
    )
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


# --------------------------------------------------------------------------- grounding


def grounding_terms(merged: Iterable[MergedRow]) -> list[tuple[str, str]]:
    """Distinct (role, normalized) terms in first-seen order: one search each."""
    seen: dict[tuple[str, str], None] = {}
    for row in merged:
        for c in row.concepts:
            seen.setdefault((c.role, c.normalized), None)
        for a in row.actions:
            seen.setdefault((a.role, a.normalized or a.text.lower()), None)
    return list(seen)


def search_candidates(
    terms: Sequence[tuple[str, str]],
    searcher: TermSearcher,
    abbreviations: Mapping[str, str],
    settings: GroundingStageSettings,
    progress: Progress | None = None,
    errors: dict[tuple[str, str], str] | None = None,
) -> list[GroundingCandidate]:
    """Top-k candidates per term, threshold-free (filters apply later, in selection).

    A term whose search fails gets no candidates (it stays unmapped downstream) and its
    error goes to ``errors`` when given: one odd term never sinks a guideline.
    """
    out: list[GroundingCandidate] = []
    for i, (role, term) in enumerate(terms, 1):
        try:
            found = ground_candidates(term, role, searcher, abbreviations, top_k=settings.top_k)  # type: ignore[arg-type]
        except Exception as exc:
            found = []
            if errors is not None:
                errors[(role, term)] = f"{type(exc).__name__}: {exc}"[:300]
        out.extend(found)
        if progress:
            progress(i, len(terms))
    return out


def _measurement_text(concepts: Sequence[MergedConcept], role: str, term: str) -> str | None:
    """'left ventricular ejection fraction <= 35%' for the first measured use of a term."""
    for c in concepts:
        if c.role == role and c.normalized == term and c.operator and c.threshold is not None:
            threshold = tuple(c.threshold) if isinstance(c.threshold, list) else c.threshold
            return attach_measurement(term, c.operator, threshold, c.unit)  # type: ignore[arg-type]
    return None


def select_all(
    merged: Sequence[MergedRow],
    candidates: Sequence[GroundingCandidate],
    schema: Any,
) -> list[GroundingOutcome]:
    """One outcome per distinct (role, term): the winning entry or the unmapped reason.

    ``schema`` is the GroundingSchema of configs/guideline_graph_schema.yaml; terms with no
    stored candidates are kept as unmapped ("no candidates"), never silently dropped.
    """
    by_term: dict[tuple[str, str], list[GroundingCandidate]] = {}
    for c in candidates:
        by_term.setdefault((c.role, c.term), []).append(c)
    all_concepts = [c for row in merged for c in row.concepts]
    outcomes: list[GroundingOutcome] = []
    for role, term in grounding_terms(merged):
        standardized = _measurement_text(all_concepts, role, term)
        outcome = select_grounding(
            term,
            role,  # type: ignore[arg-type]
            by_term.get((role, term), []),
            schema.rule(role),
            standardized=standardized,
        )
        outcomes.append(outcome)
    return outcomes


def grounding_index_json(outcomes: Iterable[GroundingOutcome]) -> dict[str, dict[str, Any]]:
    """DESIGN.md's grounding_index file: keyed by snomed_id, first (best) use of each id wins."""
    index: dict[str, dict[str, Any]] = {}
    for outcome in outcomes:
        entry = outcome.entry
        if entry is None:
            continue
        key = str(entry.snomed_id)
        current = index.get(key)
        if current is None or entry.score > current["score"]:
            index[key] = entry.model_dump(mode="json")
    return dict(sorted(index.items(), key=lambda kv: int(kv[0])))


def groundings_map(
    outcomes: Iterable[GroundingOutcome],
) -> dict[tuple[str, str], tuple[str | None, str | None]]:
    """(role, normalized) -> (snomed_id, fsn) for prediction lines; unmapped terms absent."""
    out: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    for o in outcomes:
        if o.entry is not None:
            out[(o.role, o.term)] = (str(o.entry.snomed_id), o.entry.preferred_term)
    return out


def grounding_stats(outcomes: Sequence[GroundingOutcome]) -> dict[str, Any]:
    """Coverage and score distribution of one grounding run (checks + metadata)."""
    mapped = [o for o in outcomes if o.entry is not None]
    scores = sorted(o.entry.score for o in mapped if o.entry is not None)
    by_role: dict[str, dict[str, int]] = {}
    for o in outcomes:
        slot = by_role.setdefault(o.role, {"terms": 0, "mapped": 0})
        slot["terms"] += 1
        slot["mapped"] += int(o.entry is not None)
    reasons = Counter(
        (o.unmapped_reason or "").split(";")[0].split(" (")[0][:80]
        for o in outcomes
        if o.entry is None
    )
    bins = [0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001]
    histogram = {
        f"{lo:.1f}-{min(hi, 1.0):.1f}": sum(1 for s in scores if lo <= s < hi)
        for lo, hi in zip(bins, bins[1:], strict=False)
    }
    return {
        "terms": len(outcomes),
        "mapped": len(mapped),
        "mapped_share": round(len(mapped) / len(outcomes), 4) if outcomes else 0.0,
        "median_score": round(statistics.median(scores), 4) if scores else None,
        "min_score": scores[0] if scores else None,
        "by_role": by_role,
        "score_histogram": histogram,
        "unmapped_reasons": dict(reasons.most_common(8)),
    }


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
