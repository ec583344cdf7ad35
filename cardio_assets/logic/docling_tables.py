"""Docling documents -> one TableRecord per recommendation table (pure logic, no Dagster).

What Docling gives (checked on real HTML / Markdown / DOCX / Docling JSON):
- superscripts inside cells come back glued to the label ("Classa") in HTML/DOCX, with the
  marker also present as a SUPER-script child text of the table; Markdown keeps the raw
  ``Class<sup>a</sup>`` and ``<br>`` in the cell text;
- ``TableData.grid`` repeats a spanned cell in every slot it covers (a colspan section row
  reads "X | X | X", a rowspan repeats the text downwards); PDF pieces can lose the span;
- footnotes below a table are usually plain paragraphs (often an inline group starting with
  a SUPER-script marker), rarely Docling ``footnote`` items;
- a table split by a page break is two table items.

So this module keeps the raw grid for audit (a cell only where it starts), forward-fills
cells that lost their span, collects footnotes explicitly, and joins continuation pieces
(the joining rule is table_pieces.py's).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from docling_core.types.doc import (
    DocItemLabel,
    DoclingDocument,
    GroupItem,
    GroupLabel,
    TableItem,
    TextItem,
)
from docling_core.types.doc.document import TableCell

from cardio_assets.logic.abbreviation_lists import (
    GLOSSARY_HEADING,
    abbreviation_definitions,
    glossary_definitions,
    used_in,
)
from cardio_assets.logic.markup import (
    MARKER_SHAPE,
    PROSE_PLACEHOLDER,
    clean_text,
    is_super,
    markdown_origin,
    render_superscript,
    spans_may_be_lost,
    sup_markers,
)
from cardio_assets.logic.table_pieces import (
    MAX_TITLE_CHARS,
    TablePiece,
    is_table_title,
    join_pieces,
    says_continued,
)
from cardio_assets.records import TableRecord

_FURNITURE = {DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER}
_TITLE_LABELS = {
    DocItemLabel.CAPTION,
    DocItemLabel.TEXT,
    DocItemLabel.PARAGRAPH,
    DocItemLabel.SECTION_HEADER,
    DocItemLabel.TITLE,
}

# --------------------------------------------------------------------------- linear blocks


@dataclass
class _Block:
    kind: str  # "table" | "text"
    text: str = ""
    label: DocItemLabel | None = None
    sup_start: bool = False  # first child is a SUPER-script marker
    bold: bool = False  # every piece of the paragraph is bold (a heading in converter output)
    table: TableItem | None = None

    @property
    def is_heading(self) -> bool:
        if self.kind != "text" or not self.text or _HEADER_LABEL_LINE.match(self.text):
            return False
        if self.label in (DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE):
            return True
        return self.bold and len(self.text) <= 200 and not self.text.endswith(".")


def _bold(item: object) -> bool:
    formatting = getattr(item, "formatting", None)
    return formatting is not None and bool(getattr(formatting, "bold", False))


def _linear_blocks(doc: DoclingDocument, inline_html: bool) -> list[_Block]:
    """Reading-order blocks: tables (not descended) and text paragraphs (inline groups joined)."""
    blocks: list[_Block] = []

    def visit(node) -> None:
        for ref in node.children:
            item = ref.resolve(doc)
            if isinstance(item, TableItem):
                blocks.append(_Block("table", table=item))
            elif isinstance(item, GroupItem) and item.label == GroupLabel.INLINE:
                parts = [c.resolve(doc) for c in item.children]
                texts = [p for p in parts if isinstance(p, TextItem)]
                if texts:
                    blocks.append(
                        _Block(
                            "text",
                            text=clean_text(
                                " ".join(t.text for t in texts), inline_html=inline_html
                            ),
                            label=DocItemLabel.TEXT,
                            sup_start=is_super(texts[0]),
                            bold=all(_bold(t) for t in texts if t.text.strip("[]^ ")),
                        )
                    )
            elif isinstance(item, TextItem):
                if item.label not in _FURNITURE:
                    blocks.append(
                        _Block(
                            "text",
                            text=clean_text(item.text, inline_html=inline_html),
                            label=item.label,
                            bold=_bold(item),
                        )
                    )
                visit(item)
            elif isinstance(item, GroupItem):
                visit(item)
            # pictures, forms, ...: nothing a recommendation table needs

    visit(doc.body)
    return blocks


# --------------------------------------------------------------------------- table pieces


def _table_markers(doc: DoclingDocument, table: TableItem, inline_html: bool) -> set[str]:
    markers: set[str] = set()
    stack = list(table.children)
    while stack:
        item = stack.pop().resolve(doc)
        if isinstance(item, TextItem) and is_super(item) and MARKER_SHAPE.match(item.text.strip()):
            markers.add(item.text.strip())
        stack.extend(getattr(item, "children", []))
    if inline_html:
        for cell in table.data.table_cells:
            markers |= sup_markers(cell.text)
    return markers


def _cell_text(doc: DoclingDocument, cell: TableCell) -> str:
    """Cell text with superscripts kept apart: Docling glues them ('Classa'), but a rich
    cell still has the SUPER-script child, so 'Class^a' can be rebuilt exactly."""
    ref = getattr(cell, "ref", None)
    if ref is None:
        return cell.text
    parts: list[str] = []
    stack = [ref]
    while stack:
        item = stack.pop(0).resolve(doc)
        if isinstance(item, TextItem):
            parts.append(render_superscript(item.text) if is_super(item) else item.text)
        stack[0:0] = list(getattr(item, "children", []))
    text = " ".join(p for p in parts if p.strip())
    # inline pieces lose their own spacing: no space before a marker or closing punctuation
    return re.sub(r"\s+(?=[\^.,;:)\]])", "", text) if parts else cell.text


def _piece_from_table(doc: DoclingDocument, table: TableItem, inline_html: bool) -> TablePiece:
    data = table.data
    n_rows, n_cols = data.num_rows, data.num_cols
    raw = [["" for _ in range(n_cols)] for _ in range(n_rows)]
    header_flags = [False] * n_rows
    grid = [["" for _ in range(n_cols)] for _ in range(n_rows)]
    for cell in data.table_cells:
        r, c = cell.start_row_offset_idx, cell.start_col_offset_idx
        text = _cell_text(doc, cell)
        if 0 <= r < n_rows and 0 <= c < n_cols:
            raw[r][c] = text
        for rr in range(max(r, 0), min(cell.end_row_offset_idx, n_rows)):
            for cc in range(max(c, 0), min(cell.end_col_offset_idx, n_cols)):
                grid[rr][cc] = clean_text(text, inline_html=inline_html, keep_breaks=True)
        if cell.column_header:
            for rr in range(cell.start_row_offset_idx, min(cell.end_row_offset_idx, n_rows)):
                header_flags[rr] = True
    header_rows = 0
    while header_rows < n_rows and header_flags[header_rows]:
        header_rows += 1
    header: list[str] = []
    if header_rows:
        for col in range(n_cols):
            labels: list[str] = []
            for row in grid[:header_rows]:
                if row[col] and row[col] not in labels:
                    labels.append(row[col])
            label = " ".join(" ".join(labels).split())
            header.append("" if _PLACEHOLDER_HEADER.match(label) else label)
    caption = clean_text(table.caption_text(doc), inline_html=inline_html) or None
    pages = sorted({p.page_no for p in table.prov})
    return TablePiece(
        header=header,
        header_cells=list(grid[0]) if header_rows else [],
        body=grid[header_rows:],
        raw=raw,
        header_rows=header_rows,
        pages=pages,
        caption=caption,
        caption_is_docling=caption is not None,
        markers=_table_markers(doc, table, inline_html),
    )


_MAX_FOOTNOTE_CHARS = 600
_SECTION_NUMBER = re.compile(r"^\s*\d+\.\d")  # "3.1.2 Assessment of ...": a heading


def _is_footnote(block: _Block, marker_re: re.Pattern[str]) -> bool:
    """A footnote of the table above: Docling says so, it opens with a superscript, or it
    opens with a marker; never a heading, a numbered section title or a long paragraph
    (converter output puts those right under tables too)."""
    if block.kind != "text" or not block.text:
        return False
    if block.label == DocItemLabel.FOOTNOTE or block.sup_start:
        return True
    if block.is_heading or block.label in (DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE):
        return False
    if len(block.text) > _MAX_FOOTNOTE_CHARS or _SECTION_NUMBER.match(block.text):
        return False
    return bool(marker_re.match(block.text))


_SPLIT_FOOTNOTES = re.compile(r"(?<=[.;])\s+(?=(?:[a-h]|\*{1,3}|[†‡§¶])\s+[A-Z])")
# "… LV, left ventricle. a Class … b Level …": converters
# run the abbreviation list and the footnotes under it into one paragraph
_NOTES_AFTER_LIST = re.compile(r"(?<=\.)\s+(?=a\s+[A-Z])")


def _list_then_notes(text: str) -> tuple[str, str]:
    """(abbreviation list, footnotes) of a paragraph that prints both, the list first."""
    found = _NOTES_AFTER_LIST.search(text)
    if found is None:
        return text, ""
    return text[: found.start()], text[found.end() :]


def _add_notes(piece: TablePiece, text: str) -> None:
    for note in _SPLIT_FOOTNOTES.split(text):
        if note and note not in piece.footnotes:
            piece.footnotes.append(note)


# "Col2", "Col3": a converter's name for a header cell it found empty
_PLACEHOLDER_HEADER = re.compile(r"^Col\d+$")
# "Recommendations Class a Level b": the column labels of a table whose header row is data
_HEADER_LABEL_LINE = re.compile(
    r"^\**\s*Recommendations?\b.{0,40}\bClass\b.{0,20}\bLevel\b", re.IGNORECASE
)
_PROSE_BREAK_CHARS = 300  # this much prose between two tables: the second is a new table


def _plausible_title(block: _Block) -> bool:
    """A line that can title the table under it when no "Table N" line does: a caption, a
    heading, or a short bold line; never a fragment of prose (converters cut paragraphs into
    lines, so a short plain line is usually one)."""
    if block.label not in _TITLE_LABELS or len(block.text) > MAX_TITLE_CHARS:
        return False
    if block.label in (DocItemLabel.CAPTION, DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE):
        return True
    return block.bold or _is_title(block)


def _is_title(block: _Block) -> bool:
    return block.kind == "text" and is_table_title(block.text)


def _furniture_key(text: str) -> str:
    return re.sub(r"\d+", "#", text.lower()).strip(" *_#")


def _page_furniture(blocks: list[_Block]) -> set[str]:
    """Short lines a converter repeats on many pages (running headers, page numbers,
    download notices): they say nothing about the tables between them."""
    counts = Counter(
        _furniture_key(b.text) for b in blocks if b.kind == "text" and 0 < len(b.text) <= 80
    )
    return {key for key, n in counts.items() if n >= 4 or not key}


def _pieces(
    doc: DoclingDocument,
    blocks: list[_Block],
    marker_pattern: str,
    inline_html: bool,
    continuation_words: list[str],
) -> list[TablePiece]:
    """Table pieces in reading order with their title, the heading above them and whether
    anything between them and the previous piece rules out a continuation."""
    marker_re = re.compile(marker_pattern)
    furniture = _page_furniture(blocks)
    pieces: list[TablePiece] = []
    heading: str | None = None
    title: list[str] = []  # "Table 5 ..." and the short lines that continue it
    title_candidate: str | None = None
    since_table: list[_Block] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        if block.kind == "text":
            if _furniture_key(block.text) in furniture:
                i += 1
                continue
            if block.text == PROSE_PLACEHOLDER:
                since_table.append(block)
                title, title_candidate = [], None
                i += 1
                continue
            since_table.append(block)
            document_heading = block.label in (DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE)
            if _is_title(block):
                title = [block.text]
            elif title and len(block.text) <= 120 and not document_heading:
                # a title printed over several short lines, bold ones included
                if not _HEADER_LABEL_LINE.match(block.text):
                    title.append(block.text)
            elif block.is_heading:
                heading = block.text  # a heading, never a table's own title
                title = []
            elif len(block.text) > 120:
                title = []
            if _plausible_title(block):
                title_candidate = block.text
            else:
                title_candidate = None
            i += 1
            continue
        assert block.table is not None
        piece = _piece_from_table(doc, block.table, inline_html)
        piece.heading = heading
        if piece.caption is None:
            if title:
                piece.caption = " ".join(title)
            elif title_candidate:
                piece.caption = title_candidate
        # a short line saying "continued" marks a continuation; any other line is text between
        marks = [
            says_continued(b.text, continuation_words) and len(b.text) <= 40 for b in since_table
        ]
        piece.says_continued = says_continued(piece.caption, continuation_words) or any(marks)
        piece.text_between = not all(marks)
        for b in since_table:
            if b.label in (DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE):
                piece.breaks.add("heading")
            elif _is_title(b):
                piece.breaks.add("title")
            elif b.is_heading and not says_continued(b.text, continuation_words):
                piece.breaks.add("subheading")
                piece.subheadings.append(b.text)
        prose = sum(
            len(b.text)
            for b in since_table
            if not _is_footnote(b, marker_re) and not b.is_heading and not _is_title(b)
        )
        if prose > _PROSE_BREAK_CHARS or any(b.text == PROSE_PLACEHOLDER for b in since_table):
            piece.breaks.add("prose")
        for ref in block.table.footnotes:
            note = ref.resolve(doc)
            if isinstance(note, TextItem) and note.text.strip():
                piece.footnotes.append(clean_text(note.text, inline_html=inline_html))
        i += 1
        abbreviation_text: list[str] = []  # a list wrapped over several paragraphs
        while i < len(blocks) and blocks[i].kind == "text":
            # under a table: its footnotes and its abbreviation list, in either order
            text = blocks[i].text
            listed, notes = _list_then_notes(text)
            if _is_footnote(blocks[i], marker_re):
                _add_notes(piece, text)
            elif abbreviation_definitions(listed) or (
                abbreviation_text and re.match(r"^[a-z][^;,]{0,80}[;.]", text)
            ):
                abbreviation_text.append(listed)
                _add_notes(piece, notes)
            elif _furniture_key(text) not in furniture:
                break
            i += 1
        piece.abbreviations = abbreviation_definitions(" ".join(abbreviation_text))
        for note in piece.footnotes:  # "d CABG = coronary artery bypass grafting; ..."
            body = marker_re.sub("", note, count=1).strip()
            for short, long in abbreviation_definitions(body).items():
                piece.abbreviations.setdefault(short, long)
        for note in piece.footnotes:
            match = marker_re.match(note)
            if match:
                piece.markers.add(match.group(0).strip())
        title, title_candidate, since_table = [], None, []
        pieces.append(piece)
    return pieces


def tables_from_document(
    doc: DoclingDocument,
    *,
    guideline: str,
    source_file: str,
    source_sha256: str,
    source_format: str,
    first_index: int = 0,
    footnote_marker_pattern: str,
    continuation_words: list[str],
) -> list[TableRecord]:
    """Join continuation pieces and number tables from ``first_index`` (table_000, ...).

    Each table's abbreviations are the list printed under it, then the entries of the
    guideline's own glossary its cells use."""
    blocks = _linear_blocks(doc, markdown_origin(doc, source_format))
    records = join_pieces(
        document_pieces(doc, source_format, footnote_marker_pattern, continuation_words, blocks),
        guideline=guideline,
        source_file=source_file,
        source_sha256=source_sha256,
        source_format=source_format,
        first_index=first_index,
        continuation_words=continuation_words,
        fill_spans=spans_may_be_lost(doc, source_format),
    )
    glossary = document_glossary(blocks)
    for record in records:
        cells = " ".join([*record.header, *(cell for row in record.body for cell in row)])
        for short, long in used_in(cells, glossary).items():
            record.abbreviations.setdefault(short, long)
    return records


def document_glossary(blocks: list[_Block]) -> dict[str, str]:
    """The guideline's own glossary: the paragraphs under its "Abbreviations and acronyms"
    heading, up to the next heading or table (a contents line, with its dot leaders and
    page number, is no such heading)."""
    paragraphs: list[str] = []
    inside = False
    for block in blocks:
        if block.kind == "text" and GLOSSARY_HEADING.match(block.text):
            inside = True
        elif inside and (block.kind != "text" or block.is_heading):
            inside = False
        elif inside:
            paragraphs.append(block.text)
    return glossary_definitions(paragraphs)


def document_pieces(
    doc: DoclingDocument,
    source_format: str,
    marker_pattern: str,
    continuation_words: list[str],
    blocks: list[_Block] | None = None,
) -> list[TablePiece]:
    """The non-empty table pieces of one document, in reading order, not yet joined
    (``blocks``: the document's reading-order blocks, when the caller has them already)."""
    inline_html = markdown_origin(doc, source_format)
    if blocks is None:
        blocks = _linear_blocks(doc, inline_html)
    pieces = _pieces(doc, blocks, marker_pattern, inline_html, continuation_words)
    return [p for p in pieces if p.header or p.body]
