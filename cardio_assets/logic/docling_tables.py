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
cells that lost their span, collects footnotes explicitly, and joins continuation pieces.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docling_core.types.doc import (
    DocItemLabel,
    DoclingDocument,
    GroupItem,
    GroupLabel,
    TableItem,
    TextItem,
)
from docling_core.types.doc.document import TableCell
from marko import patterns as marko_patterns
from pydantic import ValidationError

from cardio_assets.exports import write_json
from cardio_assets.files import private_dir
from cardio_assets.records import TableRecord

SUPPORTED_FORMATS: dict[str, str] = {
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".docx": "docx",
    ".json": "docling_json",
    ".pdf": "pdf",
}
_FURNITURE = {DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER}
_TITLE_LABELS = {
    DocItemLabel.CAPTION,
    DocItemLabel.TEXT,
    DocItemLabel.PARAGRAPH,
    DocItemLabel.SECTION_HEADER,
    DocItemLabel.TITLE,
}
_MAX_TITLE_CHARS = 300


class SourceError(ValueError):
    """A guideline source cannot be turned into tables; the message names guideline and file."""


# --------------------------------------------------------------------------- input checks


def source_format(path: Path, guideline: str) -> str:
    fmt = SUPPORTED_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise SourceError(
            f"guideline '{guideline}': file {path}: unsupported extension '{path.suffix}' "
            f"(supported: {', '.join(sorted(SUPPORTED_FORMATS))})"
        )
    return fmt


DOCX_MAIN_PART = "word/document.xml"


