"""Extraction quality on the team-written rows (data/gold/written_rows/), no corpus needed.

    .venv/bin/python benchmarks/written_rows.py [--split written1-dev|written1-test|...|all]
        [--backend lexicon|llm]
        [--model NAME] [--span-tagger none|PATH] [--pred OUT.jsonl] [--errors] [--json]

The rows are sentences the team wrote in its own words in the manner of guideline tables,
annotated by the contract by people who do not write the rules, before the rules were run
on them. Unlike the real-row gold they hold no converter artefacts (footnote letters,
citation numbers, broken ligatures): they measure the language, not the ingestion. Each
row is fed to `cardio extract` as the real-row benchmark's ``--rows-from gold`` feeds a
gold row, and scored the same way (benchmarks/real_rows.py: relaxed headline, strict, and
SNOMED CT id accuracy on gold ids in the bundled store).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from real_rows import (  # noqa: E402
    add_extraction_arguments,
    input_row,
    print_row_errors,
    print_scores,
    run_extract,
    score,
)

GOLD = ROOT / "data" / "gold" / "written_rows" / "gold.jsonl"
GUIDELINE = "written-rows"


def load_written(split: str, gold_file: Path = GOLD) -> list[tuple[dict, str]]:
    """(gold line, row text) of ``split`` ("all", one split, or several joined by commas);
    a part that names no split of the gold is an error, never silently left out."""
    lines = [json.loads(line) for line in gold_file.read_text(encoding="utf-8").splitlines()]
    if split == "all":
        return [(g, g["text"]) for g in lines]
    wanted, known = set(split.split(",")), {g["split"] for g in lines}
    if wanted - known:
        raise SystemExit(
            f"--split: no rows in {', '.join(sorted(wanted - known))}; the gold has "
            f"{', '.join(sorted(known))}, all"
        )
    return [(g, g["text"]) for g in lines if g["split"] in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="all")
    parser.add_argument("--gold", type=Path, default=GOLD)
    add_extraction_arguments(parser)
    args = parser.parse_args(argv)

    gold_rows = load_written(args.split, args.gold)
    inputs = [input_row(g, text, GUIDELINE, "Team-written rows") for g, text in gold_rows]
    pred = run_extract(inputs, args.backend, args.model, args.span_tagger, args.pred)
    if pred is None:
        return 1
    report, strict, extra = score(gold_rows, inputs, pred)
    if args.json:
        summary = {"split": args.split, "rows": len(gold_rows), **report.summary(), **extra}
        print(json.dumps(summary | {"strict": strict.summary()}, indent=2))
    else:
        print(f"team-written rows, split {args.split}: {len(gold_rows)} rows")
        print_scores(report, strict, extra)
    if args.errors:
        print_row_errors(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
