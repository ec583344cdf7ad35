"""Where recommendation tables sit on a PDF page, read from the text layer (pure logic).

A recommendation table announces itself by its header: a line holding the labels "Class"
and "Level" (often with footnote letters, "Class^a Level^b"), the text column's label at
its left ("Recommendations"). That header fixes the table's columns: the text column up
to the first grade label, one column per label from there on (class, level, and
sometimes a reference column). Everything else is found from those columns:

- the region below the header, inside the table's width, down to the next table's title
  or the page's end; a two-column page's other column is outside that width;
- the caption (the bold title lines right above the header) and the section heading
  above the table (a numbered bold line);
- a piece without a header at the top of the next column or page whose classes and
  levels sit at the same spacing continues the table (its header is printed once).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardio_assets.logic.pdf_text import Line, Page, Word, group_lines

CLASS_TOKEN = re.compile(r"^(?:III|IIa|IIb|I)$")
LEVEL_TOKEN = re.compile(r"^[ABC]$")
_CLASS_LABEL = re.compile(r"^(?:class(?:es)?|cor)$", re.IGNORECASE)
_LEVEL_LABEL = re.compile(r"^(?:levels?|loe)$", re.IGNORECASE)
_JOINT_LABEL = re.compile(r"^class\W*(?:and\W*)?level$", re.IGNORECASE)
_HEADING = re.compile(r"^\d{1,2}(?:\.\d{1,2}){0,4}\.?\s+[A-Z]")


@dataclass
class Column:
    """One grade-side column of a table (class, level, a reference column, ...)."""

    label: str
    l: float  # noqa: E741
    r: float

    @property
    def cx(self) -> float:
        return (self.l + self.r) / 2


@dataclass
class Layout:
    """A table's columns on one page: x positions are that page's."""

    left: float  # the text column's left edge
    grade_left: float  # where the grade columns begin (text column ends)
    right: float
    columns: list[Column]
    text_label: str = "Recommendations"

    def shifted(self, dx: float) -> Layout:
        return Layout(
            self.left + dx,
            self.grade_left + dx,
            self.right + dx,
            [Column(c.label, c.l + dx, c.r + dx) for c in self.columns],
            self.text_label,
        )

    def column_of(self, word: Word) -> int | None:
        """Index of the grade column a word sits in (nearest centre), None for text."""
        if word.cx < self.grade_left:
            return None
        return min(range(len(self.columns)), key=lambda j: abs(self.columns[j].cx - word.cx))

    def signature(self) -> tuple[int, ...]:
        """Column centres relative to the first: two pieces of one table share them."""
        first = self.columns[0].cx
        return tuple(round(c.cx - first) for c in self.columns)


@dataclass
class Region:
    """A table piece's place on one page: its layout and vertical extent."""

    page: int
    layout: Layout
    top: float  # first body line may start here (below the header, or the column top)
    bottom: float
    header_top: float | None = None  # None: a piece without a header (a continuation)
    header: list[str] = field(default_factory=list)
    caption_lines: list[Line] = field(default_factory=list)
    says_continued: bool = False


# --------------------------------------------------------------------------- header


def _label_groups(words: list[Word]) -> list[list[Word]]:
    """Header words -> labels: a superscript marker or a close word joins the label."""
    groups: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.l):
        if groups:
            last = groups[-1][-1]
            small = word.height < 0.9 * max(w.height for w in groups[-1])
            if small or word.l - last.r < 0.45 * max(word.height, last.height):
                groups[-1].append(word)
                continue
        groups.append([word])
    return groups


def _label_text(words: list[Word]) -> str:
    base = max(w.height for w in words)
    out = ""
    for word in words:
        if word.height < 0.9 * base and len(word.text) <= 2:
            out += "^" + word.text
        else:
            out = f"{out} {word.text}".strip()
    return out


