"""Extraction quality on real guideline rows, against the blind real-row gold (by hand).

    .venv/bin/python benchmarks/real_rows.py --corpus DIR [--split dev|test|blind2|blind3|blind4|all]
        [--rows-from pipeline|gold] [--backend lexicon|llm] [--model NAME]
        [--pred OUT.jsonl] [--errors] [--json]

DIR is the fetched ``mddocs/`` folder of the development corpus (the text is copyrighted:
it is read from there, never from the repository). The gold (data/gold/real_rows/gold.jsonl)
locates each row (file, line, stem line or bullet) and holds offsets into the row text; the
script rebuilds the text, checks its sha256, then:

- ``--rows-from pipeline`` (default): runs ``cardio rows``' conversion on each file and
  takes the row it made for the gold row (matched by text; a gold row the ingestion did
  not recover falls back to the gold text and is counted), so extraction reads what the
  pipeline would give it (repaired text, references apart, the table's footnotes);
- ``--rows-from gold``: the gold row text as printed, header "Recommendations | Class |
  Level", no footnotes (the same input for any version of the code);

runs ``cardio extract`` on those rows and scores the output with cardio_assets/evaluation.py
(concepts, per role, actions, OR pairs, parameters, negation, population), twice: strict
(same role, equal normalized names) and relaxed, the headline (same role, and the names
agree or the predicted span overlaps the gold span by half), plus the SNOMED CT
id accuracy the issue asks for: of the gold concepts found whose gold id is verified exact
and present in the bundled store, the share predicted with that id.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "data" / "gold" / "real_rows"))

from rows import read_lines, row_text, sha256  # noqa: E402
from select_rows import SPLITS  # noqa: E402

if TYPE_CHECKING:
    from resources.lexicon_extractor import LexiconExtractorResource

GOLD = ROOT / "data" / "gold" / "real_rows" / "gold.jsonl"
HEADER = ["Recommendations", "Class", "Level"]


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"<\s?_", "≤", re.sub(r">\s?_", "≥", text))
    text = re.sub(r"(?<=[a-z])-\s*(?=[a-z])", "", text)
    text = re.sub(r"[\u2010-\u2015\u2212\u0002]", "-", text)
    return " ".join(re.sub(r"[^a-z0-9%<>≤≥]+", " ", text).split())


def guideline_id(file: str) -> str:
    """The id the pipeline gives this file's guideline (the inbox's and `cardio rows`')."""
    from cardio_assets.partitions import inbox_guideline_id

    return inbox_guideline_id(Path(file))


def load_gold(
    corpus: Path, split: str, guidelines: str = "", leave_out_guidelines: str = ""
) -> list[tuple[dict, str]]:
    """Gold rows of ``split`` with their texts rebuilt (hash-checked); ``guidelines`` keeps
    only rows of those files, ``leave_out_guidelines`` drops them (file stems, commas)."""
    keep, drop = _stems(guidelines), _stems(leave_out_guidelines)
    entries = gold_entries()
    unknown = (keep | drop) - {guideline_stem(g["file"]) for g in entries}
    if unknown:  # a typo would score or train on the wrong rows without a word
        raise SystemExit(f"no gold rows for guideline {', '.join(sorted(unknown))}")
    rows = []
    cache: dict[str, list[str]] = {}
    for gold in entries:
        if not in_split(gold, split):
            continue
        stem = guideline_stem(gold["file"])
        if (keep and stem not in keep) or stem in drop:
            continue
        path = corpus / gold["file"]
        if not path.is_file():
            raise SystemExit(f"{path}: missing; --corpus must be the fetched mddocs/ folder")
        lines = cache.setdefault(gold["file"], read_lines(corpus, gold["file"]))
        text = row_text(lines, gold["line"], gold.get("stem_line"), gold.get("bullet"))
        if sha256(text) != gold["sha256"]:
            raise SystemExit(f"{gold['id']}: the row text differs from the annotated one")
        rows.append((gold, text))
    return rows


def gold_entries() -> list[dict]:
    """The committed gold lines (locators and annotations, no text)."""
    return [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]


def in_split(gold: dict, split: str) -> bool:
    """``split``: one split, several joined by commas, or "all"."""
    return split == "all" or gold["split"] in split.split(",")


