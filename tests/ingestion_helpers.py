"""How the ingestion tests read a fixture document: as the docling_tables and table_rows
assets read it (real Docling, the pipeline's own settings)."""

from __future__ import annotations

from pathlib import Path

from cardio_assets.config import load_pipeline_settings
from cardio_assets.logic.guideline_tables import guideline_tables
from cardio_assets.logic.table_rows import RowsResult, guideline_rows
from resources.docling_converter import convert_path

SETTINGS = load_pipeline_settings()


def tables_and_rows(
    guideline: str, source: Path, title: str = "Fixture"
) -> tuple[list, RowsResult]:
    """The tables and recommendation rows of one fixture document."""
    tables = guideline_tables(
        guideline,
        [source],
        convert_path,
        footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
        continuation_words=SETTINGS.docling.continuation_words,
    )
    return tables, guideline_rows(
        tables,
        guideline_title=title,
        class_labels=SETTINGS.rows.class_labels,
        level_labels=SETTINGS.rows.level_labels,
    )
