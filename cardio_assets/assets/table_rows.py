"""Asset ``table_rows``: one record per recommendation row, with header, section, footnotes,
class and level. Also written to ``$CARDIO_HOME/outputs/<guideline>/rows.jsonl`` in the same
shape as ``cardio rows``."""

from collections import Counter

import dagster as dg

from cardio_assets import paths
from cardio_assets.assets._batch import (
    EAGER,
    SINGLE_RUN,
    PartitionResult,
    emit,
    partition_keys,
)
from cardio_assets.assets._code_versions import CODE_VERSION_READS, table_rows_code_version
from cardio_assets.assets._metadata import markdown_preview, warnings_metadata
from cardio_assets.config import load_pipeline_settings, load_registry
from cardio_assets.logic.partition_batches import group_by_guideline
from cardio_assets.logic.table_rows import guideline_rows, write_rows_jsonl
from cardio_assets.partitions import guideline_partitions, resolve_guideline
from cardio_assets.records import TableRecord


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="rows",
    code_version=table_rows_code_version(),
    metadata={
        "record_type": "RowRecord",
        "partition_expr": "guideline",
        CODE_VERSION_READS: "configs/pipeline.yaml (rows)",
    },
    kinds={"duckdb"},
    backfill_policy=SINGLE_RUN,
    automation_condition=EAGER,
    check_specs=[
        dg.AssetCheckSpec(
            "rows_found",
            asset="table_rows",
            description="At least one recommendation row. Blocking: a document without "
            "recommendation tables stops the run here, so it never replaces a loaded graph.",
            blocking=True,
        ),
        dg.AssetCheckSpec(
            "expected_rows_per_table",
            asset="table_rows",
            description="Row count per table equals expected_rows in configs/guidelines.yaml.",
        ),
        dg.AssetCheckSpec(
            "class_and_level_found",
            asset="table_rows",
            description="Every row has a class and a level (warns on tables without them).",
        ),
    ],
)
def table_rows(context: dg.AssetExecutionContext, docling_tables: list[TableRecord]):
    keys = partition_keys(context)
    tables = group_by_guideline(keys, docling_tables)
    yield from emit(context, {key: _one_guideline(context, key, tables[key]) for key in keys})


def _one_guideline(
    context: dg.AssetExecutionContext, guideline: str, docling_tables: list[TableRecord]
) -> PartitionResult:
    settings = load_pipeline_settings()
    entry = resolve_guideline(guideline)
    result = guideline_rows(
        docling_tables,
        guideline_title=entry.title,
        class_labels=settings.rows.class_labels,
        level_labels=settings.rows.level_labels,
    )
    for warning in result.warnings:
        context.log.warning(f"guideline '{guideline}': {warning}")
    rows = result.rows
    jsonl = paths.guideline_output_dir(guideline) / "rows.jsonl"
    write_rows_jsonl(rows, jsonl)
    per_table = Counter(r.table_id for r in rows)
    metadata = {
        "rows": len(rows),
        "tables": len(docling_tables),
        "rows_per_table": dg.MetadataValue.json(dict(per_table)),
        "sections": len({(r.table_id, r.section) for r in rows if r.section}),
        "recommendation_tables": result.count("recommendations"),
        "what_is_new_tables": result.count("what_is_new"),
        "other_tables": len(result.tables) - result.count("recommendations"),
        "duplicate_rows_merged": result.duplicates,
        "table_kinds": dg.MetadataValue.json(
            [
                {"table": t.table_id, "title": t.title, "kind": t.kind, "reason": t.reason}
                for t in result.tables
            ]
        ),
        "warnings": warnings_metadata(result.warnings),
        "rows_jsonl": dg.MetadataValue.path(str(jsonl)),
        "preview": markdown_preview(
            rows,
            {
                "id": lambda r: r.id,
                "section": lambda r: r.section,
                "row": lambda r: r.row_text,
                "class": lambda r: r.class_,
                "level": lambda r: r.level,
                "pages": lambda r: ",".join(map(str, r.pages)) or "?",
            },
        ),
    }
    checks = [
        dg.AssetCheckResult(
            check_name="rows_found",
            passed=bool(rows),
            severity=dg.AssetCheckSeverity.ERROR,
            description=None if rows else f"guideline '{guideline}': no recommendation rows found",
            metadata={"rows": len(rows), "tables": len(docling_tables)},
        )
    ]
    registered = load_registry().get(guideline)
    expected = registered.expected_rows if registered else {}
    mismatches = {
        table_id: {"expected": count, "found": per_table.get(table_id, 0)}
        for table_id, count in expected.items()
        if per_table.get(table_id, 0) != count
    }
    checks.append(
        dg.AssetCheckResult(
            check_name="expected_rows_per_table",
            passed=not mismatches,
            metadata={
                "expected": dg.MetadataValue.json(expected),
                "found": dg.MetadataValue.json(dict(per_table)),
                "mismatches": dg.MetadataValue.json(mismatches),
                "checked_tables": len(expected),
            },
        )
    )
    missing = [r.id for r in rows if not r.class_ or not r.level]
    checks.append(
        dg.AssetCheckResult(
            check_name="class_and_level_found",
            passed=not missing,
            severity=dg.AssetCheckSeverity.WARN,
            metadata={
                "rows_without_class_or_level": len(missing),
                "first": dg.MetadataValue.json(missing[:10]),
            },
        )
    )
    return PartitionResult(rows, metadata, checks)