def unknown_splits(split: str) -> set[str]:
    return set(split.split(",")) - {*SPLITS, "all"}


def guideline_stem(name: str) -> str:
    """A guideline file's name without ".md" (names may hold other dots)."""
    return Path(name.strip()).name.removesuffix(".md")


def _stems(names: str) -> set[str]:
    return {guideline_stem(n) for n in names.split(",") if n.strip()}


def _pipeline_rows(corpus: Path, files: set[str]) -> dict[str, list]:
    from cardio_assets.cli.rows import document_rows

    made = {}
    for file in sorted(files):
        print(f"... cardio rows {file}", file=sys.stderr, flush=True)
        made[file] = document_rows(corpus / file)[1].rows
    return made


def _candidate_texts(row) -> list[str]:
    texts = [row.row_text, getattr(row, "printed_text", "") or ""]
    texts += [getattr(p, "printed_text", "") for p in getattr(row, "also_at", [])]
    if getattr(row, "bullet", None):
        texts.append(row.bullet)
    return [t for t in texts if t]


def input_row(gold: dict, text: str, guideline: str, title: str) -> dict:
    """A gold row as `cardio extract` reads it, with the gold text as printed: header
    "Recommendations | Class | Level", no footnotes, no table title or section."""
    return {
        "id": gold["id"],
        "guideline": guideline,
        "guideline_title": title,
        "table_title": None,
        "header": HEADER,
        "footnotes": [],
        "row_text": text,
        "class": gold["class"],
        "level": gold["level"],
        "section": None,
        "table_id": "table_gold",
        "row_index": 0,
        "pages": [],
    }


def extraction_rows(gold_rows: list[tuple[dict, str]], corpus: Path, mode: str):
    """One extraction input row per gold row (id = gold id), and the ids of those the
    ingestion did not recover (their gold text stands in)."""
    inputs, fallbacks = [], []
    made = _pipeline_rows(corpus, {g["file"] for g, _ in gold_rows}) if mode == "pipeline" else {}
    for gold, text in gold_rows:
        base = input_row(
            gold, text, guideline_id(gold["file"]), Path(gold["file"]).stem.replace("_", " ")
        )
        if mode == "pipeline":
            want = _fold(text)
            match = next(
                (
                    r
                    for r in made[gold["file"]]
                    if r.class_ == gold["class"]
                    and any(
                        _fold(t) == want or (want.endswith(_fold(t)) and len(t) > 20)
                        for t in _candidate_texts(r)
                    )
                ),
                None,
            )
            if match is None:
                fallbacks.append(gold["id"])
            else:
                base.update(
                    row_text=match.row_text,
                    header=match.header,
                    footnotes=match.footnotes,
                    table_title=match.table_title,
                    section=match.section,
                )
                for optional in (
                    "abbreviations",
                    "footnote_markers",
                    "marker_spans",
                    "references",
                    "stem",
                ):
                    if hasattr(match, optional):
                        base[optional] = getattr(match, optional)
        inputs.append(base)
    return inputs, fallbacks


def cached_extraction_rows(
    gold_rows: list[tuple[dict, str]], corpus: Path, mode: str, cache: Path | None
) -> tuple[list[dict], int]:
    """extraction_rows, kept by gold id in ``cache`` so that any split can reuse the rows
    an earlier run made; rows the cache lacks (another split, a new one) are made and added."""
    kept: dict = {"mode": mode, "rows": {}, "fallback_ids": []}
    if cache is not None and cache.is_file():
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if kept.get("mode") != mode or "rows" not in kept:
            kept = {"mode": mode, "rows": {}, "fallback_ids": []}

    def stale(gold: dict) -> bool:
        """Not kept, or kept with another class or level than the gold's now (a corrected
        locator): the row is made again, since the pipeline row is matched on its class."""
        row = kept["rows"].get(gold["id"])
        return row is None or (row.get("class"), row.get("level")) != (gold["class"], gold["level"])

    missing = [(gold, text) for gold, text in gold_rows if stale(gold)]
    if missing:
        made, fell_back = extraction_rows(missing, corpus, mode)
        for (gold, _), row in zip(missing, made, strict=True):
            kept["rows"][gold["id"]] = row
        remade = {gold["id"] for gold, _ in missing}
        kept["fallback_ids"] = sorted({*(set(kept["fallback_ids"]) - remade), *fell_back})
        if cache is not None:
            cache.write_text(json.dumps(kept), "utf-8")
    inputs = [kept["rows"][gold["id"]] for gold, _ in gold_rows]
    wanted = {gold["id"] for gold, _ in gold_rows}
    return inputs, len(wanted & set(kept["fallback_ids"]))


