"""Does the span tagger help on a guideline it never saw? Leave-one-guideline-out, by hand:

    .venv/bin/python benchmarks/span_tagger_by_guideline.py --corpus DIR/mddocs \
        [--score-splits test,blind3] [--rows-cache FILE]

For each development guideline: train a model without that guideline's gold rows
(train_span_tagger.py --leave-out-guideline), then score that guideline's rows of
``--score-splits`` with the rules alone and with that model (real_rows.py --guideline).
Leave-one-split-out keeps rows of the same guideline in training, so it measures the tagger
on guidelines it learned; this measures it the way a new guideline meets it. Prints a
per-guideline table and row-weighted means; takes a few minutes (two extraction runs and
one training per guideline).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from real_rows import SPLITS, gold_entries, guideline_stem, in_split, unknown_splits  # noqa: E402
from train_span_tagger import TRAINING_SPLITS  # noqa: E402

PYTHON = sys.executable
METRICS = (("concepts", "concepts"), ("actions", "actions"), ("or_group_pairs", "OR pairs"))


def _guidelines(splits: str) -> list[str]:
    return sorted({guideline_stem(g["file"]) for g in gold_entries() if in_split(g, splits)})


def _run(args: argparse.Namespace, script: str, options: list[str], failure: str) -> str:
    """Run a sibling benchmark script on the corpus (and rows cache); its stdout."""
    command = [PYTHON, str(ROOT / "benchmarks" / script), "--corpus", str(args.corpus), *options]
    if args.rows_cache:
        command += ["--rows-cache", str(args.rows_cache)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{failure}:\n{done.stderr[-2000:]}")
    return done.stdout


def _score(args: argparse.Namespace, guideline: str, tagger: str) -> dict:
    options = ["--split", args.score_splits, "--guideline", guideline]
    options += ["--span-tagger", tagger, "--json"]
    return json.loads(_run(args, "real_rows.py", options, f"real_rows.py failed for {guideline}"))


def _train(args: argparse.Namespace, guideline: str, out: Path) -> None:
    options = ["--splits", args.train_splits, "--leave-out-guideline", guideline]
    _run(
        args,
        "train_span_tagger.py",
        [*options, "--out", str(out)],
        f"training without {guideline} failed",
    )


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

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "without.crfsuite"
        guidelines = _guidelines(args.score_splits)
        if not guidelines:
            parser.error(f"no gold rows in --score-splits {args.score_splits}")
        for number, guideline in enumerate(guidelines, 1):
            print(f"[{number}/{len(guidelines)}] {guideline}", file=sys.stderr, flush=True)
            _train(args, guideline, model)
            rules, tagged = _score(args, guideline, "none"), _score(args, guideline, str(model))
            results.append(
                {"guideline": guideline, "rows": rules["rows"], "rules": rules, "tagger": tagged}
            )

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
    for key, label in METRICS:
        rules = sum(r["rules"][key]["f1"] * r["rows"] for r in results) / total
        tagged = sum(r["tagger"][key]["f1"] * r["rows"] for r in results) / total
        print(
            f"{label}, row-weighted mean over {total} rows: rules {rules:.3f}, tagger {tagged:.3f}"
        )
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
