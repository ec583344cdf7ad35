"""A PDF's text layer as positioned words and lines (pure logic, no Dagster, no model).

docling-parse (the parser inside Docling, no weights needed) gives every word of a
programmatic PDF with its box, font and content-stream position. This module turns them
into what the table reader needs:

- words in a top-left frame (points, y grows downwards), with the order the PDF paints
  them: producers write a table cell by cell, so that order says which lines belong
  together where positions alone are ambiguous;
- words whose baseline is not horizontal (a rotated landscape table, a vertical download
  notice in the margin) are counted and left out: they can never be read into rows;
- lines = words on one baseline, cut where a gap wider than a word space separates them
  (a table's columns, a two-column page's gutter); a superscript (smaller, raised) joins
  the line it sits on and is rendered "^a" (a footnote letter, as the Docling path does)
  or glued to the word before it (citation numbers "...stenosis.12,13");
- glyphs the text layer reads wrongly where no word could mean otherwise: a NUL character
  is the en dash of those fonts ("6\\x0018 mg"), a private-use glyph opening a line is its
  list bullet;
- running headers and footers: short lines printed at the same place on many pages.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

_BULLET_GLYPHS = re.compile(r"^[\uf0a7\uf0b7\uf076\uf0d8\uf0fc\u25aa\u25cf\u2023\u25e6\u2043·▪◦‣]")
_MARKER = re.compile(r"^(?:[a-z]|\*{1,3}|[†‡§¶#])$")
_LIST_GLYPH = re.compile(r"^[\u0001-\u0008\u000b-\u001f\ue000-\uf8ff](?=\s|$)")
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|[-,.+]b$|-bd\b|\bbd$", re.IGNORECASE)
BULLETS = "•·▪◦‣"


@dataclass(frozen=True)
class Word:
    """One word of the text layer, top-left frame (points)."""

    text: str
    l: float  # noqa: E741 - the box's left edge, as in every PDF tool
    t: float
    r: float
    b: float
    font: str
    order: int  # position in the page's content stream

    @property
    def height(self) -> float:
        return self.b - self.t

    @property
    def cx(self) -> float:
        return (self.l + self.r) / 2

    @property
    def cy(self) -> float:
        return (self.t + self.b) / 2


@dataclass
class Page:
    number: int  # 1-based
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    rotated_words: int = 0  # left out: their baseline is not horizontal


@dataclass
class Line:
    """Words on one baseline, left to right, with superscripts marked."""

    words: list[Word]
    page: int
    sup: list[bool]  # per word: a superscript (smaller and raised)
    text: str = ""

    def __post_init__(self) -> None:
        self.text = render(self.words, self.sup)

    @property
    def l(self) -> float:  # noqa: E743
        return min(w.l for w in self.words)

    @property
    def r(self) -> float:
        return max(w.r for w in self.words)

    @property
    def t(self) -> float:
        main = [w for w, s in zip(self.words, self.sup, strict=True) if not s] or self.words
        return min(w.t for w in main)

    @property
    def b(self) -> float:
        main = [w for w, s in zip(self.words, self.sup, strict=True) if not s] or self.words
        return max(w.b for w in main)

    @property
    def cy(self) -> float:
        return (self.t + self.b) / 2

    @property
    def size(self) -> float:
        """Height of the line's normal-size words: its font size, near enough."""
        heights = [w.height for w, s in zip(self.words, self.sup, strict=True) if not s]
        return statistics.median(heights) if heights else self.words[0].height

    @property
    def order(self) -> int:
        return min(w.order for w in self.words)

    @property
    def font(self) -> str:
        """The font of most of the line's letters."""
        counts: Counter[str] = Counter()
        for word, sup in zip(self.words, self.sup, strict=True):
            if not sup:
                counts[word.font] += len(word.text)
        return counts.most_common(1)[0][0] if counts else self.words[0].font

    @property
    def starts_with_bullet(self) -> bool:
        return self.text[:1] in BULLETS

    @property
    def leading_marker(self) -> str | None:
        """A superscript footnote letter opening the line ("^a Class of recommendation")."""
        if self.sup and self.sup[0] and _MARKER.match(self.words[0].text):
            return self.words[0].text
        return None


# --------------------------------------------------------------------------- reading


def read_pages(path: Path) -> list[Page]:
    """Every page's upright words, via docling-parse (raises on an unreadable PDF)."""
    from docling_parse.pdf_parser import ContentConfig, ContentLevel, DoclingPdfParser

    skip, keep = ContentLevel.SKIP, ContentLevel.COMPUTE_AND_MATERIALIZE
    content = ContentConfig(
        char_cells_content_level=ContentLevel.COMPUTE,  # words are built from characters
        word_cells_content_level=keep,
        line_cells_content_level=skip,
        shapes_content_level=skip,
        bitmaps_content_level=skip,
        include_bitmap_bytes=False,
    )
    parser = DoclingPdfParser(loglevel="fatal")
    document = parser.load(str(path), lazy=True)
    pages: list[Page] = []
    try:
        for number in range(1, document.number_of_pages() + 1):
            segmented = document.get_page(number, content_config=content)
            crop = segmented.dimension.crop_bbox
            top = max(crop.t, crop.b)
            page = Page(
                number=number,
                width=abs(crop.r - crop.l),
                height=abs(crop.t - crop.b),
            )
            for cell in segmented.word_cells:
                text = normalize_glyphs(cell.text)
                if not text.strip():
                    continue
                rect = cell.rect
                angle = math.degrees(math.atan2(rect.r_y1 - rect.r_y0, rect.r_x1 - rect.r_x0))
                if abs(angle) > 2:
                    page.rotated_words += 1
                    continue
                xs = (rect.r_x0, rect.r_x1, rect.r_x2, rect.r_x3)
                ys = (rect.r_y0, rect.r_y1, rect.r_y2, rect.r_y3)
                page.words.append(
                    Word(
                        text=text.strip(),
                        l=min(xs) - crop.l,
                        t=top - max(ys),
                        r=max(xs) - crop.l,
                        b=top - min(ys),
                        font=cell.font_name or "",
                        order=cell.index,
                    )
                )
            _drop_vertical(page)
            pages.append(page)
            document.unload_pages((number, number + 1))
    finally:
        document.unload()
    return pages


