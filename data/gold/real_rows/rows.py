"""Real-row gold: how a gold row's text is rebuilt from the fetched corpus (no guideline text
is stored in the repository, only locators and offsets).

A gold row is located by (file, line[, stem_line]) in the development Markdown of the
real-ingestion issue. Its text, the text the annotators saw and every offset refers to, is:

- the first non-empty cell of that pipe-table line, ``<br>`` read as a space, whitespace
  collapsed (the same reading as benchmarks/real_corpus.py's independent scan);
- for a bullet row, the stem line's text (up to and including its last ":") + " " + the
  bullet's text, because a bullet alone says nothing without its stem;
- for the ``bullet``-th item of a cell that holds a stem and "•" items (converters repeat
  such a merged cell on every row it spans, each row with its own class and level): the
  cell's text before its first "•" + " " + that item's text.

``sha256`` of that text is stored with the locator, so a changed corpus is detected.
Shared by data/gold/real_rows/select_rows.py and benchmarks/real_rows.py; no pipeline code.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

CLASSES = {"I", "IIa", "IIb", "III"}
LEVELS = {"A", "B", "C"}


def cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


def cell_text(cell: str) -> str:
    return " ".join(re.sub(r"<br\s*/?>", " ", cell, flags=re.IGNORECASE).split())


def first_cell(line: str) -> str:
    filled = [c for c in cells(line) if c]
    return cell_text(filled[0]) if filled else ""


def class_level(line: str) -> tuple[str, str] | None:
    """The (class, level) pair a line ends with: it says whether the line bears a class.
    Which pair belongs to the gold text is ``own_class_level``'s answer."""
    filled = [c for c in cells(line) if c]
    if len(filled) >= 3 and filled[-2] in CLASSES and filled[-1] in LEVELS:
        return filled[-2], filled[-1]
    return None


def own_class_level(line: str) -> tuple[str, str] | None:
    """The (class, level) of the line's first cell, the gold text. Two recommendations
    printed side by side ("|text|IIb|C|text|I|A|") each have their own pair: the first
    cell's is the pair right after it, not the one the line ends with. A line whose other
    cells are all classes and levels (one row, a class per therapy column) keeps the last
    pair, as before."""
    pair = class_level(line)
    filled = [c for c in cells(line) if c]
    if (
        pair is not None
        and len(filled) >= 6
        and filled[1] in CLASSES
        and filled[2] in LEVELS
        and any(c not in CLASSES | LEVELS for c in filled[3:-2])
    ):
        return filled[1], filled[2]
    return pair


def stem_part(text: str) -> str:
    """The stem of a bullet list: the text up to and including its last colon."""
    return text[: text.rindex(":") + 1] if ":" in text else text


def bullet_items(text: str) -> tuple[str, list[str]]:
    """(stem, items) of a cell written as "stem: • item • item"."""
    stem, *items = text.split("•")
    return stem.strip(), [item.strip() for item in items if item.strip()]


def row_text(
    lines: list[str], line: int, stem_line: int | None = None, bullet: int | None = None
) -> str:
    """The gold text of the row at 1-based ``line`` (with its stem when given)."""
    text = first_cell(lines[line - 1])
    if bullet is not None:
        stem, items = bullet_items(text)
        return f"{stem} {items[bullet - 1]}".strip()
    if stem_line is not None:
        text = f"{stem_part(first_cell(lines[stem_line - 1]))} {text}"
    return text


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_lines(corpus: Path, file: str) -> list[str]:
    return (corpus / file).read_text(encoding="utf-8").splitlines()
