"""Asset ``extracted_rules``: one logic-preserving rule per recommendation row
(cardio_assets/logic/extracted_rules.py), kept in DuckDB and exported as
``$CARDIO_HOME/outputs/<guideline>/extracted_rules.jsonl`` (one line per rule, valid for
schemas/extracted_rule.schema.json). The Neo4j loader reads these rules.
"""

from typing import Any

import dagster as dg

from cardio_assets import paths
from cardio_assets.assets._batch import (
    EAGER,
    SINGLE_RUN,
    PartitionResult,
    emit,
    partition_keys,
)
from cardio_assets.assets._code_versions import CODE_VERSION_READS, extracted_rules_code_version
from cardio_assets.assets._metadata import markdown_preview, warnings_metadata
from cardio_assets.config import config_hash, load_pipeline_settings
from cardio_assets.exports import write_jsonl
from cardio_assets.logic.extracted_rules import build_rules, rule_outline
from cardio_assets.logic.partition_batches import group_by_guideline
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import (
    GroundingOutcome,
    MergedRow,
    RowExtraction,
    RowRecord,
)


def pipeline_config_hash(context: dg.AssetExecutionContext) -> str:
    """Hash of the code versions (each one hashing exactly its stage's config) of this asset
    and everything upstream of it: the configuration that produced a rule, in one value."""
    graph = context.job_def.asset_layer.asset_graph  # set under materialize() and in runs
    return graph_config_hash(graph, context.asset_key)


def graph_config_hash(graph: Any, key: dg.AssetKey) -> str:
    """The config hash of ``key`` in ``graph`` (``cardio build`` records the same value:
    assets/_code_versions.py ``pipeline_code_versions``, compared by tests/test_build_load.py)."""
    seen: dict[str, str | None] = {}
    todo = [key]
    while todo:
        key = todo.pop()
        if key.to_user_string() in seen or not graph.has(key):
            continue
        node = graph.get(key)
        seen[key.to_user_string()] = node.code_version
        todo.extend(node.parent_keys)
    return config_hash(dict(sorted(seen.items())))


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="rules",
    code_version=extracted_rules_code_version(),
    metadata={
        "record_type": "ExtractedRule",
        "partition_expr": "guideline",
        CODE_VERSION_READS: (
            "the rule builder, extracted-rule schema version, configs/pipeline.yaml (rules)"
        ),
    },
    kinds={"duckdb", "json"},
    backfill_policy=SINGLE_RUN,
    automation_condition=EAGER,
    check_specs=[
        dg.AssetCheckSpec(
            "rules_have_actions",
            asset="extracted_rules",
            description="Every rule recommends (or recommends against) at least one action "
            "(warns otherwise). Blocking when fewer than rules.min_action_share of the rules "
            "have one (configs/pipeline.yaml): extraction lost the recommendations.",
            blocking=True,
        )
    ],
)
def extracted_rules(
    context: dg.AssetExecutionContext,
    table_rows: list[RowRecord],
    merged_concepts: list[MergedRow],
    grounding_index: list[GroundingOutcome],
    main_extractions: list[RowExtraction],
    population_extractions: list[RowExtraction],
):
    keys = partition_keys(context)
    inputs = [
        group_by_guideline(keys, records)
        for records in (
            table_rows,
            merged_concepts,
            grounding_index,
            main_extractions,
            population_extractions,
        )
    ]
    config = pipeline_config_hash(context)
    yield from emit(
        context,
        {key: _one_guideline(context, key, config, *(i[key] for i in inputs)) for key in keys},
    )


def _one_guideline(
    context: dg.AssetExecutionContext,
    guideline: str,
    config: str,
    table_rows: list[RowRecord],
    merged_concepts: list[MergedRow],
    grounding_index: list[GroundingOutcome],
    main_extractions: list[RowExtraction],
    population_extractions: list[RowExtraction],
) -> PartitionResult:
    build = build_rules(
        table_rows,
        merged_concepts,
        grounding_index,
        [*main_extractions, *population_extractions],
        config_hash=config,
        run_id=context.run.run_id,
    )
    for dropped in build.dropped[:20]:
        context.log.info(f"row {dropped.row_id} gave no rule: {dropped.reason}")
    target = paths.guideline_output_dir(guideline) / "extracted_rules.jsonl"
    write_jsonl(target, (rule.model_dump_json(by_alias=True) for rule in build.rules))
    counts = build.counts()
    uses = counts["concept_uses"]
    metadata = {
        **{key: value for key, value in counts.items()},
        "rows": len(table_rows),
        "mapped_share_of_concept_uses": round(counts["concept_uses_mapped"] / uses, 4)
        if uses
        else 0.0,
        "dropped_by_reason": dg.MetadataValue.json(build.dropped_by_reason()),
        "dropped_rows": markdown_preview(
            build.dropped,
            {"row": lambda d: d.row_id, "reason": lambda d: d.reason},
            limit=20,
            width=160,
        ),
        "builder_notes": warnings_metadata(build.notes[:30]),
        "extracted_rules_jsonl": dg.MetadataValue.path(str(target)),
        "preview": markdown_preview(
            build.rules,
            {
                "rule": lambda r: r.id,
                "class/level": lambda r: f"{r.class_ or '?'}/{r.level or '?'}",
                "logic": rule_outline,
            },
            limit=15,
            width=220,
        ),
    }
    without = [r.id for r in build.rules if not r.actions]
    min_share = load_pipeline_settings().rules.min_action_share
    with_actions = (len(build.rules) - len(without)) / len(build.rules) if build.rules else 0.0
    blocked = with_actions < min_share
    check = dg.AssetCheckResult(
        check_name="rules_have_actions",
        passed=not without and bool(build.rules),
        severity=dg.AssetCheckSeverity.ERROR if blocked else dg.AssetCheckSeverity.WARN,
        description=f"only {with_actions:.0%} of {len(build.rules)} rules have an action "
        f"(< rules.min_action_share {min_share:.0%})"
        if blocked
        else None,
        metadata={
            "share_with_actions": round(with_actions, 4),
            "min_action_share": min_share,
            "rules": len(build.rules),
            "rules_without_action": len(without),
            "first": dg.MetadataValue.json(without[:20]),
        },
    )
    return PartitionResult(build.rules, metadata, [check])
