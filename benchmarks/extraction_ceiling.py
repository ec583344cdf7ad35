"""Where is the rules' error? Score real rows with parts of the gold put in their place, by
hand:

    .venv/bin/python benchmarks/extraction_ceiling.py --corpus DIR/mddocs --split dev \
        [--rows-cache FILE]

Three scores of the same rows, through the same stages as ``cardio extract``:

- rules: the lexicon backend's rules alone (no span tagger);
- gold roles: the rules' spans, each taking the role of the gold concept it overlaps by half;
- gold spans: the gold's spans and roles, laid over the rules' drafts by the span tagger's own
  revise step (span_tagger.revise), as a perfect tagger would be.

The gap from rules to gold roles is what role errors cost; from gold roles to gold spans,
what boundaries and missed or spurious concepts cost. What gold spans still miss is beyond
any tagger of spans and roles: names, values, negation and OR labels stay the rules'. A
development aid, not a score to report as one: it reads the gold.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_rows  # noqa: E402
from train_span_tagger import prepared_gold  # noqa: E402

from cardio_assets.logic.lexicon import span_tagger  # noqa: E402
from cardio_assets.logic.lexicon.drafts import Draft  # noqa: E402
from resources.lexicon_extractor import LexiconExtractorResource  # noqa: E402

METRICS = (
    ("concepts", "concept F1"),
    ("actions", "actions"),
    ("or_group_pairs", "OR pairs"),
    ("negated_concepts", "negated"),
)


class GoldTagger:
    """Stands where a trained span tagger stands (SpanTagger's spans / revise /
    fingerprint), answering with the gold of the row whose prepared text it is given."""

    def __init__(self, gold_by_text: dict[str, list[span_tagger.Span]], roles_only: bool):
        self.gold_by_text = gold_by_text
        self.roles_only = roles_only
        self.fingerprint = "gold-roles" if roles_only else "gold-spans"

    def learned(self, guideline: str) -> bool:
        return True  # it knows the gold of every row it is given

    def spans(self, text: str, drafts: list[Draft]) -> list[span_tagger.Span]:
        ruled = span_tagger.rule_spans(text, drafts)
        gold = self.gold_by_text.get(text)
        if gold is None:  # a row the gold does not know (cannot happen for gold rows)
            return ruled
        if not self.roles_only:
            return gold
        out = []
        for span in ruled:
            best = max(gold, key=lambda g: span_tagger.overlap(span, g), default=None)
            agrees = best is not None and span_tagger.overlap(span, best) >= 0.5
            out.append(span_tagger.Span(span.start, span.end, best.role if agrees else span.role))
        return out

    def revise(self, text: str, drafts: list[Draft], normalize) -> list[Draft]:
        return span_tagger.revise(text, drafts, self.spans(text, drafts), normalize)


class _WithTagger(LexiconExtractorResource):
    """The lexicon resource with a stand-in tagger."""

    def tagger(self):  # type: ignore[override]
        return _STAND_IN[0]


_STAND_IN: list[GoldTagger] = []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="the snapshot's mddocs/")
    parser.add_argument("--split", default="dev", help="as in real_rows.py")
    parser.add_argument("--rows-cache", type=Path, help="as in real_rows.py (outside the repo)")
    args = parser.parse_args(argv)
    if real_rows.unknown_splits(args.split):
        parser.error(f"--split {args.split}: each part must be one of {real_rows.SPLITS}")

    gold_rows = real_rows.load_gold(args.corpus, args.split)
    inputs, _ = real_rows.cached_extraction_rows(
        gold_rows, args.corpus, "pipeline", args.rows_cache
    )
    scorer = real_rows.InProcessExtraction()
    rules = LexiconExtractorResource(span_tagger="none").build(searcher=scorer.store)
    prepared = prepared_gold(rules, gold_rows, inputs)
    gold_by_text = {row.text: row.spans for row in prepared}

    scores = {"rules": scorer.score(gold_rows, inputs, "none")}
    for name, roles_only in (("gold roles", True), ("gold spans", False)):
        _STAND_IN[:] = [GoldTagger(gold_by_text, roles_only)]
        stand_in = _WithTagger(span_tagger="none", span_tagger_scope="all_guidelines")
        scores[name] = scorer.score(gold_rows, inputs, lexicon=stand_in)
    print(f"split {args.split}: {len(gold_rows)} rows, relaxed match")
    print(f"{'':<12}" + "".join(f"{label:>12}" for _, label in METRICS))
    for name, score in scores.items():
        print(f"{name:<12}" + "".join(f"{score[key]['f1']:>12.3f}" for key, _ in METRICS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
