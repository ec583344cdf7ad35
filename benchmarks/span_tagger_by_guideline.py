"""Does the span tagger help on a guideline it never saw? Leave-one-guideline-out, by hand:

    .venv/bin/python benchmarks/span_tagger_by_guideline.py --corpus DIR/mddocs \
        [--score-splits test,blind3] [--rows-cache FILE]

For each development guideline: train a model without that guideline's gold rows, then
score that guideline's rows of ``--score-splits`` with the rules alone and with that model.
Leave-one-split-out keeps rows of the same guideline in training, so it measures the tagger
on guidelines it learned; this measures it the way a new guideline meets it. Prints a
per-guideline table, row-weighted means and the pooled score of all rows.

Everything runs in one process: the rules read every training row once (their drafts are
the tagger's features), then each guideline costs one training and two extraction passes
over its own rows, through the same stages as ``cardio extract`` (cli/stages.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_rows  # noqa: E402
from real_rows import SPLITS, gold_entries, guideline_stem, in_split, unknown_splits  # noqa: E402
from train_span_tagger import TRAINING_SPLITS, guideline_sequences, sample_sequences  # noqa: E402

METRICS = (("concepts", "concepts"), ("actions", "actions"), ("or_group_pairs", "OR pairs"))


def _guidelines(splits: str) -> list[str]:
    return sorted({guideline_stem(g["file"]) for g in gold_entries() if in_split(g, splits)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="the snapshot's mddocs/")
    parser.add_argument("--train-splits", default=TRAINING_SPLITS)
    parser.add_argument(
        "--score-splits",
        default=TRAINING_SPLITS,
        help="rows scored (default: the training splits themselves, each guideline's rows "
        "scored by the model trained without them); test,blind3 for rows never trained on",
    )
    parser.add_argument("--rows-cache", type=Path, help="as in real_rows.py (outside the repo)")
    parser.add_argument("--json-out", type=Path, help="also write the per-guideline scores")
    args = parser.parse_args(argv)
    for option in ("train_splits", "score_splits"):
        if unknown_splits(getattr(args, option)):
            parser.error(
                f"--{option.replace('_', '-')}: each part must be one of {[*SPLITS, 'all']}"
            )
    guidelines = _guidelines(args.score_splits)
    if not guidelines:
        parser.error(f"no gold rows in --score-splits {args.score_splits}")

    from cardio_assets.evaluation import evaluate
    from cardio_assets.logic.lexicon.span_tagger import train
    from resources.lexicon_extractor import LexiconExtractorResource

    predictor = real_rows.InProcessExtraction()
    extractor = LexiconExtractorResource(span_tagger="none").build(searcher=predictor.store)
    print("the rules read the training rows once ...", file=sys.stderr, flush=True)
    sample = sample_sequences(extractor)
    real = guideline_sequences(extractor, args.corpus, args.train_splits, args.rows_cache)

    results, pooled = [], {"rules": ([], []), "tagger": ([], [])}
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "without.crfsuite"
        for number, guideline in enumerate(guidelines, 1):
            print(f"[{number}/{len(guidelines)}] {guideline}", file=sys.stderr, flush=True)
            train([*sample, *(seq for f, seq in real if guideline_stem(f) != guideline)], model)
            gold_rows = real_rows.load_gold(args.corpus, args.score_splits, guidelines=guideline)
            inputs, _ = real_rows.cached_extraction_rows(
                gold_rows, args.corpus, "pipeline", args.rows_cache
            )
            scores = {
                "rules": predictor.score(gold_rows, inputs, "none"),
                # every row: this model never learned the guideline it is scored on
                "tagger": predictor.score(
                    gold_rows,
                    inputs,
                    lexicon=LexiconExtractorResource(
                        span_tagger=str(model), span_tagger_scope="all_guidelines"
                    ),
                ),
            }
            for name, score in scores.items():
                pooled[name][0].extend(score.pop("gold"))
                pooled[name][1].extend(score.pop("pred"))
            results.append({"guideline": guideline, "rows": len(gold_rows), **scores})

    header = f"{'guideline':<44}{'rows':>5}  " + "  ".join(
        f"{label + ' rules->tagger':>24}" for _, label in METRICS
    )
    print(f"span tagger left out per guideline; scored splits {args.score_splits}")
    print(header)
    for r in results:
        cells = "  ".join(
            f"{r['rules'][key]['f1']:>11.3f} -> {r['tagger'][key]['f1']:.3f}" for key, _ in METRICS
        )
        print(f"{r['guideline'][:43]:<44}{r['rows']:>5}  {cells}")
    total = sum(r["rows"] for r in results)
    whole = {name: evaluate(*pair, relaxed=True).summary() for name, pair in pooled.items()}
    for key, label in METRICS:
        rules = sum(r["rules"][key]["f1"] * r["rows"] for r in results) / total
        tagged = sum(r["tagger"][key]["f1"] * r["rows"] for r in results) / total
        print(
            f"{label} over {total} rows: row-weighted mean rules {rules:.3f}, tagger "
            f"{tagged:.3f}; all rows pooled rules {whole['rules'][key]['f1']:.3f}, tagger "
            f"{whole['tagger'][key]['f1']:.3f}"
        )
    if args.json_out:
        report = {"per_guideline": results, "pooled": whole}
        args.json_out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