def find_headers(page: Page, words: list[Word]) -> list[tuple[list[Word], Word]]:
    """(words on the header baseline, the class label word) of each Class/Level header."""
    found = []
    for word in words:
        joint = _JOINT_LABEL.match(word.text)
        if not (_CLASS_LABEL.match(word.text) or joint):
            continue
        same = [
            w
            for w in words
            if abs(w.cy - word.cy) < 0.6 * word.height or (w.t < word.b and w.b > word.t)
        ]
        if not _label_position(word, same):
            continue  # "Class of recommendation." in a footnote is no header
        has_level = joint or any(
            _LEVEL_LABEL.match(w.text) and 0 < w.l - word.r < 12 * word.height for w in same
        )
        # "Class and level" wrapped in a narrow column: the level label printed below
        has_level = has_level or bool(_wrapped_labels(word, words))
        if has_level:
            found.append((same, word))
    # one header per table: a comparison table has two Class labels on its baseline
    unique: list[tuple[list[Word], Word]] = []
    for same, word in sorted(found, key=lambda f: (f[1].t, f[1].l)):
        if not any(
            abs(u[1].cy - word.cy) < 2 and 0 <= word.l - u[1].l < 12 * word.height for u in unique
        ):
            unique.append((same, word))
    return unique


def _label_position(word: Word, same: list[Word]) -> bool:
    """A class label heads a column: right of it on its baseline come only its marker, a
    level label (or "and level"), or nothing, never the rest of a sentence."""
    right = sorted(
        (w for w in same if w.l >= word.r - 0.5 and w.height >= 0.9 * word.height),
        key=lambda w: w.l,
    )
    if not right or right[0].l - word.r > 2.5 * word.height:
        return True
    return bool(_LEVEL_LABEL.match(right[0].text) or right[0].text.lower() in {"and", "/", "&"})


def _wrapped_labels(class_word: Word, words: list[Word]) -> list[Word]:
    """Label words printed under the class label in its column when its header cell wraps
    ("Class^a / and / level^b"), up to and including a level label; empty when none."""
    below = sorted(
        (
            w
            for w in words
            if 0 <= w.t - class_word.b < 2.6 * class_word.height
            and class_word.l - 2 * class_word.height < w.cx < class_word.r + 2 * class_word.height
        ),
        key=lambda w: (w.t, w.l),
    )
    kept: list[Word] = []
    for word in below:
        if CLASS_TOKEN.match(word.text) or LEVEL_TOKEN.match(word.text):
            break
        kept.append(word)
        if _LEVEL_LABEL.match(word.text):
            return kept
    return []


def layout_from_header(
    baseline: list[Word], class_word: Word, words: list[Word], page_width: float
) -> tuple[Layout, float, float, list[str]]:
    """The table's columns, the header's top and bottom, and its labels.

    The text label is the text-side words on the header baseline; labels printed on a line
    just above the grade labels ("CABG", "PCI" over a comparison table) prefix the
    columns under them."""
    height = class_word.height
    grade_words = _grade_labels(baseline, class_word)
    text_words = [
        w for w in baseline if w.r < class_word.l - 1 and class_word.l - w.r < 0.8 * page_width
    ]
    groups = _label_groups(grade_words)
    columns = [
        Column(_label_text(g), min(w.l for w in g), max(w.r for w in g)) for g in groups if g
    ]
    top = min(w.t for w in baseline)
    bottom = max(w.b for w in baseline)
    wrapped = _wrapped_labels(class_word, words)
    if wrapped and not any(_LEVEL_LABEL.match(w.text) for w in grade_words):
        below = " ".join(line.text for line in group_lines(wrapped, 0))
        columns[0].label = f"{columns[0].label} {below}"
        bottom = max(bottom, *(w.b for w in wrapped))
    # labels over the grade columns, within two lines above them
    above = [
        w
        for w in words
        if w.b <= top + 0.5
        and top - w.b < 2.2 * height
        and w.l >= class_word.l - 3 * height
        and w.r <= columns[-1].r + 2 * height
    ]
    if above:
        labels = _label_groups(above)
        for column in columns:
            nearest = min(labels, key=lambda g: abs((g[0].l + g[-1].r) / 2 - column.cx))
            column.label = f"{_label_text(nearest)} {column.label}"
        top = min(top, *(w.t for w in above))
    text_words += [
        w
        for w in words
        if w.r < class_word.l - 1 and top - 0.5 <= w.cy <= bottom + 0.5 and w not in text_words
    ]
    text_words = _near_text(text_words, class_word)
    left = min((w.l for w in text_words), default=class_word.l - 0.45 * page_width)
    text_label = " ".join(line.text for line in group_lines(text_words, 0)) if text_words else ""
    grade_left = min(c.l for c in columns) - 0.6 * height
    layout = Layout(
        left=left - 1,
        grade_left=grade_left,
        right=columns[-1].r + height,
        columns=columns,
        text_label=text_label,
    )
    return layout, top, bottom, [text_label, *(c.label for c in columns)]


