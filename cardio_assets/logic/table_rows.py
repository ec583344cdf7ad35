"""TableRecords -> one RowRecord per recommendation (pure logic, no Dagster).

A recommendation table is one whose rows carry classes and levels, found by the cells'
content (cardio_assets/logic/table_shapes.py); other tables are kept out of the rows and
reported with the reason. Within a recommendation table:

- a row spanning the table is a section heading for the rows after it; so is a short
  label repeated down a left column;
- a row without class and level is not a recommendation: it is the stem of the bullets
  that follow when it ends with ":", otherwise a note (kept out, counted);
- a bullet row carries its stem: the row text extraction sees is stem + bullet, and the row
  keeps both parts; a merged "stem: • a • b" cell that a converter repeated on each row it
  spans gives the k-th row the k-th item;
- two recommendations side by side become two rows;
- the row text is repaired (cardio_assets/logic/row_text.py): line breaks and hyphenation
  joined, font artifacts, citation numbers moved to ``references``;
- a recommendation printed twice in one guideline (same text, class and level) is one row
  with both source locations.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field

from cardio_assets.exports import write_jsonl
from cardio_assets.logic.abbreviation_lists import merged, used_in
from cardio_assets.logic.markup import clean_text
from cardio_assets.logic.row_text import (
    RepairedText,
    Vocabulary,
    footnote_marker_spans,
    header_marker_letters,
    printed_text,
    repair_row_text,
    table_marker_letters,
)
from cardio_assets.logic.table_shapes import (
    GradeColumns,
    TableShape,
    label_spans_text,
    read_grade,
    table_shape,
)
from cardio_assets.records import RowLocation, RowRecord, TableRecord


@dataclass
class TableReport:
    """What one table was taken for, and why (for metadata and `cardio rows`)."""

    table_id: str
    title: str | None
    kind: str
    reason: str
    rows: int = 0
    notes: int = 0  # rows without class and level that were not stems


@dataclass
class RowsResult:
    rows: list[RowRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tables: list[TableReport] = field(default_factory=list)
    other_rows: list[RowRecord] = field(default_factory=list)  # rows of other tables
    duplicates: int = 0  # rows merged into an earlier identical recommendation

    def count(self, kind: str) -> int:
        return sum(1 for t in self.tables if t.kind == kind)


_CARET_MARKER = re.compile(r"\^(?:[a-z]|\*{1,3}|[†‡§¶#]|\d{1,2})(?=$|[\s,.;:)^])")
_BULLET = re.compile(r"^\s*(?:[•·▪◦‣]|[-–]\s)\s*")
_ITEM_SPLIT = re.compile(r"\s*\n?\s*[•·▪◦‣]\s*")


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
    """Text without '^a' markers (superscripts Docling kept apart; the footnotes travel
    with the row). Letters glued to words as printed stay."""
    return " ".join(_CARET_MARKER.sub("", text).split())


def _caret_markers(text: str) -> list[str]:
    return [m.group(0)[1:] for m in _CARET_MARKER.finditer(text)]


def fold_row_text(text: str) -> str:
    """The identity of a recommendation's text: same words, whatever the spacing, dashes,
    quotes or case (two printings of one recommendation compare equal)."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    text = re.sub(r"[\u2018\u2019\u201c\u201d'\"]", "", text)
    return " ".join(re.sub(r"[^\w%<>=≤≥+/.-]+", " ", text).split())


# --------------------------------------------------------------------------- one table


@dataclass
class _Pending:
    """A stem waiting for its bullets."""

    text: str
    printed: str


@dataclass
class _Cursor:
    section: str | None
    label: str | None = None
    stem: _Pending | None = None


def _items(text: str) -> tuple[str, list[str]]:
    """(stem, items) of "stem: • a • b"; items empty when the text has no bullets."""
    parts = _ITEM_SPLIT.split(text)
    if len(parts) < 2:
        return text, []
    return parts[0].strip(), [p.strip() for p in parts[1:] if p.strip()]


def _group_text(cells: list[str], group: GradeColumns) -> str:
    """The row's text cells, a cell that repeats its left neighbour read once (a converter
    writes a cell spanning two text columns into both)."""
    texts: list[str] = []
    for j in group.text:
        cell = cells[j] if j < len(cells) else ""
        if cell.strip() and (not texts or cell.strip() != texts[-1].strip()):
            texts.append(cell)
    return "\n".join(texts)


def _merged_bullets(rows: list[list[str]], shape: TableShape, markers: list[str]) -> dict:
    """Row index -> (k, items) for a merged "stem: • a • b" text cell repeated on the rows it
    spans, when its items are as many as those rows' classes."""
    found: dict[int, tuple[int, str, list[str]]] = {}
    if len(shape.groups) != 1:
        return found
    group = shape.groups[0]
    i = 0
    while i < len(rows):
        text = _group_text(rows[i], group)
        j = i
        while j + 1 < len(rows) and text and _group_text(rows[j + 1], group) == text:
            j += 1
        graded = [k for k in range(i, j + 1) if read_grade(rows[k][group.klass], markers).klass]
        stem, items = _items(text)
        if len(graded) >= 2 and len(items) == len(graded):
            for number, k in enumerate(graded):
                found[k] = (number, stem, items)
        i = j + 1
    return found


def rows_from_table(
    table: TableRecord,
    *,
    guideline_title: str,
    vocabulary: Vocabulary | None = None,
    class_labels: list[str] | None = None,  # only to read footnote letters off the header
    level_labels: list[str] | None = None,
) -> RowsResult:
    result = RowsResult()
    vocabulary = vocabulary or Vocabulary.from_texts(c for row in table.body for c in row)
    markers = list(table.footnote_markers)
    labels = [*(class_labels or []), *(level_labels or [])]
    lettered = header_marker_letters(table.header, vocabulary, labels)
    header = [
        strip_marker(" ".join(h.split())[:-1] if c in lettered else h, markers)
        for c, h in enumerate(table.header)
    ]
    row_letters = table_marker_letters(markers, bool(lettered))
    shape = table_shape(header, table.body, markers, table.caption or "")
    where = f"guideline '{table.guideline}', file {table.source_file}, table {table.table_id}"
    report = TableReport(table.table_id, table.caption, shape.kind, shape.reason)
    result.tables.append(report)
    if shape.kind != "recommendations":
        result.other_rows.extend(_inspection_rows(table, header, guideline_title))
        return result
    merged = _merged_bullets(table.body, shape, markers)
    cursor = _Cursor(section=table.heading)
    row_index = 0
    for r, cells in enumerate(table.body):
        if not any(c.strip() for c in cells):
            continue
        if _spanning(cells):
            cursor.section = strip_marker(" ".join(cells[0].split()), markers)
            cursor.stem = None
            continue
        if shape.label_column is not None:
            label = " ".join(cells[shape.label_column].split())
            spanned = label_spans_text(cells, shape.label_column, shape.groups[0].text)
            if label and label != cursor.label and not spanned:
                cursor.label = label
                cursor.section = strip_marker(label, markers)
        for group in shape.groups:
            made = _row(
                table, cells, r, group, shape, markers, merged.get(r), cursor, where, result
            )
            if made is None:
                continue
            text, printed, stem, bullet, klass, level, refs = made
            if stem is not None and bullet is not None:
                # each part repaired on its own: a stem's citation numbers end the stem
                parts = [repair_row_text(stem, vocabulary), repair_row_text(bullet, vocabulary)]
                joiner = ": " if group.action_label else " "
                stem, bullet = parts[0].text, parts[1].text
                repaired = RepairedText(
                    text=stem.rstrip(" .:") + joiner if group.action_label else stem + joiner,
                    references=parts[0].references + parts[1].references,
                    repairs=sorted(set(parts[0].repairs + parts[1].repairs)),
                )
                repaired.text = (repaired.text + bullet).strip()
            else:
                repaired = repair_row_text(text, vocabulary)
            row_text = strip_inline_markers(repaired.text)
            spans = footnote_marker_spans(row_text, row_letters, vocabulary, markers)
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
                    printed_text=printed,
                    stem=stem,
                    bullet=bullet,
                    references=repaired.references + refs,
                    footnote_markers=sorted(
                        set(_caret_markers(repaired.text)) | {letter for letter, _, _ in spans}
                    ),
                    marker_spans=sorted({(start, end) for _, start, end in spans}),
                    repairs=repaired.repairs,
                    class_=klass,
                    level=level,
                    section=cursor.section,
                    pages=_row_pages(table, r),
                    boxes=table.row_boxes[r] if r < len(table.row_boxes) else [],
                    source_file=table.source_file,
                    source_sha256=table.source_sha256,
                    cell_sha256=hashlib.sha256(
                        json.dumps(cells, ensure_ascii=False).encode("utf-8")
                    ).hexdigest(),
                )
            )
            row_index += 1
            report.rows += 1
    return result


