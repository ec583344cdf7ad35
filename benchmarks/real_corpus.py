"""Row recovery on real converter-made guideline Markdown (run by hand, never in CI).

    .venv/bin/python benchmarks/real_corpus.py --corpus DIR [--only NAME ...] [--json OUT]
        [--misses N]

DIR holds guideline Markdown files (e.g. the development files of the real-ingestion
issue, fetched from their public snapshot; the text is copyrighted and never committed).
For every ``*.md`` file the script runs the same conversion and row building as
``cardio rows`` and compares the rows with an *independent* expectation:

- expected rows: every pipe-table line whose last two non-empty cells are a class (I, IIa,
  IIb, III) and a level (A, B, C); text = the first non-empty cell with ``<br>`` read as a
  space;
- a recovered row matches when its class and level are the same and its text equals the
  expected text after folding both the same way: Unicode NFKC, lower-case, dashes and
  quotes folded, citation reference numbers removed, whitespace collapsed.

The expectation shares no code with the ingestion (it is a line scan written here). Prints
a per-guideline table (expected rows, recovered with the right class and level, extra rows,
failures, seconds) and the totals.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import traceback
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLASSES = {"I", "IIa", "IIb", "III"}
LEVELS = {"A", "B", "C"}

# --------------------------------------------------------------------------- expectation

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u0002"), "-")
_QUOTES = {
    **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032"), "'"),
    **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033"), '"'),
}
# citation numbers: "…outcomes.94,103", "…recurrence.131-137", "ECG shows25-39:", "[12]"
_CITATION = re.compile(
    r"(?<=[a-z\)\]%.,;:'\"])\s?\d{1,3}(?:\s?[-,]\s?\d{1,3})*(?=[\s.,;:)]|$)|\[\d+(?:[-,]\d+)*\]"
)


def fold(text: str, *, tolerant: bool = True) -> str:
    """The comparison form of a row text (both sides fold the same way).

    Strict (the issue's definition): NFKC, lower-case, dashes and quotes folded, citation
    numbers removed, whitespace collapsed. Tolerant (the default) also reads the font glyph
    pairs "<_" / ">_" as ≤ / ≥ and ignores hyphens between letters, so a row whose
    line-break hyphenation was joined ("con- sidered" -> "considered") still matches its
    printed line; both are reported."""
    text = unicodedata.normalize("NFKC", text or "").translate(_DASHES).translate(_QUOTES)
    text = text.replace("\u00ad", "").lower()
    if tolerant:
        text = re.sub(r"<\s?_", "≤", re.sub(r">\s?_", "≥", text))
        text = re.sub(r"(?<=[a-z])-\s*(?=[a-z])", "", text)
    text = _CITATION.sub(" ", text)
    text = re.sub(r"[^\w%<>=≤≥+/'\"-]+", " ", text)
    return " ".join(text.split())


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


def expected_rows(markdown: str) -> list[tuple[str, str, str, int]]:
    """(text, class, level, line number) of every class/level-bearing pipe-table line."""
    found = []
    for number, line in enumerate(markdown.splitlines(), 1):
        if not line.lstrip().startswith("|"):
            continue
        cells = [c for c in _cells(line) if c]  # empty cells (a blank leading column) ignored
        if len(cells) < 3:
            continue
        klass, level = cells[-2], cells[-1]
        if klass in CLASSES and level in LEVELS:
            text = re.sub(r"<br\s*/?>", " ", cells[0], flags=re.IGNORECASE)
            found.append((text, klass, level, number))
    return found


_MARKED = re.compile(r"^(I{1,3}|IIa|IIb|[ABC])[a-h](?:,[a-h])*$")


def _grade_cell(cell: str) -> str:
    """A class or level cell, footnote letters after it allowed ("IIbd" -> "IIb")."""
    cell = cell.replace(" ", "")
    if cell in CLASSES or cell in LEVELS:
        return cell
    marked = _MARKED.match(cell)
    return marked.group(1) if marked and marked.group(1) in CLASSES | LEVELS else ""


def graded_lines(markdown: str) -> list[tuple[str, str, list[str]]]:
    """A wider, second scan that explains extra rows: every pipe-table line holding a class
    cell followed by a level cell anywhere after its first cell (a repeated level column, two
    recommendations side by side, footnote letters on the grade), as (class, level, folded
    text cells of the line). Also independent of the ingestion."""
    found = []
    for line in markdown.splitlines():
        if not line.lstrip().startswith("|"):
            continue
        cells = [c for c in _cells(line) if c]
        grades = [_grade_cell(c) for c in cells]
        texts = [
            fold(re.sub(r"<br\s*/?>", " ", c, flags=re.IGNORECASE))
            for c, g in zip(cells, grades, strict=True)
            if not g
        ]
        texts = [t for t in texts if len(t) >= 12]
        for j in range(1, len(cells) - 1):
            if grades[j] in CLASSES and grades[j + 1] in LEVELS and texts:
                found.append((grades[j], grades[j + 1], texts))
    return found


def _same_text(cells: list[str], texts: list[str]) -> bool:
    """A cell of the line is one of the row's texts, or (a long one) inside it."""
    return any(cell == t or (len(cell) >= 25 and cell in t) for cell in cells for t in texts)


def on_graded_line(texts: list[str], klass: str, level: str, lines) -> bool:
    """Whether a row (its folded texts) is a text cell of a graded line with its grades."""
    return any(
        (line_class, line_level) == (klass, level) and _same_text(cells, texts)
        for line_class, line_level, cells in lines
    )


# --------------------------------------------------------------------------- measurement


@dataclass
class GuidelineScore:
    name: str
    expected: int = 0
    recovered: int = 0
    recovered_strict: int = 0
    rows_out: int = 0
    extra: int = 0
    extra_graded: int = 0  # extra rows that carry a class and a level
    extra_on_graded_lines: int = 0  # of those, rows printed on a line the scan skips
    graded_lines: int = 0  # class/level pairs the wider scan finds
    graded_lines_recovered: int = 0  # of those, pairs a row with that text and grade covers
    failed: str = ""
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)
    extras: list[str] = field(default_factory=list)


