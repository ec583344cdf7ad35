"""Asset ``neo4j_graph``: the guideline's rules as a subgraph of the configured Neo4j.

Thin wrapper around cardio_assets.logic.neo4j_graph (versioned, isolated per guideline,
failure-safe loads). The graph lives in Neo4j, not in the IO manager: the asset reports a
MaterializeResult with counts, timings and where to look.
"""

from collections.abc import Iterator

import dagster as dg

from cardio_assets.assets._code_versions import CODE_VERSION_READS, stage_code_version
from cardio_assets.assets._metadata import markdown_preview
from cardio_assets.config import load_pipeline_settings
from cardio_assets.logic.neo4j_graph import (
    DEFAULT_BATCH_SIZE,
    NODE_LABELS,
    REL_TYPES,
    SCHEMA_STATEMENTS,
    GraphShrinkRefused,
    graph_counts,
    load_guideline,
)
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import ExtractedRule
from resources.neo4j_resource import Neo4jResource

STAGE_VERSION = "1"


class GraphLoadConfig(dg.Config):
    """Run config of neo4j_graph."""

    # Replace the loaded version even when the new one holds fewer than graph.min_rule_share
    # of its rules (configs/pipeline.yaml): say so explicitly for a guideline that shrank.
    allow_shrink: bool = False


GRAPH_MAPPING = {
    "labels": sorted(NODE_LABELS),
    "relationships": sorted(REL_TYPES),
    "schema": list(SCHEMA_STATEMENTS),
}

EXAMPLE_QUERY = (
    "MATCH (g:Guideline {id: $guideline})\n"
    "MATCH (r:Recommendation {load_id: g.current_load_id})-[:DERIVED_FROM]->(row:SourceRow)\n"
    "OPTIONAL MATCH (d:Decision)-[:LEADS_TO*1..]->(r)\n"
    "OPTIONAL MATCH (d)-[e:CHECKS_FOR|EVALUATES]->(c:Concept)\n"
    "RETURN r.class, r.text, collect(DISTINCT c.name) AS conditions, row.pages LIMIT 10"
)


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="graph",
    code_version=stage_code_version(STAGE_VERSION, GRAPH_MAPPING, load_pipeline_settings().graph),
    kinds={"neo4j"},
    metadata={
        CODE_VERSION_READS: "the graph mapping (labels, relationship types), "
        "configs/pipeline.yaml (graph)"
    },
    description="Idempotent per-guideline load of extracted_rules into Neo4j.",
    check_specs=[
        dg.AssetCheckSpec(
            "graph_counts_match_rules",
            asset="neo4j_graph",
            description="One Recommendation per loaded rule; relationships in Neo4j equal "
            "those written; every input rule either loaded or skipped with a reason.",
        )
    ],
)
def neo4j_graph(
    context: dg.AssetExecutionContext,
    config: GraphLoadConfig,
    neo4j: Neo4jResource,
    extracted_rules: list[ExtractedRule],
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    guideline = context.partition_key
    title = next(
        (r.provenance.guideline_title for r in extracted_rules if r.provenance.guideline_title),
        None,
    )
    settings = neo4j.settings()
    context.log.info(
        f"loading {len(extracted_rules)} rules of {guideline} into {settings.describe()}"
    )

    def progress(step: str, done: int, total: int) -> None:
        context.log.info(f"written {done} of {total} {step}")

    min_share = None if config.allow_shrink else load_pipeline_settings().graph.min_rule_share
    with neo4j.driver() as driver:
        try:
            result = load_guideline(
                driver,
                guideline,
                extracted_rules,
                guideline_title=title,
                load_run_id=context.run.run_id,
                database=settings.database,
                batch_size=DEFAULT_BATCH_SIZE,
                on_progress=progress,
                min_rule_share=min_share,
                on_lock_wait=context.log.info,  # another load of this guideline is running
            )
        except GraphShrinkRefused as exc:
            raise dg.Failure(description=str(exc)) from exc
        counts = graph_counts(driver, guideline, database=settings.database)

    for rule_id, reason in result.rules_skipped:
        context.log.warning(f"rule {rule_id} skipped: {reason}")
    if result.cleanup_error:
        context.log.warning(result.cleanup_error)
    if result.lock_taken_over:
        context.log.warning(
            f"took over the load lock of load {result.lock_taken_over}, whose process had "
            "stopped renewing it; any partial copy it left was removed"
        )
    rel_total = sum(counts["relationships"].values())
    rate = result.relationships_written / result.write_seconds if result.write_seconds else 0.0
    yield dg.MaterializeResult(
        metadata={
            "neo4j": settings.describe(),
            "load_id": result.load_id,
            "previous_load_id": result.previous_load_id or "",
            "rules_loaded": result.rules_loaded,
            "rules_skipped": len(result.rules_skipped),
            "skipped": markdown_preview(
                result.rules_skipped, {"rule": lambda s: s[0], "reason": lambda s: s[1]}
            ),
            "nodes": dg.MetadataValue.json(counts["nodes"]),
            "relationships": dg.MetadataValue.json(counts["relationships"]),
            "relationships_total": rel_total,
            "seconds": dg.MetadataValue.json(result.phases),
            "relationships_per_s": round(rate, 1),
            "example_query": dg.MetadataValue.md(f"```cypher\n{EXAMPLE_QUERY}\n```"),
        }
    )
    recommendations = counts["nodes"].get("Recommendation", 0)
    accounted = result.rules_loaded + len(result.rules_skipped) == len(extracted_rules)
    yield dg.AssetCheckResult(
        check_name="graph_counts_match_rules",
        passed=(
            recommendations == result.rules_loaded
            and rel_total == result.relationships_written
            and accounted
        ),
        metadata={
            "rules_in": len(extracted_rules),
            "rules_loaded": result.rules_loaded,
            "recommendations_in_graph": recommendations,
            "relationships_written": result.relationships_written,
            "relationships_in_graph": rel_total,
        },
    )
