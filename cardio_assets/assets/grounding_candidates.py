"""Asset ``grounding_candidates``: top-k SNOMED CT candidates with composite scores for
every distinct (role, normalized term) of the guideline's merged concepts.

Threshold-free on purpose: its code_version hashes only the search settings (top_k,
interface terms, abbreviations), never the filters of configs/guideline_graph_schema.yaml, so tuning a
threshold re-runs grounding_index alone and never searches the terminology again.
"""

import dagster as dg

from cardio_assets.assets._batch import (
    EAGER,
    SINGLE_RUN,
    PartitionResult,
    emit,
    partition_keys,
)
from cardio_assets.assets._code_versions import (
    CODE_VERSION_READS,
    grounding_candidates_code_version,
)
from cardio_assets.assets._metadata import markdown_preview
from cardio_assets.config import load_abbreviations, load_pipeline_settings
from cardio_assets.logic import grounding_runs as runs
from cardio_assets.logic.partition_batches import group_by_guideline, stamp_guideline
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import MergedRow
from resources.terminology import SnomedTerminologyResource


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="grounding",
    code_version=grounding_candidates_code_version(),
    metadata={
        "record_type": "GroundingCandidate",
        "partition_expr": "guideline",
        CODE_VERSION_READS: (
            "configs/pipeline.yaml (grounding.top_k, grounding.interface_terms), "
            "configs/abbreviations.txt, "
            "the SNOMED CT release"
        ),
    },
    kinds={"duckdb"},
    backfill_policy=SINGLE_RUN,
    automation_condition=EAGER,
    check_specs=[
        dg.AssetCheckSpec(
            "terms_with_candidates",
            asset="grounding_candidates",
            description="Share of distinct terms with at least one candidate (warns below half).",
        )
    ],
)
def grounding_candidates(
    context: dg.AssetExecutionContext,
    terminology: SnomedTerminologyResource,
    merged_concepts: list[MergedRow],
):
    keys = partition_keys(context)
    merged = group_by_guideline(keys, merged_concepts)
    yield from emit(
        context, {key: _one_guideline(context, terminology, key, merged[key]) for key in keys}
    )


def _one_guideline(
    context: dg.AssetExecutionContext,
    terminology: SnomedTerminologyResource,
    guideline: str,
    merged_concepts: list[MergedRow],
) -> PartitionResult:
    settings = load_pipeline_settings().grounding
    store = terminology.store()
    terms = runs.grounding_terms(merged_concepts)
    errors: dict[tuple[str, str], str] = {}
    candidates = stamp_guideline(
        runs.search_candidates(terms, store, load_abbreviations(), settings, errors=errors),
        guideline,
    )
    for (role, term), error in list(errors.items())[:20]:
        context.log.warning(f"terminology search failed for {role} {term!r}: {error}")
    found = {(c.role, c.term) for c in candidates}
    best = [c for c in candidates if c.rank == 1]
    share = len(found) / len(terms) if terms else 1.0
    return PartitionResult(
        candidates,
        metadata={
            "terms": len(terms),
            "terms_with_candidates": len(found),
            "candidates": len(candidates),
            "top_k": settings.top_k,
            "search_errors": len(errors),
            # the loaded release: another release means new candidates (re-materialize)
            "terminology_release_sha256": terminology.fingerprint(),
            "terminology_store": dg.MetadataValue.path(str(store.db_path)),
            "best_candidates": markdown_preview(
                best,
                {
                    "role": lambda c: c.role,
                    "term": lambda c: c.term,
                    "best": lambda c: f"{c.concept_id} {c.fsn}",
                    "score": lambda c: f"{c.score:.3f}",
                },
                limit=15,
            ),
        },
        checks=[
            dg.AssetCheckResult(
                check_name="terms_with_candidates",
                passed=share >= 0.5,
                severity=dg.AssetCheckSeverity.WARN,
                metadata={
                    "share": round(share, 4),
                    "without": dg.MetadataValue.json(
                        [f"{r}: {t}" for r, t in terms if (r, t) not in found][:20]
                    ),
                },
            )
        ],
    )