def _drop_vertical(page: Page) -> None:
    """Words set vertically but reported with a horizontal box (a column of leader dots,
    a word per line of a rotated table): far taller than their font, or taller than wide."""
    if not page.words:
        return
    heights = sorted(w.height for w in page.words)
    typical = heights[len(heights) // 2]
    kept = []
    for word in page.words:
        width = word.r - word.l
        tall = word.height > 3 * typical or (len(word.text) >= 3 and word.height > 1.5 * width)
        if tall:
            page.rotated_words += 1
        else:
            kept.append(word)
    page.words = kept


def normalize_glyphs(text: str) -> str:
    """Characters a text layer reads wrongly where no word could mean otherwise."""
    text = text.replace("\x00", "–")  # the en dash of these fonts: "6\x0018 mg", "risk\x00benefit"
    return _BULLET_GLYPHS.sub("•", text)


# --------------------------------------------------------------------------- lines


def _superscripts(words: list[Word]) -> list[bool]:
    """Words clearly smaller than the line's text and raised above its baseline."""
    body = max(w.height for w in words)  # a superscript is never the tallest word
    base = max(w.b for w in words if w.height >= 0.85 * body)
    return [w.height < 0.9 * body and w.b < base - 0.15 * body for w in words]


def render(words: list[Word], sup: list[bool]) -> str:
    """A line's text: words spaced as printed; a superscript letter "^a", superscript
    digits glued to the word before ("recommended.12,14")."""
    out = ""
    previous: Word | None = None
    for index, (word, is_sup) in enumerate(zip(words, sup, strict=True)):
        text = word.text
        if index == 0 and _LIST_GLYPH.match(text):
            text = "•" + text[1:]  # a control or private-use glyph opening a line: its bullet
        if is_sup and _MARKER.match(text):
            text = "^" + text
            glue = True
        elif is_sup:
            glue = previous is not None and word.l - previous.r < 0.5 * previous.height
        else:
            glue = previous is not None and word.l - previous.r < 0.12 * word.height
        out = out + text if (glue or not out) else f"{out} {text}"
        previous = word
    return out


def group_lines(words: Iterable[Word], page: int, *, gap: float = 0.9) -> list[Line]:
    """Words -> lines: same baseline (vertical overlap), cut at gaps wider than ``gap``
    times the line height (a column boundary, never a word space)."""
    ordered = sorted(words, key=lambda w: (w.t, w.l))
    rows: list[list[Word]] = []
    extents: list[list[float]] = []  # [top, bottom] of each row so far
    for word in ordered:
        for k in range(len(rows) - 1, max(len(rows) - 7, -1), -1):
            top, bottom = extents[k]
            overlap = min(bottom, word.b) - max(top, word.t)
            # a superscript overlaps only the upper part of its line
            if overlap > 0.45 * min(word.height, bottom - top):
                rows[k].append(word)
                extents[k] = [min(top, word.t), max(bottom, word.b)]
                break
        else:
            rows.append([word])
            extents.append([word.t, word.b])
    lines: list[Line] = []
    for row in rows:
        row.sort(key=lambda w: w.l)
        sup = _superscripts(row)
        height = max(w.height for w, s in zip(row, sup, strict=True) if not s) if row else 0
        start = 0
        for i in range(1, len(row) + 1):
            if i == len(row) or row[i].l - row[i - 1].r > gap * height:
                piece = row[start:i]
                lines.append(Line(piece, page, sup[start:i]))
                start = i
    lines.sort(key=lambda line: (line.t, line.l))
    return lines


# --------------------------------------------------------------------------- fonts


def is_bold(font: str, label_fonts: set[str] = frozenset()) -> bool:
    """A bold face: named so, or the face a table prints its header labels in (publishers'
    subset fonts often carry no weight in their names)."""
    name = font.split("+", 1)[-1]
    return bool(_BOLD_NAME.search(name)) or font in label_fonts


# --------------------------------------------------------------------------- furniture


def _furniture_key(line: Line) -> str:
    return re.sub(r"\d+", "#", line.text.lower()).strip()


def page_furniture(pages: list[Page], lines_by_page: dict[int, list[Line]]) -> set[tuple[int, int]]:
    """(page, line index) of running headers and footers: short lines printed in the top or
    bottom margin band at about the same height on several pages, and bare page numbers."""
    marks: dict[tuple[str, int], list[tuple[int, int]]] = {}
    found: set[tuple[int, int]] = set()
    heights = {p.number: p.height for p in pages}
    for number, lines in lines_by_page.items():
        height = heights[number]
        for index, line in enumerate(lines):
            in_margin = line.b < 0.07 * height or line.t > 0.93 * height
            if not in_margin or len(line.text) > 100:
                continue
            if re.fullmatch(r"\d{1,5}|[ivxlc]{1,6}", line.text.strip()):  # never a class "I"
                found.add((number, index))
                continue
            key = (_furniture_key(line), round(line.t / 6))
            marks.setdefault(key, []).append((number, index))
    repeated = max(3, len(pages) // 10) if len(pages) > 4 else 2
    for places in marks.values():
        if len({page for page, _ in places}) >= repeated:
            found.update(places)
    return found
