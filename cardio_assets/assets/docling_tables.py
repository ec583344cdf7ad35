"""Asset ``docling_tables``: the guideline's sources converted by Docling, one record per table.

Also writes each table as JSON to ``$CARDIO_HOME/outputs/<guideline>/tables/<table_id>.json``.
A broken source fails only its own partition, with the guideline and file in the message.
"""

import dagster as dg

from cardio_assets import paths
from cardio_assets.assets._batch import SINGLE_RUN, PartitionResult, emit, partition_keys
from cardio_assets.assets._code_versions import CODE_VERSION_READS, docling_tables_code_version
from cardio_assets.assets._metadata import markdown_preview
from cardio_assets.config import load_pipeline_settings
from cardio_assets.logic.sources import SourceError
from cardio_assets.partitions import (
    InvalidGuidelineEntryError,
    UnknownGuidelineError,
    guideline_partitions,
    resolve_guideline,
)
from cardio_assets.records import TableRecord
from resources.docling_converter import DoclingConverterResource


@dg.asset(
    partitions_def=guideline_partitions,
    group_name="ingestion",
    code_version=docling_tables_code_version(),
    metadata={
        "record_type": "TableRecord",
        "partition_expr": "guideline",
        CODE_VERSION_READS: "configs/pipeline.yaml (docling)",
    },
    kinds={"docling", "duckdb"},
    pool="docling",  # CPU-bound: one conversion at a time (dagster.yaml pools.default_limit)
    backfill_policy=SINGLE_RUN,
    check_specs=[
        dg.AssetCheckSpec(
            "tables_have_header_and_rows",
            asset="docling_tables",
            description="Every table has a header row and at least one body row.",
        )
    ],
)
def docling_tables(context: dg.AssetExecutionContext, docling: DoclingConverterResource):
    results = {key: _one_guideline(context, docling, key) for key in partition_keys(context)}
    yield from emit(context, results)


def _one_guideline(
    context: dg.AssetExecutionContext, docling: DoclingConverterResource, guideline: str
) -> PartitionResult:
    # Docling and docling-core load here, not with the definitions: the webserver, the
    # daemon and every run that has no docling_tables step start ~4 s sooner
    from cardio_assets.logic.guideline_tables import guideline_tables, write_table_json

    settings = load_pipeline_settings()
    try:
        entry = resolve_guideline(guideline)
        tables: list[TableRecord] = guideline_tables(
            guideline,
            entry.source_paths(),
            docling.convert,
            footnote_marker_pattern=settings.docling.footnote_marker_pattern,
            continuation_words=settings.docling.continuation_words,
            display_root=paths.PROJECT_ROOT,
            pdf_reader=settings.docling.pdf_reader,
            artifacts_path=docling.artifacts_path,
        )
    except (SourceError, UnknownGuidelineError, InvalidGuidelineEntryError) as exc:
        raise dg.Failure(description=str(exc)) from exc
    if not tables:
        context.log.warning(f"guideline '{guideline}': no tables found in {entry.sources}")
    out_dir = paths.guideline_output_dir(guideline) / "tables"
    written = write_table_json(tables, out_dir)
    bad = [t.table_id for t in tables if not t.header or not t.body]
    return PartitionResult(
        tables,
        metadata={
            "tables": len(tables),
            "body_rows": sum(len(t.body) for t in tables),
            "joined_pieces": sum(t.pieces - 1 for t in tables),
            "sources": dg.MetadataValue.json(entry.sources),
            "tables_dir": dg.MetadataValue.path(str(out_dir)),
            "table_files": len(written),
            "preview": markdown_preview(
                tables,
                {
                    "table": lambda t: t.table_id,
                    "caption": lambda t: t.caption,
                    "pages": lambda t: ",".join(map(str, t.pages)) or "?",
                    "pieces": lambda t: t.pieces,
                    "reader": lambda t: t.reader or "?",
                    "header": lambda t: " | ".join(t.header),
                    "body rows": lambda t: len(t.body),
                    "footnotes": lambda t: len(t.footnotes),
                },
            ),
        },
        checks=[
            dg.AssetCheckResult(
                check_name="tables_have_header_and_rows",
                passed=not bad,
                severity=dg.AssetCheckSeverity.WARN,
                metadata={
                    "tables": len(tables),
                    "without_header_or_rows": dg.MetadataValue.json(bad),
                },
            )
        ],
    )
