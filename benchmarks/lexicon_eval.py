"""Lexicon backend vs the gold annotation: extraction + merge on the sample rows, scored.

    .venv/bin/python benchmarks/lexicon_eval.py [--rows ROWS.jsonl] [--no-terminology]
        [--out PRED.jsonl] [--errors]

Rows come from ``--rows`` (RowRecord JSON lines, the ``cardio rows`` format) or, by
default, from the registry's sample guidelines converted with Docling and cut into rows
by the pipeline's own table/row logic (ccs-sample, hf-sample). The terminology is the
bundled SNOMED CT sample store unless ``--no-terminology``. Prints the metrics of
cardio_assets/evaluation.py and the run time; writes predictions in ``cardio extract``
format when ``--out`` is given. No SNOMED ids are predicted here (grounding is a later
stage), so the SNOMED line reads n/a.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardio_assets.config import load_abbreviations  # noqa: E402
from cardio_assets.evaluation import evaluate, format_report, load_jsonl  # noqa: E402
from cardio_assets.logic.lexicon import LexiconExtractor, term_lookup_from_searcher  # noqa: E402
from cardio_assets.logic.merged_concepts import merge_row, prediction_line  # noqa: E402
from cardio_assets.records import RowRecord  # noqa: E402

# partition -> guideline whose gold rows it repeats
SAMPLE_PARTITIONS = {
    "ccs-sample": "ccs-sample",
    "hf-sample": "hf-sample",
    "ccs-sample-docling": "ccs-sample",
    "hf-sample-docx": "hf-sample",
}


def sample_rows(partitions: list[str]) -> list[RowRecord]:
    """The sample guidelines' rows exactly as the pipeline cuts them."""
    from docling.document_converter import DocumentConverter

    from cardio_assets.config import load_pipeline_settings, load_registry
    from cardio_assets.logic.guideline_tables import guideline_tables
    from cardio_assets.logic.table_rows import guideline_rows

    registry = {g.id: g for g in load_registry().guidelines}
    settings = load_pipeline_settings()
    converter = DocumentConverter()
    rows: list[RowRecord] = []
    for guideline_id in partitions:
        entry = registry[guideline_id]
        tables = guideline_tables(
            guideline_id,
            [ROOT / s for s in entry.sources],
            lambda path: converter.convert(path).document,
            footnote_marker_pattern=settings.docling.footnote_marker_pattern,
            continuation_words=settings.docling.continuation_words,
        )
        result = guideline_rows(
            tables,
            guideline_title=entry.title,
            class_labels=settings.rows.class_labels,
            level_labels=settings.rows.level_labels,
        )
        rows.extend(result.rows)
    return rows


def _caption(caption: str | None) -> str:
    """Table caption without "(continued)", lower-case: the key of a table across formats."""
    text = (caption or "").lower().replace("(continued)", "")
    return " ".join(text.split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path)
    parser.add_argument(
        "--rows-from-gold",
        action="store_true",
        help="build the rows from the gold file itself (row_text, class, level; no footnotes), "
        "e.g. for benchmarks/heldout/heldout_gold.jsonl",
    )
    parser.add_argument("--gold", type=Path, default=ROOT / "data/gold/gold.jsonl")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--no-terminology", action="store_true")
    parser.add_argument("--errors", action="store_true")
    parser.add_argument(
        "--partitions",
        default="ccs-sample,hf-sample",
        help="comma-separated sample partitions (all four: "
        "ccs-sample,hf-sample,ccs-sample-docling,hf-sample-docx)",
    )
    args = parser.parse_args()

    if args.rows_from_gold:
        rows = [
            RowRecord(
                id=f"{g['guideline']}:gold:r{i}",
                guideline=g["guideline"],
                guideline_title=g.get("guideline_title") or g["guideline"],
                table_id="gold",
                table_title=g.get("table_caption"),
                row_index=i,
                header=["Recommendations", "Class", "Level"],
                row_text=g["row_text"],
                level=g.get("level"),
                **{"class": g.get("class")},
            )
            for i, g in enumerate(load_jsonl(args.gold))
        ]
    elif args.rows:
        rows = [RowRecord.model_validate_json(x) for x in args.rows.read_text().splitlines() if x]
    else:
        rows = sample_rows([p for p in args.partitions.split(",") if p])
    abbreviations = load_abbreviations(ROOT / "configs/abbreviations.txt")
    lookup = None
    if not args.no_terminology:
        from cardio_assets.terminology.location import open_store

        lookup = term_lookup_from_searcher(open_store(), abbreviations.mapping)
    extractor = LexiconExtractor(abbreviations, lookup)

    started = time.perf_counter()
    predictions = []
    for row in rows:
        main_pass = extractor.extract(row, "MAIN")
        population_pass = extractor.extract(row, "POPULATION")
        merged = merge_row(main_pass, population_pass, abbreviations)
        predictions.append(
            prediction_line(
                row.row_text,
                row.guideline,
                merged,
                row_id=row.id,
                class_=row.class_,
                level=row.level,
                table_caption=row.table_title,
            )
        )
    elapsed = time.perf_counter() - started
    if args.out:
        args.out.write_text("".join(json.dumps(p) + "\n" for p in predictions))
    print(f"lexicon backend, terminology={'off' if lookup is None else 'sample store'}")
    print(f"{len(rows)} rows extracted (2 passes + merge) in {elapsed:.2f} s")
    gold = load_jsonl(args.gold)
    primary = [
        p
        for p in predictions
        if SAMPLE_PARTITIONS.get(p["guideline"], p["guideline"]) == p["guideline"]
    ]
    if primary:
        names = sorted({p["guideline"] for p in primary})
        report = evaluate([g for g in gold if g["guideline"] in names], primary)
        print(f"\n== headline: {', '.join(names)} (one prediction per gold row)")
        print(format_report(report))
        if args.errors:
            for err in report.errors:
                print(
                    f"\n{err['row_text']}\n  missing: {err['missing']}\n  extra:   {err['extra']}"
                )
    # The DOCX / Docling-JSON editions repeat gold rows (the JSON only Table 9): each is
    # scored on its own against the gold rows of the tables it contains.
    for partition in dict.fromkeys(p["guideline"] for p in predictions):
        target = SAMPLE_PARTITIONS.get(partition, partition)
        if target == partition:
            continue
        part = [p for p in predictions if p["guideline"] == partition]
        captions = {_caption(p.get("table_caption")) for p in part}
        gold_rows = [
            g
            for g in gold
            if g["guideline"] == target and _caption(g.get("table_caption")) in captions
        ]
        report = evaluate(gold_rows, part, {partition: target})
        print(f"\n== {partition} (gold: {target}, {len(gold_rows)} rows of its tables)")
        print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