def _only_grades(text: str, markers: list[str]) -> bool:
    """A text made only of one or two class and level tokens ("C", "IIa C")."""
    words = text.split()
    grades = [read_grade(w, markers) for w in words] if len(words) <= 2 else []
    return bool(grades) and all(g.klass or g.level for g in grades)


def _row_pages(table: TableRecord, r: int) -> list[int]:
    """The pages the row itself is printed on when the reader says (PDF text layer),
    else the table's pages."""
    if r < len(table.row_boxes) and table.row_boxes[r]:
        return sorted({box.page for box in table.row_boxes[r]})
    return table.pages


def _spanning(cells: list[str]) -> bool:
    """A section heading row: one text over every column, or a short heading-like text in
    the first cell alone (a long sentence or a "...:" stem there is not a heading)."""
    filled = [c for c in cells if c.strip()]
    if len(cells) < 2 or not filled:
        return False
    if len(filled) == len(cells) and len(set(filled)) == 1:
        return True
    first = " ".join(cells[0].split())
    only_first = bool(first) and all(not c.strip() for c in cells[1:])
    return only_first and len(first) <= 120 and not first.endswith((".", ":", ";"))


def _row(
    table: TableRecord,
    cells: list[str],
    r: int,
    group: GradeColumns,
    shape: TableShape,
    markers: list[str],
    merged: tuple[int, str, list[str]] | None,
    cursor: _Cursor,
    where: str,
    result: RowsResult,
) -> tuple[str, str, str | None, str | None, str | None, str | None, list[str]] | None:
    """(text, printed, stem, bullet, class, level, references) of one recommendation."""
    text = _group_text(cells, group)
    grade = read_grade(cells[group.klass] if group.klass < len(cells) else "", markers)
    level = grade.level
    if group.level is not None and group.level < len(cells):
        level = read_grade(cells[group.level], markers).level or level
    klass = grade.klass
    printed = printed_text(text)
    if _only_grades(text, markers):
        # a grade cell spanning the text column too ("C | C | C"): no recommendation here
        return None
    if not text.strip():
        if klass or level:
            result.warnings.append(
                f"{where}: row {r} has a class/level but no recommendation text; skipped"
            )
        return None
    if not klass and not level and not grade.invalid:
        stem, items = _items(text)
        if text.rstrip().endswith(":") or (items and stem.endswith(":")):
            cursor.stem = _Pending(stem if items else text.rstrip(), printed)
        else:
            cursor.stem = None
            result.tables[-1].notes += 1
        return None
    if grade.invalid:
        result.warnings.append(
            f"{where}: row {r}: class cell {grade.invalid!r} is not a class (I, IIa, IIb, "
            "III); row kept with class = null"
        )
    if not level:
        result.warnings.append(
            f"{where}: row {r}: no level of evidence; row kept with level = null"
        )
    stem = bullet = None
    if group.action_label:
        # a comparison table: the shared text is the stem, the graded action its bullet
        stem, bullet = text, group.action_label
        text = f"{stem}: {bullet}"
    elif merged is not None:
        number, stem, items = merged
        bullet = items[number]
        text = f"{stem} {bullet}".strip()
    else:
        lead, items = _items(text)
        if items and lead.endswith(":"):
            # "stem: • one item" in this cell; later bullet rows continue the same stem
            cursor.stem = _Pending(lead, printed)
            # several items: the criteria of one row, one after the other
            bullet = "; ".join(item.rstrip(" ;.,") for item in items) + "."
            stem = lead
            text = f"{stem} {bullet}"
        elif cursor.stem is not None and (_BULLET.match(text) or text[:1].islower()):
            stem, bullet = cursor.stem.text, _BULLET.sub("", text)
            text = f"{stem} {bullet}"
        else:
            cursor.stem = None
    refs = _extra_references(table, cells, shape)
    return text, printed, stem, bullet, klass, level, refs


