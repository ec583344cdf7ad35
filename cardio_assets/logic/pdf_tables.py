"""Recommendation tables of a PDF rebuilt from its text layer (pure logic, no model weights).

The reader hands the same TableRecords as Docling's converters (header, body grid of cell
texts with "\\n" line breaks, footnotes, markers, pages, caption, heading) to the same row
building as every other format (cardio_assets/logic/table_rows.py), plus where each body
row is printed (``row_boxes``) and ``reader = "text-layer"``.

How rows are rebuilt (cardio_assets/logic/pdf_layout.py finds the tables and columns):

- a row ends where its class/level pair is printed: publishers write a table cell by cell,
  so in the page's content stream a row's text lines come before its grades; text lines
  printed after one grade and before the next belong to the next row;
- several grades printed one after another with no text between them share the text
  before them: it is cut between them by position (each grade sits level with its own
  lines, usually a bullet); a stem above the first bullet ("In patients with X:") is its
  own row, which table_rows then carries onto each bullet;
- bold lines opening a row's text (the table's label face) are section rows; a stream
  order that puts grades before their text is detected and rows are then cut by position;
- the table ends at its footnotes (lines in a smaller face under it), at a "continued"
  line, at the next table or at the page's end; a piece without footnotes is open and the
  next column or page may continue it, with or without a repeated header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from cardio_assets.logic.pdf_layout import (
    Layout,
    Region,
    continuation_layout,
    find_headers,
    is_heading,
    layout_from_header,
)
from cardio_assets.logic.pdf_readers import NoTextLayerError
from cardio_assets.logic.pdf_rows import (
    GradeLine,
    Row,
    RowBuilder,
    box,
    grade_lines,
    joined,
    says_continued,
    split_columns,
    text_size,
)
from cardio_assets.logic.pdf_text import (
    Line,
    Page,
    Word,
    group_lines,
    is_bold,
    page_furniture,
    read_pages,
)
from cardio_assets.logic.row_text import Vocabulary
from cardio_assets.records import PageBox, TableRecord

READER = "text-layer"


@dataclass
class _Piece:
    """One table piece on one page (a region of a page, or of one of its columns)."""

    region: Region
    header: list[str]
    rows: list[Row] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    markers: set[str] = field(default_factory=set)
    open: bool = False  # no footnotes under it: the next column or page may continue it
    caption: str | None = None
    key: tuple = ()


@dataclass
class _Doc:
    """Per-page lines and words without running headers/footers, and document facts."""

    pages: list[Page]
    words: dict[int, list[Word]]
    lines: dict[int, list[Line]]
    label_fonts: set[str]
    vocabulary: Vocabulary
    regions: dict[int, list[Region]] = field(default_factory=dict)  # tables with a header


# --------------------------------------------------------------------------- document


def _document(path: Path) -> _Doc:
    pages = read_pages(path)
    lines = {p.number: group_lines(p.words, p.number) for p in pages}
    furniture = page_furniture(pages, lines)
    clean_lines: dict[int, list[Line]] = {}
    clean_words: dict[int, list[Word]] = {}
    for page in pages:
        kept = [ln for i, ln in enumerate(lines[page.number]) if (page.number, i) not in furniture]
        clean_lines[page.number] = kept
        clean_words[page.number] = [w for ln in kept for w in ln.words]
    label_fonts: set[str] = set()
    for page in pages:
        for _baseline, class_word in find_headers(page, clean_words[page.number]):
            label_fonts.add(class_word.font)
    vocabulary = Vocabulary.from_texts(ln.text for lns in clean_lines.values() for ln in lns)
    return _Doc(pages, clean_words, clean_lines, label_fonts, vocabulary)


def _bold(line: Line, doc: _Doc) -> bool:
    return is_bold(line.font, doc.label_fonts)


# --------------------------------------------------------------------------- regions


def _caption_lines(doc: _Doc, page: int, layout: Layout, header_top: float) -> list[Line]:
    """Bold lines right above the header, inside the table's width: its title."""
    above = [
        ln
        for ln in doc.lines[page]
        if ln.b <= header_top + 0.5
        and ln.l >= layout.left - 12
        and ln.r <= layout.right + 12
        and ln.l < layout.grade_left
    ]
    above.sort(key=lambda ln: -ln.b)
    picked: list[Line] = []
    edge = header_top
    for line in above:
        limit = (3.5 if not picked else 0.9) * line.size
        if edge - line.b > limit:
            if picked or edge - line.b > limit:
                break
        if not _bold(line, doc) or is_heading(line, True):
            break
        if picked and abs(line.b - picked[-1].b) < 0.3 * line.size:
            picked.append(line)  # a title cut into two pieces on one baseline
            continue
        picked.append(line)
        edge = line.t
        if len(picked) >= 6:
            break
    return sorted(picked, key=lambda ln: (ln.t, ln.l))