def document_rows(path: Path) -> list:
    """Rows exactly as ``cardio rows`` makes them (same functions, same settings)."""
    from cardio_assets.cli.rows import document_rows as rows_of

    return rows_of(path)[1].rows


def _warm_up() -> None:
    """Import Docling and build its converter once, so per-guideline seconds are the
    guideline's own (a first conversion otherwise pays ~5 s of start-up)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.md"
        probe.write_text("| Recommendations | Class | Level |\n|---|---|---|\n| x | I | C |\n")
        document_rows(probe)


def row_texts(row) -> list[str]:
    """Texts a recovered row may be compared by: as printed (a bullet without its stem)
    and as extraction sees it."""
    texts = [row.row_text]
    printed = getattr(row, "printed_text", None)
    if printed:
        texts.append(printed)
    texts += [place.printed_text for place in getattr(row, "also_at", []) if place.printed_text]
    return texts


def score_guideline(path: Path, keep: int) -> GuidelineScore:
    score = GuidelineScore(path.stem)
    markdown = path.read_text(encoding="utf-8")
    expected = expected_rows(markdown)
    wide = graded_lines(markdown)
    score.expected = len(expected)
    started = time.perf_counter()
    try:
        rows = document_rows(path)
    except Exception as exc:  # a failure is a result here, not a crash of the benchmark
        score.failed = f"{type(exc).__name__}: {exc}"[:300]
        score.seconds = time.perf_counter() - started
        traceback.print_exc(file=sys.stderr)
        return score
    score.seconds = time.perf_counter() - started
    score.rows_out = len(rows)
    for tolerant in (False, True):
        recovered: Counter[tuple[str, str, str]] = Counter()
        row_keys: list[set[tuple[str, str, str]]] = []
        for row in rows:
            keys = {
                (fold(t, tolerant=tolerant), row.class_ or "", row.level or "")
                for t in row_texts(row)
            }
            row_keys.append(keys)
            for key in keys:
                recovered[key] += 1
        hits = sum(1 for t, c, lv, _ in expected if recovered[(fold(t, tolerant=tolerant), c, lv)])
        if not tolerant:
            score.recovered_strict = hits
            continue
        score.recovered = hits
        graded = [
            (row.class_ or "", row.level or "", [fold(t) for t in row_texts(row)]) for row in rows
        ]
        score.graded_lines = len(wide)
        score.graded_lines_recovered = sum(
            1
            for klass, level, cells in wide
            if any((c, lv) == (klass, level) and _same_text(cells, ts) for c, lv, ts in graded)
        )
        wanted = {(fold(t), c, lv) for t, c, lv, _ in expected}
        for text, klass, level, number in expected:
            if not recovered[(fold(text), klass, level)] and len(score.misses) < keep:
                score.misses.append(f"line {number}: [{klass}/{level}] {text[:160]}")
        for row, keys, (_, _, folded) in zip(rows, row_keys, graded, strict=True):
            if not keys & wanted:
                score.extra += 1
                seen = ""
                if row.class_ and row.level:
                    score.extra_graded += 1
                    if on_graded_line(folded, row.class_, row.level, wide):
                        score.extra_on_graded_lines += 1
                        seen = " (on a graded line)"
                if len(score.extras) < keep:
                    score.extras.append(
                        f"{row.id} [{row.class_}/{row.level}]{seen} {row.row_text[:160]}"
                    )
    return score


def print_table(scores: list[GuidelineScore]) -> None:
    head = (
        f"{'guideline':<58} {'expected':>8} {'recovered':>9} {'share':>7} {'strict':>7} "
        f"{'extra':>6} {'extra%':>7} {'graded':>6} {'online':>6} {'other%':>6} {'s':>6}"
    )
    print(head)
    print("-" * len(head))

    def line(name, e, r, rs, x, xg, xl, seconds, flag=""):
        print(
            f"{name[:58]:<58} {e:>8} {r:>9} {r / max(e, 1):>7.1%} {rs / max(e, 1):>7.1%} "
            f"{x:>6} {x / max(e, 1):>7.1%} {xg:>6} {xl:>6} {(x - xl) / max(e, 1):>6.1%} "
            f"{seconds:>6.1f}{flag}"
        )

    for s in scores:
        flag = "  FAILED: " + s.failed if s.failed else ""
        line(
            s.name,
            s.expected,
            s.recovered,
            s.recovered_strict,
            s.extra,
            s.extra_graded,
            s.extra_on_graded_lines,
            s.seconds,
            flag,
        )
    print("-" * len(head))
    line(
        "TOTAL",
        sum(s.expected for s in scores),
        sum(s.recovered for s in scores),
        sum(s.recovered_strict for s in scores),
        sum(s.extra for s in scores),
        sum(s.extra_graded for s in scores),
        sum(s.extra_on_graded_lines for s in scores),
        sum(s.seconds for s in scores),
    )
    wide = sum(s.graded_lines for s in scores)
    wide_hits = sum(s.graded_lines_recovered for s in scores)
    print(
        f"wider scan: {wide} class/level pairs on pipe lines (any column, repeated levels, "
        f"side by side); {wide_hits} ({wide_hits / max(wide, 1):.1%}) covered by a row with "
        "that text, class and level"
    )
    failed = [s.name for s in scores if s.failed]
    slowest = max(scores, key=lambda s: s.seconds, default=None)
    print(
        f"failures: {len(failed)}{' (' + ', '.join(failed) + ')' if failed else ''}; "
        f"slowest: {slowest.name if slowest else '-'} {slowest.seconds if slowest else 0:.1f} s"
    )
    print(
        "share: tolerant match (glyph pairs and joined hyphenation allowed); strict: the "
        "issue's fold only. extra: rows matching no expected line; graded: of those, rows "
        "with a class and a level; online: of those, rows whose text is a cell of a pipe "
        "line holding that class and level where the scan does not look (a repeated level "
        "column, two recommendations side by side, a grade with a footnote letter); other%: "
        "extra rows not explained so, as a share of expected."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, type=Path, help="folder of guideline .md files")
    parser.add_argument("--only", nargs="*", default=[], help="file stems to include")
    parser.add_argument("--json", type=Path, help="write per-guideline results as JSON")
    parser.add_argument(
        "--misses", type=int, default=0, help="print up to N missed and N extra rows each"
    )
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        parser.error(f"--corpus {args.corpus}: not a folder")
    files = sorted(args.corpus.glob("*.md"))
    if args.only:
        files = [f for f in files if f.stem in set(args.only)]
    if not files:
        parser.error(f"--corpus {args.corpus}: no .md files")
    started = time.perf_counter()
    _warm_up()
    print(f"start-up (imports, converter): {time.perf_counter() - started:.1f} s", file=sys.stderr)
    scores = []
    for path in files:
        print(f"... {path.name}", file=sys.stderr, flush=True)
        scores.append(score_guideline(path, args.misses))
    print_table(scores)
    if args.misses:
        for s in scores:
            if s.misses or s.extras:
                print(f"\n## {s.name}")
                for line in s.misses:
                    print(f"  MISS  {line}")
                for line in s.extras:
                    print(f"  EXTRA {line}")
    if args.json:
        args.json.write_text(json.dumps([asdict(s) for s in scores], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
