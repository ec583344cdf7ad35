"""Grounding over many terms: the code the grounding assets AND ``cardio extract`` call.

``grounding_candidates`` searches every distinct (role, term) of a guideline's merged
concepts once (threshold-free, ``search_candidates``); ``grounding_index`` applies the
per-role filters to those stored candidates (``select_all``) and summarizes the outcome.
Kept apart from the extraction runs (extraction_runs.py) because the two stages change for
different reasons: a threshold edit re-runs only this half. No Dagster imports here.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardio_assets.config import GroundingSchema, GroundingStageSettings
from cardio_assets.logic.grounding import TermSearcher, ground_candidates, select_grounding
from cardio_assets.logic.measurements import attach_measurement
from cardio_assets.records import (
    GroundingCandidate,
    GroundingOutcome,
    MergedConcept,
    MergedRow,
    ThresholdOverrides,
)

Progress = Callable[[int, int], None]  # (done, total)


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
            found = ground_candidates(
                term,
                role,  # type: ignore[arg-type]
                searcher,
                abbreviations,
                top_k=settings.top_k,
                interface_terms=settings.interface_terms,
            )
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
    schema: GroundingSchema,
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


def apply_threshold_overrides(
    schema: GroundingSchema, overrides: ThresholdOverrides | None
) -> GroundingSchema:
    """The schema with the flags of one run applied to EVERY role (the file is not changed):
    ``min_match_score`` and ``off_domain_min_score`` replace each role's value;
    ``domain_filter=False`` empties each role's allowed_roots and semantic_tags (which the
    schema defines as "no domain filter"), so only the score decides."""
    if overrides is None:
        return schema
    roles = {}
    for role, rule in schema.roles.items():
        update: dict[str, Any] = {}
        if overrides.min_match_score is not None:
            update["min_match_score"] = overrides.min_match_score
        if overrides.off_domain_min_score is not None:
            update["off_domain_min_score"] = overrides.off_domain_min_score
        if overrides.domain_filter is False:
            update["allowed_roots"], update["semantic_tags"] = [], []
        roles[role] = rule.model_copy(update=update)
    return GroundingSchema.model_validate({"roles": roles})


def grounding_index_json(outcomes: Iterable[GroundingOutcome]) -> dict[str, dict[str, Any]]:
    """The grounding_index file (docs/ARCHITECTURE.md): keyed by snomed_id, first (best) use of each id wins."""
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