def _joined(lines: list[Line], doc: _Doc) -> str:
    return joined(lines, doc.vocabulary)


def _header_regions(doc: _Doc, page: Page) -> list[Region]:
    words = doc.words[page.number]
    regions: list[Region] = []
    for baseline, class_word in find_headers(page, words):
        layout, top, bottom, labels = layout_from_header(baseline, class_word, words, page.width)
        captions = _caption_lines(doc, page.number, layout, top)
        regions.append(
            Region(
                page=page.number,
                layout=layout,
                top=bottom + 0.5,
                bottom=page.height,
                header_top=top,
                header=labels,
                caption_lines=captions,
            )
        )
    for region in regions:
        starts = [
            min([o.header_top or o.top, *(c.t for c in o.caption_lines)])
            for o in regions
            if o is not region
            and (o.header_top or 0) > (region.header_top or 0)
            and o.layout.left < region.layout.right
            and o.layout.right > region.layout.left
        ]
        if starts:
            region.bottom = min(starts)
    return regions


# --------------------------------------------------------------------------- one piece


def _read_piece(doc: _Doc, region: Region, continuation_words: list[str]) -> _Piece:
    layout = region.layout
    page = region.page
    words = [
        w
        for w in doc.words[page]
        if layout.left - 2 <= w.cx <= layout.right + 2
        and w.t >= region.top - 0.5
        and w.b <= region.bottom + 0.5
    ]
    piece = _Piece(region=region, header=region.header)
    text_words, grade_words = split_columns(words, layout)
    text_lines = group_lines(text_words, page)
    grades = grade_lines(grade_words, layout)
    if not grades:
        return piece
    first_grade = min(g.t for g in grades)
    row_lines = [ln for ln in text_lines if ln.t < first_grade + 2 * ln.size]
    size = text_size(row_lines[:12]) or text_size(text_lines)
    # the table ends at its footnotes (a smaller face) or at a "continued" line
    end = region.bottom
    for line in text_lines:
        if line.t <= first_grade:
            continue
        if says_continued(line, continuation_words):
            end = min(end, line.t)
            piece.open = True
            break
        if line.size < 0.93 * size and not _bold(line, doc):
            end = min(end, line.t)
            break
    grades = [g for g in grades if g.b <= end + 0.5]
    body = [ln for ln in text_lines if ln.b <= end + 0.5]
    last_order = max(g.order for g in grades)
    last_bottom = max(g.b for g in grades)
    events: list[tuple[int, Line | GradeLine]] = [
        (ln.order, ln) for ln in body if ln.order < last_order or ln.t < last_bottom
    ]
    trailing = [ln for ln in body if not (ln.order < last_order or ln.t < last_bottom)]
    events += [(g.order, g) for g in grades]
    events.sort(key=lambda e: e[0])
    width = 1 + len(layout.columns)
    face = _main_face(body)
    builder = RowBuilder(doc.vocabulary, page, width, face)
    pending: list[Line] = []
    i = 0
    while i < len(events):
        item = events[i][1]
        if isinstance(item, Line):
            pending.append(item)
            i += 1
            continue
        run = [item]
        i += 1
        while i < len(events) and isinstance(events[i][1], GradeLine):
            run.append(events[i][1])
            i += 1
        builder.add(pending, run)
        pending = []
    if builder.misplaced > max(1, len(grades) // 5):
        # the stream does not print rows cell by cell: cut the rows by position alone
        builder = RowBuilder(doc.vocabulary, page, width, face)
        lines = [ln for _, ln in events if isinstance(ln, Line)]
        builder.add(lines, sorted(grades, key=lambda g: g.cy))
    builder.trailing(pending + trailing)
    piece.rows = builder.rows
    # a footnote's raised marker starts above the line it opens
    under = group_lines([w for w in words if w.b > end + 0.5], page)
    rows_bottom = max((b.b for row in piece.rows for b in row.boxes if b.page == page), default=end)
    piece.footnotes, leading = _footnotes(doc, under, end, rows_bottom, size, continuation_words)
    piece.markers = (
        leading
        | {
            w.text
            for ln in text_lines
            for w, s in zip(ln.words, ln.sup, strict=True)
            if s and w.text.isalpha() and len(w.text) == 1
        }
        | {m for h in region.header for m in re.findall(r"\^([a-z])", h)}
    )
    if not piece.footnotes:
        piece.open = True
    if region.caption_lines:
        piece.caption = _joined(region.caption_lines, doc)
    return piece


def _main_face(lines: list[Line]) -> str:
    counts: dict[str, int] = {}
    for line in lines:
        counts[line.font] = counts.get(line.font, 0) + len(line.text)
    return max(counts, key=lambda f: counts[f]) if counts else ""


def _footnotes(
    doc: _Doc,
    text_lines: list[Line],
    end: float,
    rows_bottom: float,
    size: float,
    words: list[str],
) -> tuple[list[str], set[str]]:
    """The notes printed under the table: smaller lines, a superscript letter opening each,
    the first close under the last row (a page footer further down is no note)."""
    notes: list[list[Line]] = []
    markers: set[str] = set()
    previous: Line | None = None
    for line in text_lines:
        if line.t < end - 0.5 or says_continued(line, words):
            continue
        if previous is not None and line.t - previous.b > 2.5 * line.size:
            break
        if previous is None and line.t - rows_bottom > 4 * size:
            break
        if line.size >= 0.97 * size and not line.leading_marker:
            break
        marker = line.leading_marker
        if marker or not notes:
            notes.append([line])
            if marker:
                markers.add(marker)
        else:
            notes[-1].append(line)
        previous = line
    texts = []
    for note in notes:
        text = _joined(note, doc)
        texts.append(re.sub(r"^\^([a-z*†‡§¶#]+)\s*", r"\1 ", text))
    return texts, markers


# --------------------------------------------------------------------------- reading order


def _reading_key(page: Page, region: Region, full_width: list[Region]) -> tuple:
    """Page, band (full-width tables cut a page into bands), column, top."""
    top = region.header_top if region.header_top is not None else region.top
    wide = region in full_width
    band = sum(1 for r in full_width if (r.header_top or r.top) < top - 1)
    column = -1 if wide else (0 if region.layout.left < page.width / 2 - 20 else 1)
    return (page.number, band + (1 if wide else 0), column, top)


def _is_full_width(page: Page, region: Region) -> bool:
    return region.layout.right - region.layout.left > 0.6 * page.width


def _headings(doc: _Doc, regions: dict[int, list[Region]]) -> list[tuple[tuple, str]]:
    """Numbered bold section headings outside tables, with their reading-order keys."""
    found: list[tuple[tuple, str]] = []
    for page in doc.pages:
        page_regions = regions.get(page.number, [])
        wide = [r for r in page_regions if _is_full_width(page, r)]
        lines = doc.lines[page.number]
        i = 0
        while i < len(lines):
            line = lines[i]
            if not is_heading(line, _bold(line, doc)) or any(
                r.layout.left - 2 <= line.l
                and line.r <= r.layout.right + 2
                and r.top <= line.t <= r.bottom
                for r in page_regions
            ):
                i += 1
                continue
            block = [line]
            for nxt in lines[i + 1 :]:
                if (
                    nxt.font == line.font
                    and abs(nxt.size - line.size) < 0.5
                    and 0 <= nxt.t - block[-1].b < 0.8 * line.size
                    and abs(nxt.l - line.l) < 3 * line.size
                ):
                    block.append(nxt)
                else:
                    break
            probe = Region(page.number, Layout(line.l, line.r, line.r, []), line.t, line.b, line.t)
            found.append((_reading_key(page, probe, wide), _joined(block, doc)))
            i += len(block)
    found.sort(key=lambda f: f[0])
    return found


# --------------------------------------------------------------------------- whole PDF


def _zone_start(regions: list[Region], x_min: float, x_max: float, height: float) -> float:
    """Where the first table with a header begins between x_min and x_max."""
    starts = [
        min([r.header_top if r.header_top is not None else r.top, *(c.t for c in r.caption_lines)])
        for r in regions
        if r.layout.left < x_max and r.layout.right > x_min
    ]
    return min([height, *starts])


def _continuation(
    doc: _Doc, piece: _Piece, page: Page, regions: list[Region], x_min: float, x_max: float
) -> Region | None:
    """A piece without a header at the top of a column (x_min..x_max) continuing ``piece``:
    its class/level pairs at the piece's spacing, above any other table there."""
    bottom = _zone_start(regions, x_min, x_max, page.height)
    zone = [w for w in doc.words[page.number] if x_min <= w.cx <= x_max and w.b <= bottom]
    layout = continuation_layout(piece.region.layout, zone, 0.0)
    if layout is None or layout.left < x_min - 15 or layout.right > x_max + 15:
        return None
    inside = [w for w in zone if layout.left - 2 <= w.cx <= layout.right + 2]
    top = min((w.t for w in inside), default=page.height)
    if top > 0.3 * page.height:
        return None
    return Region(
        page=page.number, layout=layout, top=top - 0.5, bottom=bottom, header=piece.header
    )


def _page_pieces(doc: _Doc, page: Page, last: _Piece | None, words: list[str]) -> list[_Piece]:
    """The page's table pieces in reading order, continuations of open pieces included."""
    regions = doc.regions[page.number]
    wide = [r for r in regions if _is_full_width(page, r)]
    half = page.width / 2

    def read(region: Region) -> _Piece:
        piece = _read_piece(doc, region, words)
        piece.key = _reading_key(page, region, wide)
        return piece

    pieces: list[_Piece] = []
    if last is not None and last.open and last.region.page == page.number - 1:
        previous_wide = last.region.layout.right - last.region.layout.left > 0.6 * page.width
        zones = (
            [(0.0, page.width)] if previous_wide else [(0.0, half + 10), (half - 10, page.width)]
        )
        for x_min, x_max in zones:
            found = _continuation(doc, last, page, regions, x_min, x_max)
            if found is not None:
                pieces.append(read(found))
                break
    for region in regions:
        pieces.append(read(region))
    pieces.sort(key=lambda p: p.key)
    # a left-column piece running into the right column of the same page
    for piece in list(pieces):
        layout = piece.region.layout
        if piece.open and layout.right < half + 20 and piece is _last_in_column(pieces, piece):
            found = _continuation(doc, piece, page, regions, half - 10, page.width)
            if found is not None:
                pieces.append(read(found))
    pieces.sort(key=lambda p: p.key)
    return pieces


def _last_in_column(pieces: list[_Piece], piece: _Piece) -> _Piece:
    same = [p for p in pieces if p.key[:3] == piece.key[:3]]
    return max(same, key=lambda p: p.key)


def read_pdf_tables(
    path: Path,
    *,
    guideline: str,
    source_file: str,
    source_sha256: str,
    first_index: int = 0,
    continuation_words: list[str] | None = None,
) -> list[TableRecord]:
    """TableRecords of one PDF's recommendation tables, read from its text layer."""
    words = continuation_words or ["continued", "cont."]
    doc = _document(path)
    if doc.pages and not any(p.words or p.rotated_words for p in doc.pages):
        raise NoTextLayerError(f"none of its {len(doc.pages)} page(s) has a text layer")
    doc.regions = {page.number: _header_regions(doc, page) for page in doc.pages}
    headings = _headings(doc, doc.regions)
    pieces: list[_Piece] = []
    for page in doc.pages:
        pieces += _page_pieces(doc, page, pieces[-1] if pieces else None, words)
    return _records(pieces, headings, guideline, source_file, source_sha256, first_index, words)


def _joins(previous: _Piece, piece: _Piece, words: list[str]) -> bool:
    """Does ``piece`` continue ``previous``: it is open, the piece has no title of its own
    (or one saying "continued") and the same grade columns."""
    if not previous.open or not piece.rows:
        return False
    if piece.region.page not in (previous.region.page, previous.region.page + 1):
        return False
    ours, theirs = previous.region.layout.signature(), piece.region.layout.signature()
    if len(ours) != len(theirs) or any(abs(a - b) > 3 for a, b in zip(ours, theirs, strict=True)):
        return False
    if piece.region.header_top is None:
        return True
    caption = (piece.caption or "").lower()
    return not caption or any(w.lower() in caption for w in words)


def _carry_tail(group: list[_Piece], piece: _Piece) -> None:
    """A row cut by the column or page break: the continuation's first lines finish the
    previous piece's last sentence (it ends unfinished, they start in lower case); they
    end where a sentence ends and the next line starts a new one."""
    previous = next((r for p in reversed(group) for r in reversed(p.rows) if r.graded), None)
    first = piece.rows[0]
    if previous is None or not first.graded or not previous.lines or not first.lines:
        return
    if previous.lines[-1].text.rstrip().endswith((".", ";", ":")):
        return
    if not first.lines[0].text[:1].islower():
        return
    cut = None
    for k, line in enumerate(first.lines[:-1]):
        if line.text.rstrip().endswith((".", ";")) and first.lines[k + 1].text[:1].isupper():
            cut = k + 1
            break
    if cut is None:
        return
    tail, rest = first.lines[:cut], first.lines[cut:]
    previous.lines += tail
    previous.cells[0] = "\n".join(ln.text for ln in previous.lines)
    previous.boxes.append(box(piece.region.page, tail))
    first.lines = rest
    first.cells[0] = "\n".join(ln.text for ln in rest)
    first.boxes[0] = box(piece.region.page, rest, [])


def _records(
    pieces: list[_Piece],
    headings: list[tuple[tuple, str]],
    guideline: str,
    source_file: str,
    source_sha256: str,
    first_index: int,
    words: list[str],
) -> list[TableRecord]:
    groups: list[list[_Piece]] = []
    for piece in pieces:
        if not piece.rows:
            continue
        if groups and _joins(groups[-1][-1], piece, words):
            _carry_tail(groups[-1], piece)
            groups[-1].append(piece)
        else:
            groups.append([piece])
    records = []
    for offset, group in enumerate(groups):
        first = group[0]
        heading = None
        for key, text in headings:
            if key < first.key:
                heading = text
        body: list[list[str]] = []
        boxes: list[list[PageBox]] = []
        footnotes: list[str] = []
        markers: set[str] = set()
        for piece in group:
            for row in piece.rows:
                body.append(row.cells)
                boxes.append(row.boxes)
            footnotes += [f for f in piece.footnotes if f not in footnotes]
            markers |= piece.markers
        pages = sorted({b.page for row in boxes for b in row})
        records.append(
            TableRecord(
                guideline=guideline,
                table_id=f"table_{first_index + offset:03d}",
                source_file=source_file,
                source_sha256=source_sha256,
                source_format="pdf",
                pages=pages,
                caption=first.caption,
                heading=heading,
                header=first.header,
                body=body,
                footnotes=footnotes,
                footnote_markers=sorted(markers),
                pieces=len(group),
                raw_grid=[first.header, *body],
                row_boxes=boxes,
                reader=READER,
            )
        )
    return records