def _extra_references(table: TableRecord, cells: list[str], shape: TableShape) -> list[str]:
    """Numbers of a reference column after the class and level ("Ref." header)."""
    refs: list[str] = []
    for j in shape.extra_columns:
        label = table.header[j].lower() if j < len(table.header) else ""
        if j < len(cells) and label.startswith("ref"):
            refs += [x for x in re.split(r"[,\s]+", cells[j]) if x]
    return refs


def _inspection_rows(table: TableRecord, header: list[str], title: str) -> list[RowRecord]:
    """Rows of a table that is not a recommendation table, for `cardio rows --all-tables`."""
    rows = []
    for index, cells in enumerate(table.body):
        text = " | ".join(printed_text(c) for c in cells if c.strip())
        if not text:
            continue
        rows.append(
            RowRecord(
                id=f"{table.guideline}:{table.table_id}:r{index}",
                guideline=table.guideline,
                guideline_title=title,
                table_id=table.table_id,
                table_title=table.caption,
                row_index=index,
                header=header,
                footnotes=table.footnotes,
                row_text=text,
                printed_text=text,
                section=table.heading,
                pages=table.pages,
                source_file=table.source_file,
                source_sha256=table.source_sha256,
            )
        )
    return rows


# --------------------------------------------------------------------------- whole guideline