def docx_container_problem(data: bytes) -> str | None:
    """Why a ZIP file named .docx is not a Word document (None when it is one).

    Any ZIP passes the magic-number test (an .xlsx, a zipped folder), and Docling then fails
    deep inside with a message that names neither the file nor the cause.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError):
        return "is not a readable DOCX file (damaged or truncated ZIP container)"
    if DOCX_MAIN_PART not in names:
        return f"is a ZIP archive but not a Word document (no {DOCX_MAIN_PART})"
    return None


def check_source(path: Path, guideline: str) -> tuple[str, bytes]:
    """Fail early and clearly on missing, unreadable, empty or mislabelled files."""
    fmt = source_format(path, guideline)
    where = f"guideline '{guideline}': file {path}"
    if not path.exists():
        raise SourceError(
            f"{where}: does not exist (check the path; registered guidelines list theirs in configs/guidelines.yaml)"
        )
    if not path.is_file():
        raise SourceError(f"{where}: is not a regular file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{where}: cannot be read ({exc.strerror or exc})") from exc
    if not data.strip():
        raise SourceError(f"{where}: is empty")
    head = data[:2048].lstrip()
    mismatch = None
    if fmt == "docx" and not data.startswith(b"PK\x03\x04"):
        mismatch = "is not a DOCX file (no ZIP container)"
    elif fmt == "docx":
        mismatch = docx_container_problem(data)
    elif fmt == "pdf" and not data.startswith(b"%PDF"):
        mismatch = "is not a PDF file (no %PDF header)"
    elif fmt in ("html", "md", "docling_json"):
        if b"\x00" in data[:4096] or data.startswith((b"PK\x03\x04", b"%PDF")):
            mismatch = f"is binary, not {fmt.replace('_', ' ')} text"
        elif fmt == "html" and b"<" not in head:
            mismatch = "is not HTML (no markup found)"
        elif fmt == "docling_json" and not head.startswith(b"{"):
            mismatch = "is not a JSON object (expected a Docling JSON export)"
    if mismatch:
        fix = "; save the guideline from Word as .docx" if fmt == "docx" else ""
        raise SourceError(f"{where}: {mismatch}; its extension says {path.suffix}{fix}")
    return fmt, data


def load_docling_json(path: Path, guideline: str) -> DoclingDocument:
    """Load a DoclingDocument JSON export (what ``DoclingDocument.save_as_json`` writes)."""
    where = f"guideline '{guideline}': file {path}"
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"{where}: malformed Docling JSON: {exc}") from exc
    if not isinstance(payload, dict) or payload.get("schema_name") != "DoclingDocument":
        raise SourceError(
            f"{where}: malformed Docling JSON: top-level 'schema_name' must be 'DoclingDocument'"
        )
    try:
        return DoclingDocument.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        raise SourceError(
            f"{where}: malformed Docling JSON at key '{key}': {first['msg']} "
            f"({exc.error_count()} problem(s))"
        ) from None


# --------------------------------------------------------------------------- text helpers

# What reaches us as cell text, checked per format: Docling's HTML backend has parsed the
# markup and unescaped the entities (a literal "<35%" arrives as "<35%", a <br> as "\n"); DOCX
# and PDF carry no markup at all. Only Docling's Markdown backend passes raw inline HTML
# through ("Class<sup>a</sup>", "<br>") -- after unescaping "&lt;" and "\<" to the same "<".
# So markup is removed only where it can be (Markdown-origin text), by the Markdown parser's
# own tag grammar, and only for HTML element names; any other "<" or ">" is text. Before a
# Markdown file reaches Docling, its escaped brackets are swapped for two private-use
# characters (``protect_escaped_brackets``) so that an escaped "\<b\>" stays text too.
LITERAL_LT, LITERAL_GT = "\ue000", "\ue001"
_ESCAPED_LT = re.compile(r"(?<!\\)\\<|&lt;|&#0*60;|&#[xX]0*3[cC];")
_ESCAPED_GT = re.compile(r"(?<!\\)\\>|&gt;|&#0*62;|&#[xX]0*3[eE];")
_INLINE_TAG = re.compile(
    "<(/?)(" + marko_patterns.tag_name + ")((?:" + marko_patterns.attribute + ")*) */?>"
)
_HTML_ELEMENTS = frozenset(
    "a abbr b big br cite code del dfn div em font i img ins kbd mark p q s samp small span "
    "strike strong sub sup tt u var wbr".split()
)
_LINE_BREAK_ELEMENTS = frozenset({"br", "p", "div"})

_MARKER_SHAPE = re.compile(r"^(?:[a-z]|\*{1,3}|[†‡§¶#])$")
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789+-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")


def protect_escaped_brackets(markdown: str) -> str:
    """Markdown source with escaped angle brackets ("\\<", "&lt;", ...) as private-use
    characters, so they survive conversion as text that no tag grammar can match.
    A source already holding those characters is left as it is."""
    if LITERAL_LT in markdown or LITERAL_GT in markdown:
        return markdown
    return _ESCAPED_GT.sub(LITERAL_GT, _ESCAPED_LT.sub(LITERAL_LT, markdown))


def render_superscript(text: str) -> str:
    """A footnote marker becomes '^a' (unambiguous to strip later); '2' in 'm2' becomes '²'."""
    text = text.strip()
    if _MARKER_SHAPE.match(text):
        return f"^{text}"
    if re.fullmatch(r"[0-9+-]+", text):
        return text.translate(_SUPERSCRIPT_DIGITS)
    return text


def _inline_html_parts(text: str) -> list[tuple[str, str]]:
    """("text", chunk) / ("sup", content) / ("break", "") parts of Markdown-origin text."""
    parts: list[tuple[str, str]] = []
    sup: list[str] | None = None
    position = 0
    for match in _INLINE_TAG.finditer(text):
        closing, name = match.group(1) == "/", match.group(2).lower()
        if name not in _HTML_ELEMENTS:
            continue  # "<age and BMI >30" is not markup any reader would drop
        chunk = text[position : match.start()]
        position = match.end()
        if sup is not None:
            sup.append(chunk)
        elif chunk:
            parts.append(("text", chunk))
        if name == "sup":
            if closing and sup is not None:
                parts.append(("sup", "".join(sup)))
                sup = None
            elif not closing and sup is None:
                sup = []
        elif name in _LINE_BREAK_ELEMENTS:
            parts.append(("break", ""))
    rest = text[position:]
    if sup is not None:  # an unclosed <sup>: keep its text
        parts.append(("text", "".join(sup) + rest))
    elif rest:
        parts.append(("text", rest))
    return parts


def clean_text(text: str, *, inline_html: bool = False) -> str:
    """Cell/paragraph text as one line, whitespace collapsed (a line break is a space).

    ``inline_html``: the text comes from Markdown and may hold raw inline HTML; its tags are
    removed as markup (``<sup>a</sup>`` becomes the marker ``^a``). Every other character,
    "<" and ">" included, is kept."""
    text = text or ""
    if inline_html:
        pieces = []
        for kind, value in _inline_html_parts(text):
            if kind == "text":
                pieces.append(value)
            elif kind == "sup":
                pieces.append(render_superscript(value))
            else:
                pieces.append(" ")
        text = "".join(pieces)
    text = text.replace(LITERAL_LT, "<").replace(LITERAL_GT, ">")
    return " ".join(text.split())


def markdown_origin(doc: DoclingDocument, source_format: str) -> bool:
    """Whether the document's text can hold raw inline HTML (Markdown, or its Docling JSON)."""
    if source_format == "md":
        return True
    mimetype = getattr(getattr(doc, "origin", None), "mimetype", None) or ""
    return source_format == "docling_json" and "markdown" in mimetype


