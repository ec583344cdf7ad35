"""``cardio rows DOCUMENT --out rows.jsonl``: check a document before registering it.

Runs the same conversion and row logic as the docling_tables and table_rows assets (same
settings from configs/pipeline.yaml), without Dagster, and writes one JSON line per row.
"""

from __future__ import annotations

from pathlib import Path

import click

from cardio_assets.config import ConfigError, load_pipeline_settings
from cardio_assets.files import refuse_input_as_output
from cardio_assets.logic.guideline_tables import guideline_tables
from cardio_assets.logic.sources import SourceError
from cardio_assets.logic.table_rows import RowsResult, guideline_rows, write_rows_jsonl
from cardio_assets.partitions import inbox_guideline_id
from resources.docling_converter import DoclingConverterResource


def document_rows(
    document: Path, title: str | None = None, pdf_reader: str | None = None
) -> tuple[list, RowsResult]:
    """Tables and rows of one document, exactly as the docling_tables and table_rows assets
    make them (raises SourceError / ConfigError); ``pdf_reader`` overrides
    docling.pdf_reader (benchmarks compare the readers)."""
    settings = load_pipeline_settings()
    guideline = inbox_guideline_id(document)
    tables = guideline_tables(
        guideline,
        [document],
        DoclingConverterResource(artifacts_path=settings.docling.artifacts_path).convert,
        footnote_marker_pattern=settings.docling.footnote_marker_pattern,
        continuation_words=settings.docling.continuation_words,
        pdf_reader=pdf_reader or settings.docling.pdf_reader,
        artifacts_path=settings.docling.artifacts_path,
    )
    result = guideline_rows(
        tables,
        guideline_title=title or document.stem,
        class_labels=settings.rows.class_labels,
        level_labels=settings.rows.level_labels,
    )
    return tables, result


@click.command("rows")
@click.argument("document", type=click.Path(path_type=Path))
@click.option("--title", help="Guideline title for the rows (default: the file stem).")
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSONL file to write, one recommendation row per line.",
)
@click.option(
    "--all-tables",
    is_flag=True,
    help="Also write the rows of tables that are not recommendation tables (drug doses, "
    "definitions, 'what is new'), each with its table kind, for inspection. They never "
    "reach the pipeline.",
)
def rows_command(document: Path, title: str | None, out: Path, all_tables: bool) -> None:
    """Convert DOCUMENT (HTML, Markdown, DOCX, Docling JSON, PDF) into recommendation rows."""
    refuse_input_as_output(out, [document])
    try:
        tables, result = document_rows(document, title)
    except (SourceError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from exc
    for warning in result.warnings:
        click.echo(f"warning: {document}: {warning}", err=True)
    kinds = {t.table_id: t.kind for t in result.tables}
    if all_tables:
        write_rows_jsonl(result.rows, out, table_kinds=kinds, extra=result.other_rows)
    else:
        write_rows_jsonl(result.rows, out)
    joined = sum(t.pieces - 1 for t in tables)
    recommendation_tables = result.count("recommendations")
    click.echo(
        f"{len(result.rows)} rows from {recommendation_tables} recommendation table(s) of "
        f"{len(tables)}"
        + (f" ({joined} continuation piece(s) joined)" if joined else "")
        + (f", {result.duplicates} printed twice merged" if result.duplicates else "")
        + (f", {len(result.other_rows)} rows of other tables" if all_tables else "")
        + f" -> {out}"
    )
    for report in result.tables:
        if report.kind != "recommendations":
            click.echo(
                f"  {report.table_id} ({report.title or 'untitled'}): {report.kind}: {report.reason}"
            )