def _offset_map(gold_text: str, fed_text: str) -> list[int]:
    """For each character of the fed row text, the position of the same character in the
    gold text (or of its nearest aligned neighbour), from a character alignment."""
    from difflib import SequenceMatcher

    mapping = [0] * (len(fed_text) + 1)
    for tag, g1, g2, f1, f2 in SequenceMatcher(
        None, gold_text, fed_text, autojunk=False
    ).get_opcodes():
        for k in range(f1, f2):
            mapping[k] = g1 + (k - f1) if tag == "equal" else min(g1 + (k - f1), max(g2 - 1, g1))
    mapping[len(fed_text)] = len(gold_text)
    return mapping


def add_prediction_spans(pred: list[dict], gold_rows, inputs: list[dict]) -> None:
    """Character spans (in the gold text) for predicted concepts and actions whose text
    occurs in the row text extraction read, so the relaxed match can compare spans."""
    by_text = {fed["row_text"]: text for (_, text), fed in zip(gold_rows, inputs, strict=True)}
    for line in pred:
        gold_text = by_text.get(line["row_text"])
        if gold_text is None:
            continue
        fed = line["row_text"]
        mapping = _offset_map(gold_text, fed)
        lower = fed.lower()
        for item in [*line.get("concepts", []), *line.get("actions", [])]:
            span = (item.get("text") or "").lower()
            start = lower.find(span) if span else -1
            if start >= 0:
                item["start"] = mapping[start]
                item["end"] = mapping[start + len(span) - 1] + 1


def gold_lines(gold_rows: list[tuple[dict, str]], inputs: list[dict]) -> list[dict]:
    """The gold in the `cardio extract` line format, keyed to the rows fed to extraction."""
    lines = []
    for (gold, _), fed in zip(gold_rows, inputs, strict=True):
        concepts = gold["concepts"]
        lines.append(
            {
                "guideline": fed["guideline"],
                "row_text": fed["row_text"],
                "concepts": [
                    {
                        "role": c["role"],
                        "normalized": c["normalized"],
                        "operator": c["operator"],
                        "threshold": c["threshold"],
                        "unit": c["unit"],
                        "or_group": c["or_group"],
                        "negated": c["negated"],
                        "snomed_id": c["snomed_id"] if c["snomed_status"] == "exact" else None,
                        "snomed_status": c["snomed_status"],
                        "start": c["start"],
                        "end": c["end"],
                    }
                    for c in concepts
                ],
                "actions": [
                    {
                        "role": concepts[i]["role"],
                        "normalized": concepts[i]["normalized"],
                        "class": gold["class"],
                        "level": gold["level"],
                        "polarity": gold["polarity"],
                        "start": concepts[i]["start"],
                        "end": concepts[i]["end"],
                    }
                    for i in gold["actions"]
                ],
                "population": [concepts[i]["normalized"] for i in gold["population"]],
            }
        )
    return lines


def snomed_in_store(gold: list[dict], pred: list[dict], store_ids: set[str]) -> dict:
    """Gold ids verified exact and present in the bundled store, among found concepts."""
    from cardio_assets.evaluation import normalize_row_text

    by_text = {normalize_row_text(p["row_text"]): p for p in pred}
    right = total = unmapped_right = unmapped_total = 0
    for g in gold:
        p = by_text.get(normalize_row_text(g["row_text"]))
        if p is None:
            continue
        found = {(c["role"], (c["normalized"] or "").lower()): c for c in p["concepts"]}
        for c in g["concepts"]:
            hit = found.get((c["role"], (c["normalized"] or "").lower()))
            if hit is None:
                continue
            if c["snomed_status"] == "exact" and c["snomed_id"] in store_ids:
                total += 1
                right += int(str(hit.get("snomed_id") or "") == c["snomed_id"])
            elif c["snomed_status"] == "no_exact_concept":
                unmapped_total += 1
                unmapped_right += int(not hit.get("snomed_id"))
    return {
        "snomed_accuracy_in_store": round(right / total, 4) if total else None,
        "snomed_scored": total,
        "rightly_unmapped": round(unmapped_right / unmapped_total, 4) if unmapped_total else None,
        "unmapped_scored": unmapped_total,
    }


