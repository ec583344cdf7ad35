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

from cardio_assets.evaluation import evaluate, format_report, load_jsonl  # noqa: E402
from cardio_assets.logic.abbrev_expansion import Abbreviations  # noqa: E402
from cardio_assets.logic.lexicon import LexiconExtractor, term_lookup_from_searcher  # noqa: E402
from cardio_assets.logic.merged_concepts import merge_row, prediction_line  # noqa: E402
from cardio_assets.records import RowRecord  # noqa: E402

SAMPLE_GUIDELINES = ("ccs-sample", "hf-sample")


def sample_rows() -> list[RowRecord]:
    """The sample guidelines' rows exactly as the pipeline cuts them."""
    from docling.document_converter import DocumentConverter

    from cardio_assets.logic.docling_tables import guideline_tables
    from cardio_assets.logic.table_rows import guideline_rows
    from cardio_assets.settings import load_pipeline_settings, load_registry

    registry = {g.id: g for g in load_registry().guidelines}
    settings = load_pipeline_settings()
    converter = DocumentConverter()
    rows: list[RowRecord] = []
    for guideline_id in SAMPLE_GUIDELINES:
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path)
    parser.add_argument("--gold", type=Path, default=ROOT / "data/gold/gold.jsonl")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--no-terminology", action="store_true")
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args()

    if args.rows:
        rows = [RowRecord.model_validate_json(x) for x in args.rows.read_text().splitlines() if x]
    else:
        rows = sample_rows()
    abbreviations = Abbreviations.from_file(ROOT / "configs/abbreviations.txt")
    lookup = None
    if not args.no_terminology:
        from resources.snomed_store import open_store

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
            )
        )
    elapsed = time.perf_counter() - started
    if args.out:
        args.out.write_text("".join(json.dumps(p) + "\n" for p in predictions))
    report = evaluate(load_jsonl(args.gold), predictions)
    print(f"lexicon backend, terminology={'off' if lookup is None else 'sample store'}")
    print(f"{len(rows)} rows extracted (2 passes + merge) in {elapsed:.2f} s")
    print(format_report(report))
    if args.errors:
        for err in report.errors:
            print(f"\n{err['row_text']}\n  missing: {err['missing']}\n  extra:   {err['extra']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
