"""Row recovery on real guideline PDFs, no model weights (run by hand, never in CI).

    .venv/bin/python benchmarks/real_pdfs.py --corpus DIR [--only STEM ...] [--json OUT]
        [--misses N] [--reader text-layer|auto|tableformer] [--words docling-parse|pdfplumber]

DIR holds ``pdfdocs/`` (the guideline PDFs) and ``mddocs/`` (the same guidelines converted
to Markdown by another tool, same file stems); or give ``--pdfs`` and ``--mds``. The files
are copyrighted and never committed. For every PDF that has a Markdown twin, the script
runs ``cardio rows`` (same functions and settings; ``--reader`` overrides
``docling.pdf_reader``) in a child process, and compares its rows with the Markdown's
class/level-bearing table rows:

- expected rows: every pipe-table line with a class (I, IIa, IIb, III) cell directly
  followed by a level (A, B, C) cell after its text cell; a level repeated in a further
  cell (a duplicated column) is one row, two pairs on one line (a CABG | PCI comparison)
  are two rows of the same text. A text cell that the Markdown repeats down k graded lines
  and that holds k bullets ("stem: • a • b") is the k-th bullet with its stem on the k-th
  line (the Markdown writes a merged cell once per row it spans);
- text is compared letters only (NFKC, lower-case, a-z): the two conversions differ in
  markers, hyphenation, citation numbers and spacing. Similarity = difflib ratio >= 0.92;
- recovered: an expected row with a PDF row of similar text and the same class and level
  (a row is compared by its extraction text, its printed text and where else it is
  printed); agreement: of the expected rows whose text was found, those with the same
  class and level; extra: PDF rows similar to no expected row (of which "in md": similar
  to some other Markdown table cell, e.g. a row whose level the Markdown lost);
- pages: rows with at least one page number; seconds of the conversion itself (timed in
  the child around ``cardio rows``' functions), of the whole child process (Python start-up
  and imports included) and its peak memory (max RSS).

The expectation shares no code with the reader (a line scan written here and in
benchmarks/real_corpus.py).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLASSES = {"I", "IIa", "IIb", "III"}
LEVELS = {"A", "B", "C"}
THRESHOLD = 0.92
_BULLET = re.compile(r"\s*[•\uf0b7\uf0a7▪◦‣·]\s*")


def letters(text: str) -> str:
    """The comparison form: letters only."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    return re.sub(r"[^a-z]", "", text)


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [c.strip() for c in body.split("|")]


def _plain(cell: str) -> str:
    return re.sub(r"<br\s*/?>", " ", cell, flags=re.IGNORECASE)


@dataclass
class Expected:
    text: str
    klass: str
    level: str
    line: int


def markdown_rows(markdown: str) -> tuple[list[Expected], list[str]]:
    """(class/level-bearing rows, every table cell text) of a Markdown file."""
    graded: list[tuple[int, str, list[tuple[str, str]]]] = []
    cells_seen: list[str] = []
    for number, line in enumerate(markdown.splitlines(), 1):
        if not line.lstrip().startswith("|"):
            continue
        cells = [c for c in _cells(line) if c]
        cells_seen += [_plain(c) for c in cells if len(c) > 20]
        pairs = []
        text = ""
        for i in range(1, len(cells) - 1):
            if cells[i] in CLASSES and cells[i + 1] in LEVELS:
                before = [c for c in cells[:i] if c not in CLASSES | LEVELS]
                if before:
                    text = text or before[-1]
                    pairs.append((cells[i], cells[i + 1]))
        if pairs:
            graded.append((number, text, pairs))
    expected: list[Expected] = []
    i = 0
    while i < len(graded):
        j = i
        while j + 1 < len(graded) and graded[j + 1][1] == graded[i][1]:
            j += 1
        run = graded[i : j + 1]
        parts = _BULLET.split(_plain(run[0][1]))
        stem, items = parts[0].strip(), [p.strip() for p in parts[1:] if p.strip()]
        split = len(run) > 1 and len(items) == len(run)
        for k, (number, text, pairs) in enumerate(run):
            shown = f"{stem} {items[k]}" if split else _plain(text)
            expected += [Expected(shown, c, lv, number) for c, lv in pairs]
        i = j + 1
    return expected, cells_seen


# --------------------------------------------------------------------------- one guideline


@dataclass
class Score:
    name: str
    expected: int = 0
    text_found: int = 0
    recovered: int = 0
    rows_out: int = 0
    extra: int = 0
    extra_in_md: int = 0
    with_pages: int = 0
    tables: int = 0
    seconds: float = 0.0  # cardio rows' functions on this PDF (convert + rows)
    process_seconds: float = 0.0  # the child process, Python start-up and imports included
    cpu_seconds: float = 0.0  # the child's CPU time (user + system): stable on a busy machine
    peak_mb: float = 0.0
    failed: str = ""
    misses: list[str] = field(default_factory=list)
    wrong_grade: list[str] = field(default_factory=list)
    extras: list[str] = field(default_factory=list)