def store_concept_ids() -> set[str]:
    from cardio_assets.terminology.location import open_store

    store = open_store(None)
    from cardio_assets.warehouse import connect

    with connect(store.db_path, read_only=True) as con:
        return {str(r[0]) for r in con.execute("SELECT concept_id FROM concept").fetchall()}


def run_extract(
    inputs: list[dict],
    backend: str,
    model: str | None,
    span_tagger: str | None,
    keep: Path | None = None,
) -> list[dict] | None:
    """`cardio extract` on ``inputs`` (a subprocess, as a user runs it): the prediction
    lines, kept in ``keep`` when given; None (its stderr printed) when it fails."""
    with tempfile.TemporaryDirectory() as tmp:
        rows_file = Path(tmp) / "rows.jsonl"
        rows_file.write_text("".join(json.dumps(r) + "\n" for r in inputs), encoding="utf-8")
        pred_file = keep or Path(tmp) / "pred.jsonl"
        command = [
            str(ROOT / ".venv" / "bin" / "cardio"),
            "extract",
            "--rows",
            str(rows_file),
            "--out",
            str(pred_file),
            "--backend",
            backend,
        ] + (["--model", model] if model else [])
        command += ["--span-tagger", span_tagger] if span_tagger else []
        # (this checkout's code first: a worktree that links another checkout's venv would
        # otherwise import that checkout's code through its editable install)
        pythonpath = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": pythonpath}
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            print(done.stderr[-3000:], file=sys.stderr)
            return None
        return [json.loads(line) for line in pred_file.read_text().splitlines() if line.strip()]


def score(gold_rows: list[tuple[dict, str]], inputs: list[dict], pred: list[dict]):  # type: ignore[no-untyped-def]
    """The relaxed report (the headline), the strict one, and the SNOMED CT id accuracy on
    gold ids in the bundled store."""
    from cardio_assets.evaluation import evaluate

    gold = gold_lines(gold_rows, inputs)
    add_prediction_spans(pred, gold_rows, inputs)
    return (
        evaluate(gold, pred, relaxed=True),
        evaluate(gold, pred),
        snomed_in_store(gold, pred, store_concept_ids()),
    )


def add_extraction_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every gold benchmark passes to `cardio extract` and its report."""
    parser.add_argument("--backend", choices=["lexicon", "llm"], default="lexicon")
    parser.add_argument("--model", default=None)
    parser.add_argument(
        "--span-tagger",
        default=None,
        help="lexicon span tagger model (default: the configured one; 'none' = rules alone)",
    )
    parser.add_argument("--pred", type=Path, help="keep the predictions here")
    parser.add_argument("--errors", action="store_true", help="per-row missed/spurious concepts")
    parser.add_argument("--json", action="store_true")


def print_row_errors(report) -> None:  # type: ignore[no-untyped-def]
    """Each row's missed and spurious concepts (``--errors``)."""
    for err in report.errors:
        print(f"\n{err['row_text']}\n  missing: {err['missing']}\n  extra:   {err['extra']}")


def print_scores(report, strict, extra: dict) -> None:  # type: ignore[no-untyped-def]
    from cardio_assets.evaluation import format_report

    print("relaxed match (same role; names agree or spans overlap by half: evaluation.py)")
    print(format_report(report))
    print("strict match (same role, equal normalized names)")
    print(format_report(strict))
    print(
        f"SNOMED id accuracy, gold ids in the bundled store: "
        f"{extra['snomed_accuracy_in_store']} (of {extra['snomed_scored']}); rightly "
        f"unmapped: {extra['rightly_unmapped']} (of {extra['unmapped_scored']})"
    )


