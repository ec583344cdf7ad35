"""Table pieces and the rule that joins them (pure logic, no Dagster).

A converter cuts one recommendation table into several pieces: at a page break, around a
section row it took out of the table, or printing the table's top after its bottom. This
module decides which consecutive pieces are one table and joins them into TableRecords;
docling_tables.py reads the pieces out of a Docling document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardio_assets.logic.markup import is_section_row
from cardio_assets.logic.table_shapes import (
    TableShape,
    collapse_duplicate_columns,
    grade_signature,
    table_shape,
)
from cardio_assets.records import TableRecord

MAX_TITLE_CHARS = 300
TABLE_TITLE = re.compile(
    r"^(?:(?:Recommendation\s+)?Table\s+[0-9IVX]+[A-Za-z]?\b|Recommendations?\s+(?:for|on|in|regarding|about)\b)",
    re.IGNORECASE,
)


def is_table_title(text: str) -> bool:
    """A line that names a table ("Recommendation Table 5 — …", "Recommendations for …")."""
    return len(text) <= MAX_TITLE_CHARS and bool(TABLE_TITLE.match(text))


@dataclass
class TablePiece:
    """One Docling table item with what surrounds it."""

    header: list[str]
    body: list[list[str]]  # span-expanded grid rows (cleaned text, line breaks kept)
    raw: list[list[str]]  # header+body, a cell's text only where it starts (audit)
    header_rows: int
    pages: list[int]
    caption: str | None
    caption_is_docling: bool
    header_cells: list[str] = field(default_factory=list)  # first header row, breaks kept
    heading: str | None = None  # nearest section heading above the table
    says_continued: bool = False  # its title or a line just above says "continued"
    # what came between it and the previous table: "heading" (a document heading),
    # "title" (a table title line), "subheading" (a bold line, often a section row the
    # converter took out of the table), "prose"
    breaks: set[str] = field(default_factory=set)
    subheadings: list[str] = field(default_factory=list)  # bold lines between, in order
    # any line at all between it and the previous piece, a "continued" mark and page
    # furniture aside (footnotes and abbreviation lists are read with the piece above)
    text_between: bool = False
    footnotes: list[str] = field(default_factory=list)
    markers: set[str] = field(default_factory=set)
    abbreviations: dict[str, str] = field(default_factory=dict)  # the list under the table

    @property
    def num_cols(self) -> int:
        return len(self.header) if self.header else (len(self.body[0]) if self.body else 0)


# --------------------------------------------------------------------------- joining


def normalized_header(labels: list[str], words: list[str]) -> tuple[str, ...]:
    out = []
    for label in labels:
        text = label.lower()
        for word in words:
            text = text.replace(word.lower(), "")
        out.append(re.sub(r"[^a-z0-9]+", "", text))
    return tuple(out)


def says_continued(caption: str | None, words: list[str]) -> bool:
    text = (caption or "").lower()
    return any(word.lower() in text for word in words)


@dataclass
class _Grid:
    """A piece after duplicate columns are collapsed, with its shape."""

    header: list[str]
    body: list[list[str]]
    shape: TableShape


def piece_grid(piece: TablePiece) -> _Grid:
    width = max([piece.num_cols, *(len(r) for r in piece.body)], default=0)
    header_cells = piece.header_cells or piece.header
    rows = [list(header_cells) + [""] * (width - len(header_cells))] if header_cells else []
    collapsed, keep = collapse_duplicate_columns([*rows, *piece.body])
    header = [piece.header[j] if j < len(piece.header) else "" for j in keep]
    body = collapsed[1:] if header_cells else collapsed
    shape = table_shape(header, body, sorted(piece.markers), piece.caption or "")
    if shape.header_is_data:
        body = [collapsed[0], *body]
    return _Grid(header=header, body=body, shape=shape)


def _graded(shape: TableShape) -> bool:
    return shape.kind in ("recommendations", "what_is_new")


def _continues(
    prev: TablePiece,
    prev_grid: _Grid,
    piece: TablePiece,
    grid: _Grid,
    words: list[str],
    *,
    header_seen: bool,
) -> bool:
    """Does ``piece`` continue ``prev``? Same columns, on the same or the next page, and
    either a "continued" mark, or nothing between them that starts a new table: no
    document heading and no prose; bold lines only (a converter writes a table's section
    rows as bold lines between pieces; a table title line too, for a "What is new" table
    whose sections are titled like tables); and a repeated, missing or data-row header.
    ``header_seen``: the table ``prev`` belongs to already has a real header row."""
    if len(prev_grid.header) != len(grid.header) or not piece.body:
        return False
    if _graded(prev_grid.shape) != _graded(grid.shape):
        return False  # a recommendation table never continues into rows without grades
    if prev.pages and piece.pages and piece.pages[0] not in (prev.pages[-1], prev.pages[-1] + 1):
        return False
    if piece.says_continued:
        return True
    if piece.breaks & {"heading", "prose"}:
        return False
    same_columns = _graded(grid.shape) and grade_signature(prev_grid.shape) == grade_signature(
        grid.shape
    )
    if "title" in piece.breaks and not (
        same_columns and "what_is_new" in (prev_grid.shape.kind, grid.shape.kind)
    ):
        return False
    if "subheading" in piece.breaks and not same_columns:
        return False
    if same_columns:
        return (
            grid.shape.header_is_data
            or _top_after_bottom_or_titled(prev, prev_grid, piece, grid, header_seen)
            or normalized_header(prev_grid.header, words) == normalized_header(grid.header, words)
        )
    if piece.caption and piece.caption_is_docling:
        return False
    if piece.caption and is_table_title(piece.caption):
        return False
    if not piece.header:
        return True
    return normalized_header(prev.header, words) == normalized_header(piece.header, words)


def _top_after_bottom_or_titled(
    prev: TablePiece, prev_grid: _Grid, piece: TablePiece, grid: _Grid, header_seen: bool
) -> bool:
    """With nothing at all printed between two pieces of the same columns (no line, no
    footnote or abbreviation list under the first): a table whose header row was a
    recommendation, and no real header yet, then a piece under the table's own header (the
    converter printed the top after the bottom); or a piece whose header row is one title
    over its rows, a section of the table. Never when that header names a table of its
    own ("Recommendations for …", "New recommendations")."""
    if piece.text_between or prev.footnotes or prev.abbreviations:
        return False
    titled = is_section_row(grid.header)
    first = grid.header[0] if grid.header else ""
    if is_table_title(first) or (titled and re.search(r"recommendation", first, re.I)):
        return False
    return titled or (prev_grid.shape.header_is_data and not header_seen)


def _forward_fill(body: list[list[str]]) -> list[list[str]]:
    """Fill cells that lost their row span from the row above (never across a section row)."""
    filled: list[list[str]] = []
    previous: list[str] | None = None
    for row in body:
        row = list(row)
        if is_section_row(row) or not any(c.strip() for c in row):
            previous = None
        else:
            if previous is not None:
                row = [c if c.strip() else previous[j] for j, c in enumerate(row)]
            previous = row
        filled.append(row)
    return filled


def _header_labels(shape: TableShape, width: int) -> list[str]:
    """Column labels for a table whose header row was a recommendation."""
    labels = [""] * width
    for group in shape.groups:
        for j in group.text:
            labels[j] = "Recommendations"
        labels[group.klass] = "Class" if group.level is not None else "Class and level"
        if group.level is not None:
            labels[group.level] = "Level"
    return labels


def join_pieces(
    pieces: list[TablePiece],
    *,
    guideline: str,
    source_file: str,
    source_sha256: str,
    source_format: str,
    first_index: int = 0,
    continuation_words: list[str],
    fill_spans: bool,
) -> list[TableRecord]:
    """Pieces that continue each other become one table, numbered from ``first_index``;
    duplicate columns collapsed, a recommendation in the header row made the first row."""
    groups: list[list[tuple[TablePiece, _Grid]]] = []
    for piece in pieces:
        grid = piece_grid(piece)
        if groups and _continues(
            *groups[-1][-1],
            piece,
            grid,
            continuation_words,
            header_seen=any(not g.shape.header_is_data for _, g in groups[-1]),
        ):
            groups[-1].append((piece, grid))
        else:
            groups.append([(piece, grid)])
    records = []
    for offset, group in enumerate(groups):
        first, first_grid = group[0]
        header = first_grid.header
        lead_rows: list[list[str]] = []
        if first_grid.shape.header_is_data:
            header = _header_labels(first_grid.shape, len(header))
        elif _graded(first_grid.shape) and len(header) > 1 and is_section_row(header):
            # a header row holding one title over the table ("Primary PCI in STEMI | | "):
            # a section of the rows under it, not column labels
            lead_rows = [[header[0]] * len(header)]
            header = _header_labels(first_grid.shape, len(header))
        body: list[list[str]] = list(lead_rows)
        footnotes: list[str] = []
        markers: set[str] = set()
        abbreviations: dict[str, str] = {}
        raw: list[list[str]] = []
        pages: set[int] = set()
        for piece, grid in group:
            rows = grid.body
            if piece is not first and rows and not grid.shape.header_is_data:
                # a repeated header row that was not flagged as such
                if normalized_header(rows[0], continuation_words) == normalized_header(
                    header, continuation_words
                ):
                    rows = rows[1:]
            if piece is first and not header and rows:  # no header anywhere: first row is it
                header, rows = [" ".join(c.split()) for c in rows[0]], rows[1:]
            if piece is not first:
                # bold lines between the pieces were the table's section rows, and so is
                # a later piece's header row holding one title over its rows
                titled = (
                    [[grid.header[0]] * len(header)]
                    if not grid.shape.header_is_data
                    and len(grid.header) > 1
                    and is_section_row(grid.header)
                    else []
                )
                rows = [[line] * len(header) for line in piece.subheadings] + titled + rows
            body.extend(rows)
            raw.extend(piece.raw)
            pages.update(piece.pages)
            markers |= piece.markers
            footnotes.extend(f for f in piece.footnotes if f not in footnotes)
            for short, long in piece.abbreviations.items():
                abbreviations.setdefault(short, long)
        records.append(
            TableRecord(
                guideline=guideline,
                table_id=f"table_{first_index + offset:03d}",
                source_file=source_file,
                source_sha256=source_sha256,
                source_format=source_format,
                pages=sorted(pages),
                caption=first.caption,
                heading=first.heading,
                header=header,
                body=_forward_fill(body) if fill_spans else body,
                footnotes=footnotes,
                footnote_markers=sorted(markers),
                abbreviations=abbreviations,
                pieces=len(group),
                raw_grid=raw,
            )
        )
    return records