def _is_super(item: object) -> bool:
    formatting = getattr(item, "formatting", None)
    return formatting is not None and getattr(formatting.script, "value", "") == "super"


def _sup_markers(text: str) -> set[str]:
    return {
        value.strip()
        for kind, value in _inline_html_parts(text or "")
        if kind == "sup" and _MARKER_SHAPE.match(value.strip())
    }


def is_section_row(cells: list[str]) -> bool:
    """A heading row spanning the table: one text repeated over all columns, or only the first
    cell filled (how Markdown writes it). Needs at least two columns to tell."""
    if len(cells) < 2:
        return False
    filled = [c for c in cells if c.strip()]
    if not filled:
        return False
    if len(set(filled)) == 1 and len(filled) == len(cells):
        return True
    return bool(cells[0].strip()) and all(not c.strip() for c in cells[1:])


# --------------------------------------------------------------------------- linear blocks


@dataclass
class _Block:
    kind: str  # "table" | "text"
    text: str = ""
    label: DocItemLabel | None = None
    sup_start: bool = False  # first child is a SUPER-script marker
    table: TableItem | None = None


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
                            sup_start=_is_super(texts[0]),
                        )
                    )
            elif isinstance(item, TextItem):
                if item.label not in _FURNITURE:
                    blocks.append(
                        _Block(
                            "text",
                            text=clean_text(item.text, inline_html=inline_html),
                            label=item.label,
                        )
                    )
                visit(item)
            elif isinstance(item, GroupItem):
                visit(item)
            # pictures, forms, ...: nothing a recommendation table needs

    visit(doc.body)
    return blocks


# --------------------------------------------------------------------------- table pieces


@dataclass
class TablePiece:
    """One Docling table item with what surrounds it."""

    header: list[str]
    body: list[list[str]]  # span-expanded grid rows (cleaned text)
    raw: list[list[str]]  # header+body, a cell's text only where it starts (audit)
    header_rows: int
    pages: list[int]
    caption: str | None
    caption_is_docling: bool
    footnotes: list[str] = field(default_factory=list)
    markers: set[str] = field(default_factory=set)

    @property
    def num_cols(self) -> int:
        return len(self.header) if self.header else (len(self.body[0]) if self.body else 0)