class InProcessExtraction:
    """``cardio extract`` in process, for scripts that extract many times: both lexicon
    passes, merge and grounding with the configured grounding settings, the bundled
    terminology opened once; the span tagger is whatever ``score`` is given."""

    def __init__(self) -> None:
        from cardio_assets.config import (
            load_abbreviations,
            load_grounding_schema,
            load_pipeline_settings,
        )
        from cardio_assets.logic import extraction_runs
        from cardio_assets.terminology.location import open_store

        self.runs = extraction_runs
        self.settings = load_pipeline_settings()
        self.schema = load_grounding_schema()
        self.abbreviations = load_abbreviations()
        self.store = open_store(None)
        self.choice = extraction_runs.choose_backend(self.settings.extraction, "lexicon", None)

    def score(
        self,
        gold_rows: list[tuple[dict, str]],
        inputs: list[dict],
        span_tagger: str = "none",
        lexicon: LexiconExtractorResource | None = None,
    ) -> dict:
        """Relaxed scores of ``gold_rows`` (this script's match) extracted with the rules
        and ``span_tagger`` ('none' = the rules alone), or with the ``lexicon`` resource
        given; with the gold and prediction lines under "gold" and "pred"."""
        from cardio_assets.cli.stages import extract_merge_ground
        from cardio_assets.evaluation import evaluate
        from cardio_assets.records import RowRecord

        rows = [
            RowRecord.model_validate({"guideline_title": fed["guideline"], **fed}) for fed in inputs
        ]
        stages = extract_merge_ground(
            rows,
            self.choice,
            store=self.store,
            abbreviations=self.abbreviations,
            grounding=self.settings.grounding,
            schema=self.schema,
            span_tagger=None if lexicon else span_tagger,
            lexicon=lexicon,
        )
        lines = self.runs.prediction_lines(rows, stages.merged, stages.outcomes)
        pred = [json.loads(self.runs.dumps_line(line)) for line in lines]
        gold = gold_lines(gold_rows, inputs)
        add_prediction_spans(pred, gold_rows, inputs)
        return {"gold": gold, "pred": pred, **evaluate(gold, pred, relaxed=True).summary()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument(
        "--split",
        default="dev",
        help=f"{', '.join(SPLITS)}, all, or several joined by commas (dev,blind2)",
    )
    parser.add_argument(
        "--guideline",
        default="",
        help="only rows of these guideline files (stems or .md names, commas): the score on "
        "one guideline, e.g. one a span tagger was trained without",
    )
    parser.add_argument("--rows-from", choices=["pipeline", "gold"], default="pipeline")
    add_extraction_arguments(parser)
    parser.add_argument(
        "--rows-cache",
        type=Path,
        help="reuse the extraction input rows kept in this file (made on the first run, added to for rows it lacks; delete it after changing the ingestion); it "
        "holds guideline text: keep it outside the repository",
    )
    args = parser.parse_args(argv)

    if unknown_splits(args.split):
        parser.error(f"--split {args.split}: each part must be one of {[*SPLITS, 'all']}")
    gold_rows = load_gold(args.corpus, args.split, guidelines=args.guideline)
    if not gold_rows:
        parser.error(f"no gold rows in split {args.split} for --guideline {args.guideline}")
    cache = args.rows_cache
    inputs, fallbacks = cached_extraction_rows(gold_rows, args.corpus, args.rows_from, cache)
    pred = run_extract(inputs, args.backend, args.model, args.span_tagger, args.pred)
    if pred is None:
        return 1
    report, strict, extra = score(gold_rows, inputs, pred)
    summary = {
        "split": args.split,
        **({"guideline": args.guideline} if args.guideline else {}),
        "rows_from": args.rows_from,
        "rows": len(gold_rows),
        "ingestion_fallbacks": fallbacks,
        "match": "relaxed (role + names agree or span IoU >= 0.5); strict in 'strict'",
        **report.summary(),
        **extra,
        "strict": strict.summary(),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"split {args.split}"
            + (f" ({args.guideline})" if args.guideline else "")
            + f": {len(gold_rows)} rows, rows from {args.rows_from}"
            + (
                f" ({fallbacks} not recovered by the ingestion: gold text used)"
                if fallbacks
                else ""
            )
        )
        print_scores(report, strict, extra)
    if args.errors:
        print_row_errors(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
