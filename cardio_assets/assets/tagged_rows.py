"""Asset ``tagged_rows``: the MAIN and POPULATION texts of every row, exactly as the
extraction passes receive them (format in docs/ARCHITECTURE.md / cardio_assets.logic.tagged_rows).
Also written to ``$CARDIO_HOME/outputs/<guideline>/tagged_rows.jsonl``."""

import dagster as dg

from cardio_assets import paths
from cardio_assets.assets._batch import (
    EAGER,
    SINGLE_RUN,
    PartitionResult,
    emit,
    partition_keys,
)
from cardio_assets.assets._code_versions import CODE_VERSION_READS, tagged_rows_code_version
from cardio_assets.exports import write_jsonl
from cardio_assets.logic.partition_batches import group_by_guideline
from cardio_assets.logic.tagged_rows import tag_rows
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import RowRecord


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="rows",
    code_version=tagged_rows_code_version(),
    metadata={
        "record_type": "TaggedRow",
        "partition_expr": "guideline",
        CODE_VERSION_READS: "the tag format",
    },
    kinds={"duckdb"},
    backfill_policy=SINGLE_RUN,
    automation_condition=EAGER,
    check_specs=[
        dg.AssetCheckSpec(
            "both_passes_tagged",
            asset="tagged_rows",
            description="Every row has exactly one MAIN and one POPULATION text.",
        )
    ],
)
def tagged_rows(context: dg.AssetExecutionContext, table_rows: list[RowRecord]):
    keys = partition_keys(context)
    rows = group_by_guideline(keys, table_rows)
    yield from emit(context, {key: _one_guideline(key, rows[key]) for key in keys})


def _one_guideline(guideline: str, table_rows: list[RowRecord]) -> PartitionResult:
    tagged = tag_rows(table_rows)
    target = paths.guideline_output_dir(guideline) / "tagged_rows.jsonl"
    write_jsonl(target, (item.model_dump(mode="json") for item in tagged))
    example = next((t.text for t in tagged if t.focus == "MAIN"), "")
    per_row: dict[str, set[str]] = {}
    for item in tagged:
        per_row.setdefault(item.row_id, set()).add(item.focus)
    incomplete = [r.id for r in table_rows if per_row.get(r.id) != {"MAIN", "POPULATION"}]
    return PartitionResult(
        tagged,
        metadata={
            "tagged_rows": len(tagged),
            "rows": len(table_rows),
            "tagged_jsonl": dg.MetadataValue.path(str(target)),
            "first_main_text": dg.MetadataValue.md(
                f"```\n{example}\n```" if example else "_no rows_"
            ),
        },
        checks=[
            dg.AssetCheckResult(
                check_name="both_passes_tagged",
                passed=not incomplete and len(tagged) == 2 * len(table_rows),
                metadata={
                    "rows": len(table_rows),
                    "tagged": len(tagged),
                    "incomplete": len(incomplete),
                },
            )
        ],
    )