def _table_markers(doc: DoclingDocument, table: TableItem, inline_html: bool) -> set[str]:
    markers: set[str] = set()
    stack = list(table.children)
    while stack:
        item = stack.pop().resolve(doc)
        if (
            isinstance(item, TextItem)
            and _is_super(item)
            and _MARKER_SHAPE.match(item.text.strip())
        ):
            markers.add(item.text.strip())
        stack.extend(getattr(item, "children", []))
    if inline_html:
        for cell in table.data.table_cells:
            markers |= _sup_markers(cell.text)
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
            parts.append(render_superscript(item.text) if _is_super(item) else item.text)
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
                grid[rr][cc] = clean_text(text, inline_html=inline_html)
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
            header.append(" ".join(labels))
    caption = clean_text(table.caption_text(doc), inline_html=inline_html) or None
    pages = sorted({p.page_no for p in table.prov})
    return TablePiece(
        header=header,
        body=grid[header_rows:],
        raw=raw,
        header_rows=header_rows,
        pages=pages,
        caption=caption,
        caption_is_docling=caption is not None,
        markers=_table_markers(doc, table, inline_html),
    )


def _is_footnote(block: _Block, marker_re: re.Pattern[str]) -> bool:
    if block.kind != "text" or not block.text:
        return False
    if block.label == DocItemLabel.FOOTNOTE or block.sup_start:
        return True
    return bool(marker_re.match(block.text))


_SPLIT_FOOTNOTES = re.compile(r"(?<=[.;])\s+(?=(?:[a-h]|\*{1,3}|[†‡§¶])\s+[A-Z])")


def _pieces(doc: DoclingDocument, marker_pattern: str, inline_html: bool) -> list[TablePiece]:
    marker_re = re.compile(marker_pattern)
    blocks = _linear_blocks(doc, inline_html)
    pieces: list[TablePiece] = []
    title_candidate: str | None = None
    i = 0
    while i < len(blocks):
        block = blocks[i]
        if block.kind == "text":
            if block.label in _TITLE_LABELS and len(block.text) <= _MAX_TITLE_CHARS:
                title_candidate = block.text
            else:
                title_candidate = None
            i += 1
            continue
        assert block.table is not None
        piece = _piece_from_table(doc, block.table, inline_html)
        if piece.caption is None and title_candidate:
            piece.caption = title_candidate
        for ref in block.table.footnotes:
            note = ref.resolve(doc)
            if isinstance(note, TextItem) and note.text.strip():
                piece.footnotes.append(clean_text(note.text, inline_html=inline_html))
        i += 1
        while i < len(blocks) and _is_footnote(blocks[i], marker_re):
            for note in _SPLIT_FOOTNOTES.split(blocks[i].text):
                if note and note not in piece.footnotes:
                    piece.footnotes.append(note)
            i += 1
        for note in piece.footnotes:
            match = marker_re.match(note)
            if match:
                piece.markers.add(match.group(0).strip())
        title_candidate = None
        pieces.append(piece)
    return pieces


# --------------------------------------------------------------------------- joining


def _normalized_header(labels: list[str], words: list[str]) -> tuple[str, ...]:
    out = []
    for label in labels:
        text = label.lower()
        for word in words:
            text = text.replace(word.lower(), "")
        out.append(re.sub(r"[^a-z0-9]+", "", text))
    return tuple(out)


def _says_continued(caption: str | None, words: list[str]) -> bool:
    text = (caption or "").lower()
    return any(word.lower() in text for word in words)