def _grade_labels(baseline: list[Word], class_word: Word) -> list[Word]:
    """The class label and the labels right of it, up to a gutter-wide gap (a two-column
    page's other column can share the header's baseline); a level or class label further
    right still belongs to the table."""
    kept = [class_word]
    for word in sorted((w for w in baseline if w.l > class_word.l), key=lambda w: w.l):
        gap = word.l - kept[-1].r
        label = _LEVEL_LABEL.match(word.text) or _CLASS_LABEL.match(word.text)
        if gap <= 2.5 * class_word.height or (label and gap <= 8 * class_word.height):
            kept.append(word)
        else:
            break
    return kept


def _near_text(words: list[Word], class_word: Word) -> list[Word]:
    """Text-side header words belonging to this table: a run leftwards from the class label
    without a gutter-sized gap (a two-column page's other column shares the baseline)."""
    kept: list[Word] = []
    edge = class_word.l
    for word in sorted(words, key=lambda w: -w.r):
        limit = 2.5 * class_word.height if kept else class_word.l
        if edge - word.r > limit:
            break
        kept.append(word)
        edge = min(edge, word.l)
    return kept


def is_heading(line: Line, bold: bool) -> bool:
    """A numbered section heading ("3.1.1 Clinical management"), printed in bold."""
    return bold and bool(_HEADING.match(line.text)) and len(line.text) <= 160


# --------------------------------------------------------------------------- grades


def grade_pairs(words: list[Word]) -> list[tuple[Word, Word]]:
    """(class, level) word pairs printed on one baseline, level right of class."""
    classes = [w for w in words if CLASS_TOKEN.match(w.text)]
    levels = [w for w in words if LEVEL_TOKEN.match(w.text)]
    pairs = []
    for klass in classes:
        best = None
        for level in levels:
            gap = level.l - klass.r
            if abs(level.cy - klass.cy) < 0.5 * klass.height and 0 <= gap < 8 * klass.height:
                if best is None or gap < best.l - klass.r:
                    best = level
        if best is not None:
            pairs.append((klass, best))
    return pairs


def continuation_layout(layout: Layout, words: list[Word], top: float) -> Layout | None:
    """The same table's columns on another page or column, found by its class/level pairs:
    the shift that puts most pairs on one of the layout's class columns and the level
    column beside it (the smallest such shift: mirrored page margins move it a little)."""
    pairs_at = (
        [
            (j, layout.columns[j + 1].cx - layout.columns[j].cx)
            for j in range(len(layout.columns) - 1)
            if _CLASS_LABEL.match(layout.columns[j].label.split()[-1].split("^")[0])
        ]
        or [(0, layout.columns[1].cx - layout.columns[0].cx)]
        if len(layout.columns) > 1
        else []
    )
    pairs = grade_pairs([w for w in words if w.t >= top])
    if not pairs or not pairs_at:
        return None
    candidates = [
        k.cx - layout.columns[j].cx
        for k, lv in pairs
        for j, spacing in pairs_at
        if abs((lv.cx - k.cx) - spacing) < 4
    ]

    def support(dx: float) -> int:
        return sum(
            1
            for k, lv in pairs
            if any(
                abs(k.cx - dx - layout.columns[j].cx) < 4 and abs((lv.cx - k.cx) - sp) < 4
                for j, sp in pairs_at
            )
        )

    if not candidates:
        return None
    dx = max(candidates, key=lambda d: (support(d), -abs(d)))
    return layout.shifted(dx)
