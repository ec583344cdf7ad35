"""Train the lexicon's span tagger (a CRF over words and the rules' own spans) on annotated
rows: the team's sample gold (data/gold/gold.jsonl) and the real-row gold of the development
splits, rebuilt from the fetched corpus snapshot. Run by hand after the rules change:

    .venv/bin/python benchmarks/train_span_tagger.py --corpus DIR/mddocs

Held-out splits are never trained on (TRAINING_SPLITS lists the ones that are): test and
blind3 stay later-score splits, and a split is only added once it has been scored blind.
``--leave-out S`` trains without split S (write the model elsewhere with --out) so S can be
scored as unseen rows. The model holds word features, never a phrase of the rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_rows  # noqa: E402

from cardio_assets.logic.lexicon.span_tagger import (  # noqa: E402
    TRAINING_C1,
    TRAINING_C2,
    Span,
    locate,
    provenance_path,
    train,
    training_sequence,
)
from cardio_assets.logic.lexicon.version import RULES_VERSION  # noqa: E402
from cardio_assets.records import RowRecord  # noqa: E402

# Real-row splits the shipped model learns from: development rows, and blind splits after
# their single blind score (blind13 and blind14 joined after theirs, 2026-12-03; blind15 and
# blind16 after theirs in the thirteenth session; blind17, blind18 and blind19 after theirs
# in the fourteenth; blind20 and blind21 after theirs in the fifteenth; blind22 after its
# start score and blind23 after its end score in the sixteenth; blind24 after its start score
# and blind25 after its end score in the seventeenth; blind26, blind27 and blind28 after
# theirs in the eighteenth; blind29 after its first scores in the nineteenth; blind30 to
# blind33 after theirs in the twentieth; blind34 and blind35 after theirs in the
# twenty-first; blind36 and blind37 after theirs in the twenty-second; blind38 and blind39
# after theirs in the twenty-third; blind40 to blind44 after theirs in the twenty-fourth and
# twenty-fifth; blind45 to blind48 after theirs in the twenty-sixth; blind49 to blind51
# after theirs in the twenty-seventh; blind52 to blind55 after theirs in the
# twenty-eighth; blind56 to blind59 after theirs in the twenty-ninth; blind60 to blind64
# after theirs in the thirtieth; blind65 to blind68 after theirs in the thirty-first).
# test and blind3 stay out.
TRAINING_SPLITS = (
    "dev,blind2,blind4,blind5,blind6,blind7,blind8,blind9,blind10,blind11,blind12,blind13,"
    "blind14,blind15,blind16,blind17,blind18,blind19,blind20,blind21,blind22,blind23,blind24,"
    "blind25,blind26,blind27,blind28,blind29,blind30,blind31,blind32,blind33,blind34,blind35,"
    "blind36,blind37,blind38,blind39,blind40,blind41,blind42,blind43,blind44,blind45,blind46,"
    "blind47,blind48,blind49,blind50,blind51,blind52,blind53,blind54,blind55,"
    "blind56,blind57,blind58,blind59,blind60,blind61,blind62,blind63,blind64,"
    "blind65,blind66,blind67,blind68"
)
SAMPLE_GOLD = ROOT / "data" / "gold" / "gold.jsonl"
DEFAULT_MODEL = ROOT / "data" / "models" / "lexicon_span_tagger.crfsuite"


def _record(row: dict, index: int) -> RowRecord:
    return RowRecord.model_validate(
        {
            "guideline_title": row.get("guideline_title") or row["guideline"],
            "table_id": row.get("table_id") or "training",
            "row_index": row.get("row_index", index),
            "header": row.get("header") or [],
            **row,
            "id": row.get("id") or f"training-{index}",
        }
    )


def _moved(spans: list[Span], source: str, target: str) -> list[Span]:
    """Spans of ``source`` carried onto ``target`` by a character alignment."""
    if source == target:
        return spans
    mapping = real_rows._offset_map(target, source)  # source char -> target position
    return [
        Span(mapping[s.start], mapping[max(s.end - 1, s.start)] + 1, s.role)
        for s in spans
        if s.end <= len(source)
    ]


def sample_guidelines() -> set[str]:
    lines = SAMPLE_GOLD.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["guideline"] for line in lines if line.strip()}


def sample_sequences(extractor) -> list:
    out = []
    for index, line in enumerate(SAMPLE_GOLD.read_text(encoding="utf-8").splitlines()):
        gold = json.loads(line)
        row = _record({k: gold[k] for k in ("guideline", "row_text", "class", "level")}, index)
        text, drafts = extractor.rule_drafts(row)
        spans = [
            Span(w[0], w[1], c["role"])
            for c, w in zip(
                gold["concepts"],
                locate(row.row_text, [c["text"] for c in gold["concepts"]]),
                strict=True,
            )
            if w is not None
        ]
        out.append(training_sequence(text, drafts, _moved(spans, row.row_text, text)))
    return out


@dataclass
class PreparedRow:
    """A gold row as the rules read it: its guideline file, the prepared text, the rules'
    drafts, and the gold spans carried onto that text."""

    file: str
    text: str
    drafts: list
    spans: list[Span]


def prepared_gold(
    extractor, gold_rows: list[tuple[dict, str]], inputs: list[dict]
) -> list[PreparedRow]:
    """Real-row gold rows (real_rows.load_gold) and the rows the ingestion fed for them
    (real_rows.cached_extraction_rows), each read once by the rules."""
    out = []
    for index, ((gold, gold_text), fed) in enumerate(zip(gold_rows, inputs, strict=True)):
        text, drafts = extractor.rule_drafts(_record(fed, index))
        spans = [Span(c["start"], c["end"], c["role"]) for c in gold["concepts"]]
        out.append(PreparedRow(gold["file"], text, drafts, _moved(spans, gold_text, text)))
    return out


def guideline_sequences(
    extractor, corpus: Path, splits: str, cache: Path | None, leave_out_guidelines: str = ""
) -> list[tuple[str, tuple]]:
    """The training items of the real-row gold of ``splits``, each with its guideline's file
    name (so a leave-one-guideline-out run computes them once)."""
    gold_rows = real_rows.load_gold(corpus, splits, leave_out_guidelines=leave_out_guidelines)
    inputs, _ = real_rows.cached_extraction_rows(gold_rows, corpus, "pipeline", cache)
    rows = prepared_gold(extractor, gold_rows, inputs)
    return [(row.file, training_sequence(row.text, row.drafts, row.spans)) for row in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="the snapshot's mddocs/")
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--splits", default=TRAINING_SPLITS)
    parser.add_argument("--leave-out", default="", help="a split (or several, commas) left out")
    parser.add_argument(
        "--leave-out-guideline",
        default="",
        help="train without the rows of these guideline files (stems, commas), to score "
        "them as rows of a guideline the model never saw (real_rows.py --guideline)",
    )
    parser.add_argument("--rows-cache", type=Path, help="as in real_rows.py (outside the repo)")
    args = parser.parse_args(argv)

    from cardio_assets.terminology.location import open_store
    from resources.lexicon_extractor import LexiconExtractorResource

    splits = [s for s in args.splits.split(",") if s not in set(args.leave_out.split(","))]
    extractor = LexiconExtractorResource(span_tagger="none").build(searcher=open_store(None))
    sequences = sample_sequences(extractor)
    print(f"sample gold: {len(sequences)} rows", file=sys.stderr)
    files_and_real = guideline_sequences(
        extractor, args.corpus, ",".join(splits), args.rows_cache, args.leave_out_guideline
    )
    real = [sequence for _, sequence in files_and_real]
    left_out = f" without {args.leave_out_guideline}" if args.leave_out_guideline else ""
    print(f"real-row gold ({','.join(splits)}){left_out}: {len(real)} rows", file=sys.stderr)
    train([*sequences, *real], args.out)
    provenance = {
        "rules_version": RULES_VERSION,
        "sample_gold_rows": len(sequences),
        "real_row_splits": splits,
        "real_rows": len(real),
        "c1": TRAINING_C1,
        "c2": TRAINING_C2,
        # the guideline ids (as the pipeline names a document) whose rows it learned: with
        # extraction.span_tagger_scope learned_guidelines it reads only their rows
        "guidelines": sorted(
            {*sample_guidelines(), *(real_rows.guideline_id(file) for file, _ in files_and_real)}
        ),
        **({"left_out_guidelines": args.leave_out_guideline} if args.leave_out_guideline else {}),
    }
    provenance_path(args.out).write_text(json.dumps(provenance, indent=2) + "\n")
    print(f"model -> {args.out} ({args.out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