class _Matcher:
    """Letters-only texts, searched for ratios >= THRESHOLD (length prefilter first)."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = [letters(t) for t in texts]
        self.exact: dict[str, list[int]] = {}
        for index, text in enumerate(self.texts):
            self.exact.setdefault(text, []).append(index)

    def similar(self, text: str) -> list[int]:
        key = letters(text)
        if not key:
            return []
        found = list(self.exact.get(key, []))
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(key)
        for index, other in enumerate(self.texts):
            if other == key or not other:
                continue
            short, long_ = sorted((len(other), len(key)))
            if short < 0.85 * long_:
                continue
            matcher.set_seq1(other)
            if matcher.real_quick_ratio() < THRESHOLD or matcher.quick_ratio() < THRESHOLD:
                continue
            if matcher.ratio() >= THRESHOLD:
                found.append(index)
        return found


def row_texts(row: dict) -> list[str]:
    texts = [row["row_text"], row.get("printed_text") or ""]
    texts += [p.get("printed_text") or "" for p in row.get("also_at", [])]
    return [t for t in texts if t]


def score(name: str, rows: list[dict], markdown: str, keep: int) -> Score:
    expected, md_cells = markdown_rows(markdown)
    result = Score(name, expected=len(expected), rows_out=len(rows))
    result.with_pages = sum(1 for r in rows if r.get("pages"))
    owners: list[int] = []
    texts: list[str] = []
    for index, row in enumerate(rows):
        for text in row_texts(row):
            owners.append(index)
            texts.append(text)
    matcher = _Matcher(texts)
    matched_rows: set[int] = set()
    for item in expected:
        hits = {owners[i] for i in matcher.similar(item.text)}
        matched_rows |= hits
        if not hits:
            if len(result.misses) < keep:
                result.misses.append(
                    f"line {item.line} [{item.klass}/{item.level}] {item.text[:150]}"
                )
            continue
        result.text_found += 1
        if any(rows[h]["class"] == item.klass and rows[h]["level"] == item.level for h in hits):
            result.recovered += 1
        elif len(result.wrong_grade) < keep:
            got = sorted({f"{rows[h]['class']}/{rows[h]['level']}" for h in hits})
            result.wrong_grade.append(
                f"line {item.line} [{item.klass}/{item.level}] got {got}: {item.text[:120]}"
            )
    md_matcher = _Matcher(md_cells)
    for index, row in enumerate(rows):
        if index in matched_rows:
            continue
        result.extra += 1
        if any(md_matcher.similar(t) for t in row_texts(row)):
            result.extra_in_md += 1
        if len(result.extras) < keep:
            result.extras.append(
                f"{row['id']} p{row.get('pages')} [{row['class']}/{row['level']}] "
                f"{row['row_text'][:150]}"
            )
    return result


def convert_one(
    pdf: Path, out: Path, reader: str | None, words: str = "docling-parse"
) -> tuple[float, float, float, str]:
    """Run `cardio rows`'s functions on one PDF in a child process: its wall seconds, CPU
    seconds, peak MB (max RSS from wait4) and error line."""
    code = (
        "import json, sys, time\n"
        "from pathlib import Path\n"
        "from cardio_assets.cli.rows import document_rows\n"
        "from cardio_assets.logic.table_rows import row_json\n"
        "reader = sys.argv[3] or None\n"
        "if sys.argv[4] == 'pdfplumber':\n"
        "    sys.path.insert(0, 'benchmarks')\n"
        "    import pdfplumber_words, cardio_assets.logic.pdf_tables as tables_module\n"
        "    tables_module.read_pages = pdfplumber_words.read_pages\n"
        "started = time.perf_counter()\n"
        "tables, result = document_rows(Path(sys.argv[1]), pdf_reader=reader)\n"
        "seconds = time.perf_counter() - started\n"
        "rows = [row_json(r) for r in result.rows]\n"
        "out = {'rows': rows, 'tables': len(tables), 'seconds': seconds}\n"
        "Path(sys.argv[2]).write_text(json.dumps(out))\n"
    )
    env = dict(os.environ)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(pdf), str(out), reader or "", words],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    error = process.stderr.read() if process.stderr else ""
    process.returncode = os.waitstatus_to_exitcode(status)
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    cpu = usage.ru_utime + usage.ru_stime
    failed = "" if process.returncode == 0 else (error.strip().splitlines() or ["failed"])[-1]
    return seconds, cpu, peak_mb, failed


def print_table(scores: list[Score]) -> None:
    head = (
        f"{'guideline':<52} {'md rows':>7} {'recov':>6} {'share':>6} {'agree':>6} "
        f"{'rows':>5} {'extra':>5} {'extra%':>6} {'in md':>5} {'pages':>6} {'s':>5} "
        f"{'proc s':>6} {'cpu s':>5} {'MB':>5}"
    )
    print(head)
    print("-" * len(head))

    def line(name, e, found, rec, rows, extra, in_md, pages, seconds, proc, cpu, mb, flag=""):
        print(
            f"{name[:52]:<52} {e:>7} {rec:>6} {rec / max(e, 1):>6.1%} "
            f"{rec / max(found, 1):>6.1%} {rows:>5} {extra:>5} {extra / max(rows, 1):>6.1%} "
            f"{in_md:>5} {pages / max(rows, 1):>6.1%} {seconds:>5.1f} {proc:>6.1f} "
            f"{cpu:>5.1f} {mb:>5.0f}{flag}"
        )

    for s in scores:
        flag = f"  FAILED: {s.failed}" if s.failed else ""
        line(
            s.name, s.expected, s.text_found, s.recovered, s.rows_out, s.extra,
            s.extra_in_md, s.with_pages, s.seconds, s.process_seconds, s.cpu_seconds,
            s.peak_mb, flag,
        )  # fmt: skip
    print("-" * len(head))
    line(
        "TOTAL",
        sum(s.expected for s in scores),
        sum(s.text_found for s in scores),
        sum(s.recovered for s in scores),
        sum(s.rows_out for s in scores),
        sum(s.extra for s in scores),
        sum(s.extra_in_md for s in scores),
        sum(s.with_pages for s in scores),
        max((s.seconds for s in scores), default=0),
        max((s.process_seconds for s in scores), default=0),
        max((s.cpu_seconds for s in scores), default=0),
        max((s.peak_mb for s in scores), default=0),
    )
    print(
        "share: expected rows recovered with the same class and level; agree: of the expected "
        "rows whose text was found, same class and level; extra%: of the rows produced; "
        "in md: extra rows similar to another Markdown table cell; pages: rows with page "
        "numbers; s: seconds of cardio rows' functions on the PDF; proc s: the whole child "
        "process (Python start-up and imports included); cpu s: its CPU seconds (user + "
        "system; what wall time would be on an idle core); MB: its peak RSS (TOTAL: the "
        "largest of each)."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="folder holding pdfdocs/ and mddocs/")
    parser.add_argument("--pdfs", type=Path, help="folder of guideline PDFs")
    parser.add_argument("--mds", type=Path, help="folder of their Markdown conversions")
    parser.add_argument("--only", nargs="*", default=[], help="file stems to include")
    parser.add_argument("--json", type=Path, help="write per-guideline results as JSON")
    parser.add_argument("--misses", type=int, default=0, help="print up to N misses/extras each")
    parser.add_argument("--reader", choices=["auto", "tableformer", "text-layer"])
    parser.add_argument(
        "--words",
        choices=["docling-parse", "pdfplumber"],
        default="docling-parse",
        help="word source of the text-layer reader (pdfplumber: benchmarks/pdfplumber_words.py)",
    )
    args = parser.parse_args(argv)
    pdfs = args.pdfs or (args.corpus / "pdfdocs" if args.corpus else None)
    mds = args.mds or (args.corpus / "mddocs" if args.corpus else None)
    if not pdfs or not mds or not pdfs.is_dir() or not mds.is_dir():
        parser.error("give --corpus DIR (with pdfdocs/ and mddocs/) or --pdfs and --mds")
    files = sorted(p for p in pdfs.glob("*.pdf") if (mds / f"{p.stem}.md").is_file())
    if args.only:
        files = [f for f in files if f.stem in set(args.only)]
    if not files:
        parser.error("no PDF with a Markdown twin")
    scores = []
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"real_pdfs_{os.getpid()}"
    work.mkdir(mode=0o700, exist_ok=True)
    for pdf in files:
        print(f"... {pdf.name}", file=sys.stderr, flush=True)
        out = work / f"{len(scores)}.json"
        seconds, cpu, peak, failed = convert_one(pdf, out, args.reader, args.words)
        markdown = (mds / f"{pdf.stem}.md").read_text(encoding="utf-8")
        if failed:
            result = Score(pdf.stem, expected=len(markdown_rows(markdown)[0]), failed=failed)
        else:
            data = json.loads(out.read_text(encoding="utf-8"))
            result = score(pdf.stem, data["rows"], markdown, args.misses)
            result.tables = data["tables"]
            result.seconds = data["seconds"]
            out.unlink()
        result.process_seconds, result.cpu_seconds, result.peak_mb = seconds, cpu, peak
        scores.append(result)
    work.rmdir()
    print_table(scores)
    if args.misses:
        for s in scores:
            if s.misses or s.extras or s.wrong_grade:
                print(f"\n## {s.name}")
                for text in s.misses:
                    print(f"  MISS  {text}")
                for text in s.wrong_grade:
                    print(f"  GRADE {text}")
                for text in s.extras:
                    print(f"  EXTRA {text}")
    if args.json:
        args.json.write_text(json.dumps([asdict(s) for s in scores], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