def _continues(prev: TablePiece, piece: TablePiece, words: list[str]) -> bool:
    """Does ``piece`` continue ``prev``? Same width, and either a title saying "continued", or
    a repeated (or missing) header with no title of its own, on the same or the next page."""
    if prev.num_cols != piece.num_cols or not piece.body:
        return False
    if prev.pages and piece.pages and piece.pages[0] not in (prev.pages[-1], prev.pages[-1] + 1):
        return False
    if _says_continued(piece.caption, words) or any(
        _says_continued(h, words) for h in piece.header
    ):
        return True
    if piece.caption:
        return False
    if not piece.header:
        return True
    return _normalized_header(prev.header, words) == _normalized_header(piece.header, words)


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
    """Join continuation pieces and number tables from ``first_index`` (table_000, ...)."""
    groups: list[list[TablePiece]] = []
    for piece in _pieces(doc, footnote_marker_pattern, markdown_origin(doc, source_format)):
        if not piece.header and not piece.body:
            continue
        if groups and _continues(groups[-1][-1], piece, continuation_words):
            groups[-1].append(piece)
        else:
            groups.append([piece])
    records = []
    for offset, group in enumerate(groups):
        first = group[0]
        header = first.header
        body: list[list[str]] = []
        if not header and first.body:  # no header flagged anywhere: first row is the header
            header, first_body = first.body[0], first.body[1:]
        else:
            first_body = first.body
        body.extend(first_body)
        footnotes: list[str] = []
        markers: set[str] = set()
        raw: list[list[str]] = []
        pages: set[int] = set()
        for piece in group:
            if piece is not first:
                rows = piece.body
                # a continuation whose repeated header was not flagged as such
                if rows and _normalized_header(rows[0], continuation_words) == _normalized_header(
                    header, continuation_words
                ):
                    rows = rows[1:]
                body.extend(rows)
            raw.extend(piece.raw)
            pages.update(piece.pages)
            markers |= piece.markers
            footnotes.extend(f for f in piece.footnotes if f not in footnotes)
        records.append(
            TableRecord(
                guideline=guideline,
                table_id=f"table_{first_index + offset:03d}",
                source_file=source_file,
                source_sha256=source_sha256,
                source_format=source_format,
                pages=sorted(pages),
                caption=first.caption,
                header=header,
                body=_forward_fill(body),
                footnotes=footnotes,
                footnote_markers=sorted(markers),
                pieces=len(group),
                raw_grid=raw,
            )
        )
    return records


# --------------------------------------------------------------------------- whole guideline

Converter = Callable[[Path], DoclingDocument]


def guideline_tables(
    guideline: str,
    sources: list[Path],
    convert: Converter,
    *,
    footnote_marker_pattern: str,
    continuation_words: list[str],
    display_root: Path | None = None,
) -> list[TableRecord]:
    """All tables of one guideline's sources, numbered across sources in the listed order.

    ``convert`` turns an HTML/Markdown/DOCX/PDF path into a DoclingDocument (the Docling
    resource); Docling JSON is loaded here with docling-core."""
    records: list[TableRecord] = []
    for path in sources:
        fmt, data = check_source(path, guideline)
        if fmt == "docling_json":
            doc = load_docling_json(path, guideline)
        else:
            try:
                doc = convert(path)
            except SourceError:
                raise
            except Exception as exc:  # Docling raises many types; name the file either way
                raise SourceError(
                    f"guideline '{guideline}': file {path}: Docling could not convert it "
                    f"as {fmt}: {exc}"
                ) from exc
        shown = path
        if display_root is not None:
            try:
                shown = path.resolve().relative_to(display_root.resolve())
            except ValueError:
                shown = path
        records.extend(
            tables_from_document(
                doc,
                guideline=guideline,
                source_file=str(shown),
                source_sha256=hashlib.sha256(data).hexdigest(),
                source_format=fmt,
                first_index=len(records),
                footnote_marker_pattern=footnote_marker_pattern,
                continuation_words=continuation_words,
            )
        )
    return records


def write_table_json(records: list[TableRecord], out_dir: Path) -> list[Path]:
    """One JSON file per table (<table_id>.json); stale files of this guideline are removed."""
    private_dir(out_dir)
    for old in out_dir.glob("table_*.json"):
        old.unlink()
    written = []
    for record in records:
        target = out_dir / f"{record.table_id}.json"
        write_json(target, record.model_dump(mode="json", by_alias=True))
        written.append(target)
    return written
