"""Asset ``merged_concepts``: both passes of each row merged into one concept set
(dedupe by normalized term + role, population conditions once, actions from MAIN, OR
phrases split into one OR group, abbreviations expanded): cardio_assets/logic/merged_concepts.py."""

import dagster as dg

from cardio_assets.assets._code_versions import CODE_VERSION_READS, merged_concepts_code_version
from cardio_assets.assets._metadata import markdown_preview, role_counts
from cardio_assets.config import load_abbreviations
from cardio_assets.logic import extraction_runs as runs
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import RowExtraction


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="extraction",
    code_version=merged_concepts_code_version(),
    metadata={
        "record_type": "MergedRow",
        "partition_expr": "guideline",
        CODE_VERSION_READS: "configs/abbreviations.txt, the merge logic",
    },
    kinds={"duckdb"},
    check_specs=[
        dg.AssetCheckSpec(
            "rows_with_concepts",
            asset="merged_concepts",
            description="Every row has at least one concept (warns on rows left empty).",
        )
    ],
)
def merged_concepts(
    context: dg.AssetExecutionContext,
    main_extractions: list[RowExtraction],
    population_extractions: list[RowExtraction],
):
    merged = runs.merge_extractions(
        None, main_extractions, population_extractions, load_abbreviations()
    )
    concepts = [c for m in merged for c in m.concepts]
    empty = [m.row_id for m in merged if not m.concepts]
    yield dg.Output(
        merged,
        metadata={
            "rows": len(merged),
            "concepts": len(concepts),
            "actions": sum(len(m.actions) for m in merged),
            "or_groups": len(
                {(m.row_id, c.or_group) for m in merged for c in m.concepts if c.or_group}
            ),
            "population_concepts": sum(1 for c in concepts if c.is_population),
            "negated": sum(1 for c in concepts if c.negated),
            "rows_with_errors": sum(1 for m in merged if m.errors),
            "roles": dg.MetadataValue.json(role_counts(c.role for c in concepts)),
            "preview": markdown_preview(
                merged,
                {
                    "row": lambda m: m.row_id,
                    "concepts": lambda m: "; ".join(
                        c.normalized
                        + (f" {c.operator} {c.threshold}{c.unit or ''}" if c.operator else "")
                        + (f" [{c.or_group}]" if c.or_group else "")
                        + (" (neg)" if c.negated else "")
                        for c in m.concepts
                    ),
                    "actions": lambda m: "; ".join(
                        f"{a.normalized or a.text} {a.class_ or ''}/{a.level or ''}"
                        for a in m.actions
                    ),
                },
                width=160,
            ),
        },
    )
    yield dg.AssetCheckResult(
        check_name="rows_with_concepts",
        passed=not empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={"empty_rows": len(empty), "first": dg.MetadataValue.json(empty[:10])},
    )
