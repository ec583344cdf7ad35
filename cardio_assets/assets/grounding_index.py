"""Asset ``grounding_index``: the per-role filters of configs/guideline_graph_schema.yaml
applied to the stored candidates; the winner per term, or the reason it stays unmapped.

Kept in DuckDB as GroundingOutcome records (entry + one explained decision per candidate,
unmapped and dropped terms included) and exported as the grounding_index JSON (docs/ARCHITECTURE.md),
keyed by snomed_id, to ``$CARDIO_HOME/outputs/<guideline>/grounding_index.json``.
"""

import dagster as dg

from cardio_assets import paths
from cardio_assets.assets._code_versions import CODE_VERSION_READS, grounding_index_code_version
from cardio_assets.assets._metadata import markdown_preview
from cardio_assets.config import ConfigError, load_grounding_schema, load_pipeline_settings
from cardio_assets.exports import write_json
from cardio_assets.logic import grounding_runs as runs
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import GroundingCandidate, MergedRow


def _histogram_md(histogram: dict[str, int]) -> dg.MetadataValue:
    top = max(histogram.values(), default=0) or 1
    lines = ["| score | mapped terms | |", "|---|---|---|"]
    for band, count in histogram.items():
        lines.append(f"| {band} | {count} | {'█' * round(20 * count / top)} |")
    return dg.MetadataValue.md("\n".join(lines))


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="grounding",
    code_version=grounding_index_code_version(),
    metadata={
        "record_type": "GroundingOutcome",
        "partition_expr": "guideline",
        CODE_VERSION_READS: (
            "configs/guideline_graph_schema.yaml (roles), configs/pipeline.yaml "
            "(grounding.min_mapped_share, block_below_mapped_share, min_median_score)"
        ),
    },
    kinds={"duckdb", "json"},
    check_specs=[
        dg.AssetCheckSpec(
            "grounding_coverage",
            asset="grounding_index",
            description="Share of distinct concepts mapped >= grounding.min_mapped_share "
            "(configs/pipeline.yaml; warns below it). Blocking below "
            "grounding.block_below_mapped_share, where the terminology is missing or wrong.",
            blocking=True,
        ),
        dg.AssetCheckSpec(
            "grounding_score_distribution",
            asset="grounding_index",
            description="Median winning score >= grounding.min_median_score and no winner "
            "below its role's min_match_score.",
        ),
    ],
)
def grounding_index(
    context: dg.AssetExecutionContext,
    merged_concepts: list[MergedRow],
    grounding_candidates: list[GroundingCandidate],
):
    guideline = context.partition_key
    settings = load_pipeline_settings().grounding
    try:
        schema = load_grounding_schema()
    except ConfigError as exc:
        raise dg.Failure(description=str(exc)) from None
    outcomes = runs.select_all(merged_concepts, grounding_candidates, schema)
    index = runs.grounding_index_json(outcomes)
    target = paths.guideline_output_dir(guideline) / "grounding_index.json"
    write_json(target, index)
    stats = runs.grounding_stats(outcomes)
    yield dg.Output(
        outcomes,
        metadata={
            "terms": stats["terms"],
            "mapped": stats["mapped"],
            "mapped_share": stats["mapped_share"],
            "index_entries": len(index),
            "median_score": stats["median_score"],
            "grounding_index_json": dg.MetadataValue.path(str(target)),
            "by_role": dg.MetadataValue.json(stats["by_role"]),
            "score_histogram": _histogram_md(stats["score_histogram"]),
            "unmapped_reasons": dg.MetadataValue.json(stats["unmapped_reasons"]),
            "mapped_preview": markdown_preview(
                [o for o in outcomes if o.entry],
                {
                    "role": lambda o: o.role,
                    "term": lambda o: o.term,
                    "snomed_id": lambda o: o.entry.snomed_id,
                    "preferred_term": lambda o: o.entry.preferred_term,
                    "score": lambda o: f"{o.entry.score:.3f}",
                },
                limit=15,
            ),
            "unmapped_preview": markdown_preview(
                [o for o in outcomes if not o.entry],
                {
                    "role": lambda o: o.role,
                    "term": lambda o: o.term,
                    "reason": lambda o: o.unmapped_reason,
                },
                limit=15,
                width=160,
            ),
        },
    )
    share = stats["mapped_share"]
    # Two floors: low coverage often means a small terminology (the bundled sample maps
    # ~46%), not a broken run, so it warns; next to nothing mapped means the terminology is
    # missing or wrong, and that must not reach the graph.
    blocked = stats["terms"] > 0 and share < settings.block_below_mapped_share
    yield dg.AssetCheckResult(
        check_name="grounding_coverage",
        passed=share >= settings.min_mapped_share,
        severity=dg.AssetCheckSeverity.ERROR if blocked else dg.AssetCheckSeverity.WARN,
        description=f"guideline '{guideline}': mapped share {share:.1%} < "
        f"grounding.block_below_mapped_share {settings.block_below_mapped_share:.0%} "
        "(configs/pipeline.yaml): the terminology store does not cover this guideline. The "
        "bundled store is a small sample; load a SNOMED CT release with `cardio snomed load` "
        "and set CARDIO_SNOMED_STORE, or lower the floor to load the graph with most concepts "
        "unmapped"
        if blocked
        else None,
        metadata={
            "mapped_share": share,
            "min_mapped_share": settings.min_mapped_share,
            "block_below_mapped_share": settings.block_below_mapped_share,
            "by_role": dg.MetadataValue.json(stats["by_role"]),
        },
    )
    below_role_min = [
        f"{o.role}: {o.term} ({o.entry.score:.3f})"
        for o in outcomes
        if o.entry and o.entry.score < schema.rule(o.role).min_match_score
    ]
    median = stats["median_score"]
    yield dg.AssetCheckResult(
        check_name="grounding_score_distribution",
        passed=not below_role_min and (median is None or median >= settings.min_median_score),
        metadata={
            "median_score": median,
            "min_median_score": settings.min_median_score,
            "min_score": stats["min_score"],
            "winners_below_role_minimum": dg.MetadataValue.json(below_role_min[:20]),
            "score_histogram": dg.MetadataValue.json(stats["score_histogram"]),
        },
    )