def _location(row: RowRecord) -> RowLocation:
    return RowLocation(
        table_id=row.table_id,
        table_title=row.table_title,
        row_index=row.row_index,
        section=row.section,
        pages=row.pages,
        cell_sha256=row.cell_sha256,
        printed_text=row.printed_text,
    )


def merge_duplicates(rows: list[RowRecord]) -> tuple[list[RowRecord], int]:
    """One row per recommendation: a later printing of the same text, class and level adds
    its location to the first (a summary table and the section table, for instance)."""
    first: dict[tuple[str, str | None, str | None], RowRecord] = {}
    kept: list[RowRecord] = []
    merged = 0
    for row in rows:
        key = (fold_row_text(row.row_text), row.class_, row.level)
        if key in first:
            first[key].also_at.append(_location(row))
            merged += 1
            continue
        first[key] = row
        kept.append(row)
    return kept, merged


def guideline_vocabulary(tables: list[TableRecord]) -> Vocabulary:
    """The words of a guideline's tables (cells, titles, footnotes): what text repairs ask
    whether a joined or split form is a word of this guideline."""
    texts: list[str] = []
    for table in tables:
        texts += [table.caption or "", table.heading or "", *table.footnotes]
        texts += [c for row in [table.header, *table.body] for c in row]
    return Vocabulary.from_texts(texts)


def guideline_rows(
    tables: list[TableRecord],
    *,
    guideline_title: str,
    class_labels: list[str] | None = None,
    level_labels: list[str] | None = None,
    vocabulary: Vocabulary | None = None,
) -> RowsResult:
    """Recommendation rows of one guideline's tables, duplicates merged, with a report per
    table; a guideline without recommendation tables gives a warning saying what was seen."""
    result = RowsResult()
    vocabulary = vocabulary or guideline_vocabulary(tables)
    definitions = merged(t.abbreviations for t in tables)
    for table in tables:
        part = rows_from_table(
            table,
            guideline_title=guideline_title,
            vocabulary=vocabulary,
            class_labels=class_labels,
            level_labels=level_labels,
        )
        own = merged([table.abbreviations, definitions])
        for row in part.rows:
            row.abbreviations = used_in(row.row_text, own)
        result.rows.extend(part.rows)
        result.warnings.extend(part.warnings)
        result.tables.extend(part.tables)
        result.other_rows.extend(part.other_rows)
    result.rows, result.duplicates = merge_duplicates(result.rows)
    if not tables:
        result.warnings.append("no tables found: 0 rows")
    elif not result.rows:
        files = {t.table_id: t.source_file for t in tables}
        seen = "; ".join(
            f"file {files[t.table_id]}, table {t.table_id} ({t.title or 'untitled'}): {t.reason}"
            for t in result.tables
        )
        result.warnings.append(
            f"guideline '{tables[0].guideline}': no recommendation table found among "
            f"{len(tables)} table(s) (one whose rows carry a class and a level): {seen}"
        )
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
    "printed_text",
    "stem",
    "bullet",
    "references",
    "footnote_markers",
    "marker_spans",
    "abbreviations",
    "also_at",
    "boxes",
)


def row_json(row: RowRecord) -> dict:
    """The public one-line-per-row shape (``cardio rows`` and outputs/<guideline>/rows.jsonl)."""
    data = row.model_dump(mode="json", by_alias=True)
    return {key: data[key] for key in ROW_JSON_KEYS}


def write_rows_jsonl(
    rows: list[RowRecord],
    target,
    *,
    table_kinds: dict[str, str] | None = None,
    extra: list[RowRecord] = (),
) -> None:
    """The rows, one JSON line each; with ``table_kinds`` every line also names its table's
    kind and ``extra`` rows (of tables that are not recommendation tables) follow."""
    if table_kinds is None:
        write_jsonl(target, (row_json(row) for row in rows))
        return
    write_jsonl(
        target,
        (
            {**row_json(row), "table_kind": table_kinds.get(row.table_id, "recommendations")}
            for row in [*rows, *extra]
        ),
    )
