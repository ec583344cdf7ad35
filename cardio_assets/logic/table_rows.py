"""TableRecords -> one RowRecord per recommendation row (pure logic, no Dagster).

Section-heading rows (one text spanning the table) are not recommendations: they become the
``section`` of the rows after them. Class and level columns are found by their header
label (footnote markers stripped), wherever they sit; a table without them keeps its rows
with class/level null and a warning, because a silently dropped table is worse.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from cardio_assets.exports import write_jsonl
from cardio_assets.logic.docling_tables import clean_text, is_section_row
from cardio_assets.records import RowRecord, TableRecord


@dataclass
class RowsResult:
    rows: list[RowRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


_CARET_MARKER = re.compile(r"\^(?:[a-z]|\*{1,3}|[†‡§¶#]|\d{1,2})(?=$|[\s,.;:)^])")


def strip_marker(label: str, markers: list[str]) -> str:
    """Drop footnote markers: 'Class^a' (superscript kept apart by docling_tables) always;
    a trailing 'Class a' / 'testing*' only for markers the table's footnotes define."""
    text = _CARET_MARKER.sub("", clean_text(label)).strip()
    for marker in sorted(markers, key=len, reverse=True):
        glued_ok = not marker.isalnum()  # 'Recommendations' must never lose its 's'
        if text.endswith(f" {marker}") or (glued_ok and text.endswith(marker)):
            stem = text[: -len(marker)].rstrip()
            if stem:
                return stem
    return text


def strip_inline_markers(text: str) -> str:
    """Row text without '^a' markers (the footnotes travel with the row anyway)."""
    return " ".join(_CARET_MARKER.sub("", text).split())


def _label_key(label: str) -> str:
    return re.sub(r"[^a-z0-9 ]+", "", label.lower()).strip()


def locate_column(header: list[str], labels: list[str]) -> int | None:
    wanted = {_label_key(label) for label in labels}
    for index, label in enumerate(header):
        if _label_key(label) in wanted:
            return index
    # a marker whose footnote Docling missed: 'Level b' still names the level column
    for index, label in enumerate(header):
        if _label_key(re.sub(r"\s*(?:[a-h]|[*†‡§])$", "", label)) in wanted:
            return index
    return None


def rows_from_table(
    table: TableRecord,
    *,
    guideline_title: str,
    class_labels: list[str],
    level_labels: list[str],
) -> RowsResult:
    result = RowsResult()
    header = [strip_marker(h, table.footnote_markers) for h in table.header]
    class_col = locate_column(header, class_labels)
    level_col = locate_column(header, level_labels)
    where = f"guideline '{table.guideline}', file {table.source_file}, table {table.table_id}"
    if class_col is None or level_col is None:
        missing = [
            name for name, col in (("class", class_col), ("level", level_col)) if col is None
        ]
        result.warnings.append(
            f"{where}: no {'/'.join(missing)} column in header {header!r}; "
            f"rows kept with {'/'.join(missing)} = null"
        )
    text_cols = [i for i in range(len(header)) if i not in (class_col, level_col)]
    section: str | None = None
    row_index = 0
    for cells in table.body:
        cells = [clean_text(c) for c in cells]
        if not any(cells):
            continue
        if is_section_row(cells):
            section = strip_marker(cells[0], table.footnote_markers)
            continue
        row_text = " | ".join(
            strip_inline_markers(cells[i]) for i in text_cols if i < len(cells) and cells[i]
        )
        if not row_text:
            result.warnings.append(
                f"{where}: row {row_index} has no recommendation text (cells {cells!r}); skipped"
            )
            continue
        result.rows.append(
            RowRecord(
                id=f"{table.guideline}:{table.table_id}:r{row_index}",
                guideline=table.guideline,
                guideline_title=guideline_title,
                table_id=table.table_id,
                table_title=table.caption,
                row_index=row_index,
                header=header,
                footnotes=table.footnotes,
                row_text=row_text,
                class_=_cell(cells, class_col),
                level=_cell(cells, level_col),
                section=section,
                pages=table.pages,
                source_file=table.source_file,
                source_sha256=table.source_sha256,
                cell_sha256=hashlib.sha256(
                    json.dumps(cells, ensure_ascii=False).encode("utf-8")
                ).hexdigest(),
            )
        )
        row_index += 1
    return result


def _cell(cells: list[str], col: int | None) -> str | None:
    if col is None or col >= len(cells):
        return None
    return cells[col] or None


def guideline_rows(
    tables: list[TableRecord],
    *,
    guideline_title: str,
    class_labels: list[str],
    level_labels: list[str],
) -> RowsResult:
    result = RowsResult()
    for table in tables:
        part = rows_from_table(
            table,
            guideline_title=guideline_title,
            class_labels=class_labels,
            level_labels=level_labels,
        )
        result.rows.extend(part.rows)
        result.warnings.extend(part.warnings)
    if not tables:
        result.warnings.append("no tables found: 0 rows")
    return result


ROW_JSON_KEYS = (
    "id",
    "guideline_title",
    "table_title",
    "header",
    "footnotes",
    "row_text",
    "class",
    "level",
    "section",
    "table_id",
    "row_index",
    "pages",
)


def row_json(row: RowRecord) -> dict:
    """The public one-line-per-row shape (``cardio rows`` and outputs/<guideline>/rows.jsonl)."""
    data = row.model_dump(mode="json", by_alias=True)
    return {key: data[key] for key in ROW_JSON_KEYS}


def write_rows_jsonl(rows: list[RowRecord], target) -> None:
    write_jsonl(target, (row_json(row) for row in rows))
