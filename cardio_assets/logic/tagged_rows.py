"""RowRecords -> the exact texts the MAIN and POPULATION extraction passes receive.

The format (docs/ARCHITECTURE.md, "Records") is one ``KEY: value`` line each, class and level appended to ROW
as ``' | IIb | B'`` so an extractor sees them beside the text. Both passes get the same
context; only FOCUS differs. Empty fields keep their line so every prompt has one shape.
"""

from __future__ import annotations

from cardio_assets.records import Focus, RowRecord, TaggedRow

FOCUSES: tuple[Focus, ...] = ("MAIN", "POPULATION")
TAG_FORMAT_VERSION = "1"


def _line(key: str, value: str | None) -> str:
    return f"{key}: {value}" if value else f"{key}:"


def row_line(row: RowRecord) -> str:
    text = row.text_for_extraction()  # glued footnote letters removed: the footnotes follow
    if row.class_ or row.level:
        text += f" | {row.class_ or ''} | {row.level or ''}".rstrip()
    return text


def tag_text(row: RowRecord, focus: Focus) -> str:
    return "\n".join(
        [
            _line("GUIDELINE", row.guideline_title),
            _line("SOURCE_TYPE", "table"),
            _line("FOCUS", focus),
            _line("HEADER", " | ".join(row.header)),
            _line("SECTION", row.section),
            _line("FOOTNOTES", " ".join(row.footnotes)),
            _line("ROW", row_line(row)),
        ]
    )


def tag_rows(rows: list[RowRecord]) -> list[TaggedRow]:
    """Two TaggedRows per row, MAIN first."""
    return [
        TaggedRow(row_id=row.id, guideline=row.guideline, focus=focus, text=tag_text(row, focus))
        for row in rows
        for focus in FOCUSES
    ]
