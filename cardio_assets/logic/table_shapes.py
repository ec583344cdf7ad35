"""What a table is, read from its cells (pure logic, no Dagster).

Converter-made guideline tables rarely say in their header which column holds the class
and which the level: the header can be the first recommendation itself ("text | I | C"),
columns come out twice (a cell spanning two columns is written into both), empty header
cells read "Col2", class and level share one cell ("IIa C"), two recommendations can sit
side by side on one line, and "What is new" tables list classes of two guideline versions.
So the class and level columns are found by their content (cells that are classes I, IIa,
IIb, III and levels A, B, C) wherever they sit, and a table is a recommendation table when
its rows carry both. Every other table is kept out of the rows with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

CLASSES = ("I", "IIa", "IIb", "III")
LEVELS = ("A", "B", "C")
_CLASS = re.compile(r"^(III|IIa|IIb|I)$")
_LEVEL = re.compile(r"^([ABC])$")
_CLASS_LEVEL = re.compile(r"^(III|IIa|IIb|I)\s*[/,]?\s*([ABC])$")
# a class-like cell that is not a class of the ESC/ACC scheme (e.g. "Ia", "IV", "IIc")
_CLASS_LIKE = re.compile(r"^(?:I{1,3}V?|IV|II)[a-z]?$")
_VERSION_HEADER = re.compile(
    r"\b(?:new|revised|changes?|changed|version|previous|19\d\d|20\d\d)\b", re.IGNORECASE
)
MIN_SHARE = 0.5  # of a table's data rows that must carry class and level


@dataclass(frozen=True)
class Grade:
    """A cell read as class and/or level; ``invalid`` holds a class-like cell that is not one."""

    klass: str | None = None
    level: str | None = None
    marker: str | None = None  # footnote letter glued to the cell ("IIbd" -> d)
    invalid: str | None = None


def read_grade(cell: str, markers: Iterable[str] = ()) -> Grade:
    """A class, a level, or both, from one cell; a footnote letter the table defines may be
    glued to it ("IIbd"), but never one that would make another class ("Ia" stays invalid)."""
    text = " ".join((cell or "").replace("^", "").split())
    if not text:
        return Grade()
    if m := _CLASS.match(text):
        return Grade(klass=m.group(1))
    if m := _LEVEL.match(text):
        return Grade(level=m.group(1))
    if m := _CLASS_LEVEL.match(text):
        return Grade(klass=m.group(1), level=m.group(2))
    defined = {m for m in markers if len(m) == 1 and m.isalpha()}
    for marker in sorted(defined):
        if text.endswith(marker) and len(text) > 1:
            stem = text[:-1].rstrip(" ,")
            klass = _CLASS.match(stem)
            level = _LEVEL.match(stem)
            if klass and not (stem == "I" and marker in "ab"):
                return Grade(klass=klass.group(1), marker=marker)
            if level:
                return Grade(level=level.group(1), marker=marker)
    if _CLASS_LIKE.match(text):
        return Grade(invalid=text)
    return Grade()


def is_spanning_row(cells: Sequence[str]) -> bool:
    """One text over every column (a span written into each), or only the first cell filled."""
    filled = [c for c in cells if c.strip()]
    if len(cells) < 2 or not filled:
        return False
    if len(filled) == len(cells) and len(set(filled)) == 1:
        return True
    return bool(cells[0].strip()) and all(not c.strip() for c in cells[1:])


def collapse_duplicate_columns(grid: list[list[str]]) -> tuple[list[list[str]], list[int]]:
    """Drop a column that repeats its left neighbour wherever it has text (a cell spanning
    two columns, written into both). Returns the grid and the kept column indices."""
    width = max((len(r) for r in grid), default=0)
    rows = [list(r) + [""] * (width - len(r)) for r in grid]
    keep = [0] if width else []
    for j in range(1, width):
        prev = keep[-1]
        pairs = [(r[prev], r[j]) for r in rows if not is_spanning_row(r)]
        filled = [(a, b) for a, b in pairs if b.strip()]
        duplicate = bool(filled) and all(a.strip() == b.strip() for a, b in filled)
        if not duplicate:
            keep.append(j)
    return [[r[j] for j in keep] for r in rows], keep


@dataclass
class GradeColumns:
    """One recommendation per (text columns, class, level) group of a row."""

    text: list[int]
    klass: int
    level: int | None  # None when class and level share the class column
    # a comparison table ("text | CABG class, level | PCI class, level"): the groups share
    # one text and each is the recommendation of the action its header names
    action_label: str | None = None


@dataclass
class TableShape:
    kind: str  # "recommendations" | "what_is_new" | "class_only" | "other"
    reason: str
    groups: list[GradeColumns] = field(default_factory=list)
    header_is_data: bool = False
    label_column: int | None = None  # a left column of group labels (a section per block)
    extra_columns: list[int] = field(default_factory=list)  # after the grades: refs, notes


def grade_signature(shape: TableShape) -> tuple[tuple[int, int | None], ...]:
    """The class/level column positions: two pieces of one table share them."""
    return tuple((g.klass, g.level) for g in shape.groups)


def _counts(rows: list[list[str]], markers: Sequence[str], width: int) -> list[dict[str, int]]:
    counts = [{"class": 0, "level": 0, "both": 0, "invalid": 0} for _ in range(width)]
    for row in rows:
        for j, cell in enumerate(row[:width]):
            grade = read_grade(cell, markers)
            if grade.klass and grade.level:
                counts[j]["both"] += 1
            elif grade.klass:
                counts[j]["class"] += 1
            elif grade.level:
                counts[j]["level"] += 1
            elif grade.invalid:
                counts[j]["invalid"] += 1
    return counts


def _label_column(rows: list[list[str]], text_cols: list[int]) -> int | None:
    """A first text column of short labels repeated down consecutive rows (a spanned
    category cell), when another text column holds the recommendations."""
    if len(text_cols) < 2:
        return None
    col = text_cols[0]
    rows = [r for r in rows if col < len(r) and not label_spans_text(r, col, text_cols)]
    values = [r[col].strip() for r in rows]
    others = [" ".join(r[j] for j in text_cols[1:] if j < len(r)).strip() for r in rows]
    repeats = sum(1 for a, b in zip(values, values[1:], strict=False) if a and a == b)
    short = all(len(v) <= 80 and not v.endswith(".") for v in values if v)
    longer = sum(len(o) for o in others) > 2 * sum(len(v) for v in values)
    return col if short and longer and repeats >= 1 else None


def label_spans_text(row: list[str], label: int, text_cols: Sequence[int]) -> bool:
    """Whether the label cell holds the row's first text (a recommendation written into the
    label column too): such a row has no label."""
    first = next((row[j] for j in text_cols if j != label and j < len(row) and row[j].strip()), "")
    return " ".join(row[label].split()) == " ".join(first.split())


_GRADE_WORDS = re.compile(
    r"\b(?:class(?:es)?|levels?|of|evidence|recommendations?)\b|\^?\b[a-h]\b", re.I
)


def _action_label(header: list[str], column: int) -> str:
    """What a class column of a comparison table grades: its header without the words
    "Class" / "Level" and footnote letters ("CABG Class a" -> "CABG")."""
    label = header[column] if column < len(header) else ""
    label = re.sub(r"^Col\d+$", "", label.strip())  # a converter's name for an empty header
    return " ".join(_GRADE_WORDS.sub(" ", label).split())


def table_shape(
    header: list[str], body: list[list[str]], markers: Sequence[str] = (), title: str = ""
) -> TableShape:
    """Which columns hold text, class and level, and whether this is a recommendation table.

    ``header`` and ``body`` are the table after duplicate columns were collapsed."""
    data = [r for r in body if any(c.strip() for c in r) and not is_spanning_row(r)]
    width = max([len(header), *(len(r) for r in data)], default=0)
    header_grades = [read_grade(h, markers) for h in header]
    header_is_data = any(g.klass for g in header_grades) and any(g.level for g in header_grades)
    rows = ([header] if header_is_data else []) + data
    counts = _counts(rows, markers, width)
    n = max(len(rows), 1)
    class_cols = [
        j
        for j in range(width)
        if counts[j]["class"] + counts[j]["both"] >= max(1, MIN_SHARE * n / 2)
    ]
    if not class_cols:
        if any(c["invalid"] for c in counts):
            j = max(range(width), key=lambda k: counts[k]["invalid"])
            if counts[j]["invalid"] >= MIN_SHARE * n / 2:
                class_cols = [j]
        if not class_cols:
            return TableShape("other", "no column of classes (I, IIa, IIb, III)")
    need = max(1, MIN_SHARE * n / 2)
    level_cols = [j for j in range(width) if j not in class_cols and counts[j]["level"] >= need]
    groups: list[GradeColumns] = []
    used: set[int] = set()
    for c in class_cols:
        merged = counts[c]["both"] >= counts[c]["class"] and counts[c]["both"] > 0
        level = None
        if not merged:
            free = [j for j in level_cols if j not in used]
            # the level beside its class: right of it first (ESC order), else left of it
            level = min(free, key=lambda j: (abs(j - c), j < c), default=None)
            if level is None or abs(level - c) > 2:
                continue  # a class column without its level: not a recommendation group
            used.add(level)
        groups.append(GradeColumns(text=[], klass=c, level=level))
    grade_cols = set(class_cols) | used
    start = 0
    for g in groups:
        end = max(g.klass, g.level if g.level is not None else g.klass)
        g.text = [j for j in range(start, end) if j not in grade_cols]
        start = end + 1
    versions = bool(_VERSION_HEADER.search(" ".join(header) + " " + title))
    if not groups:
        if len(class_cols) >= 2 or versions:
            return TableShape("what_is_new", "classes of guideline versions, no levels")
        return TableShape("class_only", "a class column but no level column")
    if versions and (
        len(class_cols) > len(groups) or len(groups) >= 2 or any(not g.text for g in groups)
    ):
        # recommendations of two guideline versions side by side: they restate rows found
        # in the section tables
        return TableShape("what_is_new", "classes of guideline versions", groups=groups)
    if groups and groups[0].text and any(not g.text for g in groups[1:]):
        for g in groups:
            g.action_label = _action_label(header, g.klass) or None
            g.text = groups[0].text
    groups = [g for g in groups if g.text]
    if not groups:
        return TableShape("other", "class and level columns without recommendation text")
    graded = sum(
        1
        for r in rows
        if any(
            (read_grade(r[g.klass], markers).klass or read_grade(r[g.klass], markers).invalid)
            for g in groups
            if g.klass < len(r)
        )
    )
    # a table of risk scores or definitions can hold a stray "I" or "B"; recommendation
    # tables carry grades on most rows (notes and stems sit between them)
    if graded < max(2, MIN_SHARE * n / 2) and graded < n:
        return TableShape("other", f"only {graded} of {len(rows)} rows carry a class and a level")
    last = max(max(g.klass, g.level if g.level is not None else g.klass) for g in groups)
    label = _label_column(rows, groups[0].text)
    if label is not None:
        groups[0].text = [j for j in groups[0].text if j != label]
    return TableShape(
        "recommendations",
        "rows carry classes and levels",
        groups=groups,
        header_is_data=header_is_data,
        label_column=label,
        extra_columns=list(range(last + 1, width)),
    )
