"""Rows of one PDF table piece, rebuilt from its text lines and grades (pure logic).

A row ends where its class/level pair is printed: publishers write a table cell by cell,
so in the page's content stream a row's text lines come before its grades. Several grades
printed one after another share the text before them, cut between them by position; a
stem ending in ":" above the first bullet is a row of its own (table_rows carries it onto
each bullet); bold blocks opening a row's text are section rows. cardio_assets/logic/
pdf_tables.py finds the pieces and joins them into tables.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

from cardio_assets.logic.pdf_layout import Layout
from cardio_assets.logic.pdf_text import Line, Word, group_lines
from cardio_assets.logic.row_text import Vocabulary, join_lines
from cardio_assets.logic.table_shapes import read_grade
from cardio_assets.records import PageBox


def joined(lines: list[Line], vocabulary: Vocabulary) -> str:
    """Lines of one cell joined into its text (hyphenation repaired)."""
    text, _ = join_lines("\n".join(ln.text for ln in lines), vocabulary)
    return text


@dataclass
class GradeLine:
    """Words printed on one baseline in the grade columns, one text per column."""

    words: list[Word]
    cells: list[str]

    @property
    def order(self) -> int:
        return min(w.order for w in self.words)

    @property
    def t(self) -> float:
        return min(w.t for w in self.words)

    @property
    def b(self) -> float:
        return max(w.b for w in self.words)

    @property
    def cy(self) -> float:
        return (self.t + self.b) / 2


@dataclass
class Row:
    cells: list[str]
    boxes: list[PageBox]
    lines: list[Line] = field(default_factory=list)  # its text lines, top to bottom
    graded: bool = False


# --------------------------------------------------------------------------- one piece


def text_size(lines: list[Line]) -> float:
    return statistics.median([ln.size for ln in lines]) if lines else 0.0


def says_continued(line: Line, words: list[str]) -> bool:
    """A short line that is a continuation mark ("Continued", "(cont.)"), never a word of a
    sentence that merely starts like one ("contraindicated")."""
    tokens = re.findall(r"[a-z]+", line.text.lower())
    marks = {w.lower().strip(" .()") for w in words}
    return 0 < len(tokens) <= 4 and len(line.text) <= 40 and tokens[0] in marks


_GRADE_CELL = re.compile(r"^(?:III|IIa|IIb|I|[ABC]|[a-h*†‡§¶#]|[\d,;–-]+|IIa/b|n/a|-)$")


def split_columns(words: list[Word], layout: Layout) -> tuple[list[Word], list[Word]]:
    """(text words, grade-side words): a long line of a wide table can run on under the
    grade columns; words there that are no grade, continuing a text word on their
    baseline, are text."""
    text = [w for w in words if layout.column_of(w) is None]
    grade = sorted((w for w in words if layout.column_of(w) is not None), key=lambda w: w.l)
    kept = []
    for word in grade:
        continues = not _GRADE_CELL.match(word.text) and any(
            abs(t.cy - word.cy) < 0.4 * word.height and 0 <= word.l - t.r < 1.5 * word.height
            for t in text
        )
        (text if continues else kept).append(word)
    return text, kept


def grade_lines(grade_side: list[Word], layout: Layout) -> list[GradeLine]:
    """Grade-side words grouped by baseline, each put in its column."""
    result = []
    for line in group_lines(grade_side, 0, gap=1000):
        cells = [""] * len(layout.columns)
        for word in line.words:
            j = layout.column_of(word)
            assert j is not None
            cells[j] = f"{cells[j]} {word.text}".strip()
        if any(_is_grade(c) for c in cells):
            result.append(GradeLine(line.words, cells))
    return result


def _is_grade(cell: str) -> bool:
    grade = read_grade(cell)
    return bool(grade.klass or grade.level)


def box(page: int, lines: list[Line], words: list[Word] = ()) -> PageBox:
    items = [*(w for ln in lines for w in ln.words), *words]
    return PageBox(
        page=page,
        l=round(min(w.l for w in items), 1),
        t=round(min(w.t for w in items), 1),
        r=round(max(w.r for w in items), 1),
        b=round(max(w.b for w in items), 1),
    )


def split_among(lines: list[Line], grades: list[GradeLine]) -> list[list[Line]]:
    """Lines (top to bottom) cut into one run per grade (top to bottom): each cut falls
    between two grades where a bullet starts, a sentence ends or the widest gap is."""
    lines = sorted(lines, key=lambda ln: (ln.t, ln.l))
    grades = sorted(grades, key=lambda g: g.cy)
    runs: list[list[Line]] = []
    start = 0
    for upper, lower in zip(grades, grades[1:], strict=False):
        best, best_score = None, None
        for c in range(start + 1, len(lines)):
            above, below = lines[c - 1], lines[c]
            tolerance = 0.4 * below.size
            if above.cy > lower.cy + tolerance:
                break
            if below.cy < upper.cy - tolerance:
                continue
            score = below.t - above.b
            if below.starts_with_bullet:
                score += 2 * below.size
            if above.text.rstrip().endswith((".", ":")) and below.text[:1].isupper():
                score += 0.5 * below.size
            if best_score is None or score > best_score:
                best, best_score = c, score
        if best is None:
            middle = (upper.cy + lower.cy) / 2
            best = next((c for c in range(start, len(lines)) if lines[c].cy > middle), len(lines))
            best = max(best, start)
        runs.append(lines[start:best])
        start = best
    runs.append(lines[start:])
    return runs


def row_cells(text_lines: list[Line], grade: GradeLine | None, width: int) -> list[str]:
    text = "\n".join(ln.text for ln in sorted(text_lines, key=lambda ln: (ln.t, ln.l)))
    return [text, *(grade.cells if grade else [""] * (width - 1))]


class RowBuilder:
    """Pending text lines -> rows, each closed by the grades printed after it."""

    def __init__(self, vocabulary: Vocabulary, page: int, width: int, face: str) -> None:
        self.vocabulary, self.page, self.width = vocabulary, page, width
        self.face = face  # the face the table's recommendations are printed in
        self.rows: list[Row] = []
        self.misplaced = 0  # rows whose grade is not level with their text
        self.last_lines: list[Line] = []  # the previous row's text lines

    def _label(self, line: Line) -> bool:
        """A line in another face than the recommendations (bold, bold italic): a label."""
        return line.font != self.face

    def _section(self, lines: list[Line]) -> None:
        text = joined(lines, self.vocabulary)
        if text.endswith(":"):
            self.rows.append(Row([text, *[""] * (self.width - 1)], [box(self.page, lines)]))
        else:
            self.rows.append(Row([text] * self.width, [box(self.page, lines)]))

    def _leading_sections(self, lines: list[Line]) -> list[Line]:
        """Bold blocks opening the lines become section rows; the rest is returned."""
        lines = sorted(lines, key=lambda ln: (ln.t, ln.l))
        while lines and self._label(lines[0]):
            block = [lines[0]]
            for line in lines[1:]:
                if self._label(line) and line.t - block[-1].b < 0.9 * line.size:
                    block.append(line)
                else:
                    break
            rest = lines[len(block) :]
            if not rest:
                break
            self._section(block)
            lines = rest
        return lines

    def _tail(self, lines: list[Line]) -> list[Line]:
        """A line printed after the previous row's grade but sitting right under that row's
        unfinished sentence (closer to it than to the lines below) is its last line."""
        lines = sorted(lines, key=lambda ln: (ln.t, ln.l))
        while len(lines) > 1 and self.last_lines and self.rows:
            previous = max(self.last_lines, key=lambda ln: ln.b)
            line, following = lines[0], lines[1]
            unfinished = not previous.text.rstrip().endswith((".", ";", ":"))
            gap, next_gap = line.t - previous.b, following.t - line.b
            if not (unfinished and 0 <= gap < 0.8 * line.size and gap < next_gap):
                break
            self.last_lines.append(line)
            row = self.rows[-1]
            row.cells[0] = "\n".join(ln.text for ln in sorted(self.last_lines, key=lambda ln: ln.t))
            row.boxes = [box(self.page, self.last_lines, [])] + row.boxes[1:]
            lines = lines[1:]
        return lines

    def add(self, pending: list[Line], grades: list[GradeLine]) -> None:
        lines = self._leading_sections(self._tail(pending))
        if not lines:
            for grade in grades:
                self.rows.append(
                    Row(row_cells([], grade, self.width), [box(self.page, [], grade.words)])
                )
                self.misplaced += 1
            return
        if len(grades) == 1:
            lines = self._single_bullet_stem(lines)
        runs = [lines] if len(grades) == 1 else split_among(lines, grades)
        ordered = sorted(grades, key=lambda g: g.cy) if len(grades) > 1 else grades
        for index, (run, grade) in enumerate(zip(runs, ordered, strict=True)):
            if index == 0 and len(grades) > 1:
                run = self._stem(run)
            if not run:
                self.misplaced += 1
                self.rows.append(
                    Row(row_cells([], grade, self.width), [box(self.page, [], grade.words)])
                )
                continue
            top, bottom = min(ln.t for ln in run), max(ln.b for ln in run)
            slack = 0.6 * run[0].size
            if not (top - slack <= grade.cy <= bottom + slack):
                self.misplaced += 1
            self.rows.append(
                Row(
                    row_cells(run, grade, self.width),
                    [box(self.page, run, grade.words)],
                    sorted(run, key=lambda ln: (ln.t, ln.l)),
                    graded=True,
                )
            )
            self.last_lines = list(run)

    def _single_bullet_stem(self, lines: list[Line]) -> list[Line]:
        """A stem ("In patients with X:") over one bullet closed by one grade: the bullets
        that follow are graded rows of their own, so the stem is a row of its own."""
        bullets = [i for i, ln in enumerate(lines) if ln.starts_with_bullet]
        if len(bullets) == 1 and bullets[0] > 0:
            return self._stem(lines)
        return lines

    def _stem(self, run: list[Line]) -> list[Line]:
        """Lines before the first bullet that end with ":" are the bullets' stem row."""
        first = next((i for i, ln in enumerate(run) if ln.starts_with_bullet), None)
        if not first:
            return run
        stem = run[:first]
        if stem[-1].text.rstrip().endswith(":"):
            text = "\n".join(ln.text for ln in stem)
            self.rows.append(Row([text, *[""] * (self.width - 1)], [box(self.page, stem)]))
            return run[first:]
        return run

    def trailing(self, pending: list[Line]) -> None:
        """Bold lines after the last grade: a section the next piece's rows fall under."""
        lines = sorted(pending, key=lambda ln: (ln.t, ln.l))
        if lines and all(self._label(ln) for ln in lines) and len(lines) <= 3:
            self._section(lines)
