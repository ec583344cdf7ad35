"""Scoring extraction output against the gold annotation (data/gold/gold.jsonl).

Both files are in the ``cardio extract`` line format. Rows are matched by guideline and
normalized row text (the gold has no row ids; see data/gold/ANNOTATION_GUIDELINES.md).
Partitions that repeat a guideline's rows in another format (``ccs-sample-docling``,
``hf-sample-docx``) are scored against the same gold via ``--alias``.

Metrics (all micro-averaged over the matched rows):
- concepts: P/R/F1 of (role, normalized) pairs, overall and per role (a repeated pair in
  one row is counted once per occurrence);
- parameter exactness: of the gold ClinicalParameters that were found, the share whose
  operator, threshold and unit all equal the gold's;
- class/level: of the gold actions that were found, the share whose class and level both
  equal the gold's (and polarity accuracy beside it);
- OR groups: P/R/F1 of unordered pairs of concepts sharing an OR group within a row;
- actions, negation and population: P/R/F1 of (role, normalized[, negated]) / names;
- SNOMED ids: of the found gold concepts, the share whose snomed_id equals the gold's
  (null == null counts as right), when the prediction carries snomed ids at all.
No Dagster imports: used by benchmarks/ and by ``make eval``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def normalize_row_text(text: str) -> str:
    """Key for matching rows across formats (dashes, <br>, whitespace, case)."""
    text = text.replace("<br>", " ").replace("–", "-").replace("—", "-")
    return re.sub(r"\s+", " ", text).strip().lower()


def load_jsonl(path: str | Path) -> list[Row]:
    rows: list[Row] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not a JSON line ({exc.msg})") from exc
    return rows


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: set, pred: set) -> None:
        self.tp += len(gold & pred)
        self.fp += len(pred - gold)
        self.fn += len(gold - pred)

    def scores(self) -> dict[str, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


@dataclass
class Ratio:
    right: int = 0
    total: int = 0

    def value(self) -> float | None:
        return round(self.right / self.total, 4) if self.total else None


@dataclass
class EvalReport:
    rows_gold: int = 0
    rows_matched: int = 0
    unmatched_gold: list[str] = field(default_factory=list)
    concepts: Counts = field(default_factory=Counts)
    by_role: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    actions: Counts = field(default_factory=Counts)
    or_pairs: Counts = field(default_factory=Counts)
    negation: Counts = field(default_factory=Counts)
    population: Counts = field(default_factory=Counts)
    parameters: Ratio = field(default_factory=Ratio)
    class_level: Ratio = field(default_factory=Ratio)
    polarity: Ratio = field(default_factory=Ratio)
    snomed: Ratio = field(default_factory=Ratio)
    errors: list[dict[str, Any]] = field(default_factory=list)  # per-row differences

    def summary(self) -> dict[str, Any]:
        return {
            "rows_gold": self.rows_gold,
            "rows_matched": self.rows_matched,
            "concepts": self.concepts.scores(),
            "concepts_by_role": {k: v.scores() for k, v in sorted(self.by_role.items())},
            "actions": self.actions.scores(),
            "parameter_exactness": self.parameters.value(),
            "parameters_scored": self.parameters.total,
            "class_level_accuracy": self.class_level.value(),
            "polarity_accuracy": self.polarity.value(),
            "or_group_pairs": self.or_pairs.scores(),
            "negated_concepts": self.negation.scores(),
            "population": self.population.scores(),
            "snomed_id_accuracy": self.snomed.value(),
        }


def _key(c: Row) -> tuple[str, str]:
    return (c.get("role") or "", (c.get("normalized") or c.get("text") or "").strip().lower())


def _keyed(items: list[Row]) -> dict[tuple, Row]:
    """Items by (role, name); a second item with the same role and name (two LVEF
    thresholds in one row) gets (role, name, 2), a third (role, name, 3), in the order they
    are printed, so both are scored instead of the last overwriting the first."""
    ordered = sorted(
        enumerate(items),
        key=lambda pair: (pair[1].get("start") is None, pair[1].get("start") or 0, pair[0]),
    )
    keyed: dict[tuple, Row] = {}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    for _, item in ordered:
        base = _key(item)
        seen[base] += 1
        keyed[base if seen[base] == 1 else (*base, seen[base])] = item
    return keyed


def _or_pairs(concepts: dict[tuple[str, str], Row]) -> set[frozenset]:
    """Unordered pairs of concept keys sharing an OR label. The keys, not the concepts'
    own names: under relaxed matching they are the gold keys the predictions agree with."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, c in concepts.items():
        if c.get("or_group"):
            groups[c["or_group"]].append(key)
    pairs: set[frozenset] = set()
    for members in groups.values():
        for a, b in combinations(sorted(set(members)), 2):
            pairs.add(frozenset((a, b)))
    return pairs


def _threshold(value: Any) -> Any:
    """Comparable threshold: a number, a [low, high] range, or a paired value "140/90" (a
    range of paired values, ["140/90", "159/99"], is a range of pairs)."""
    if isinstance(value, list):
        return tuple(_threshold(v) for v in value)
    if isinstance(value, str):
        try:
            return tuple(float(v) for v in value.split("/"))
        except ValueError:
            return value
    return None if value is None else float(value)


def _unit(raw: str | None) -> str | None:
    """A unit compared by what it means, not how it is spelled: "m2" and "m²", "b.p.m." and
    "bpm", "mg/dl" and "mg/dL" are one unit (the measurement grammar's canonical spelling)."""
    from cardio_assets.logic.measurements import canonical_unit

    return canonical_unit(raw)


_NAME_STOP = frozenset("a an and the of in with for to on or by at as from".split())


def _content_tokens(name: str) -> frozenset[str]:
    return frozenset(t for t in re.findall(r"[a-z0-9]+", name.lower()) if t not in _NAME_STOP)


def names_agree(a: str, b: str) -> bool:
    """Relaxed name match: the same words in any order (rapidfuzz token_sort_ratio >= 85)
    or mostly the same content words (Jaccard >= 0.75). "age-adjusted D-dimer cut-off" and
    "D-dimer age-adjusted cut-off" agree; "heart failure" and "heart failure with reduced
    ejection fraction" do not."""
    from rapidfuzz import fuzz

    a, b = a.strip().lower(), b.strip().lower()
    if a == b:
        return True
    if fuzz.token_sort_ratio(a, b) >= 85:
        return True
    ta, tb = _content_tokens(a), _content_tokens(b)
    return bool(ta and tb) and len(ta & tb) / len(ta | tb) >= 0.75


def _span_iou(a: dict, b: dict) -> float:
    """Overlap of two concepts' character spans in the row text (both need start/end)."""
    if None in (a.get("start"), a.get("end"), b.get("start"), b.get("end")):
        return 0.0
    inter = min(a["end"], b["end"]) - max(a["start"], b["start"])
    union = max(a["end"], b["end"]) - min(a["start"], b["start"])
    return max(inter, 0) / union if union > 0 else 0.0


def _agree(gold_key: tuple, gold: dict, pred_key: tuple, pred: dict) -> bool:
    if gold_key[0] != pred_key[0]:
        return False
    return names_agree(gold_key[1], pred_key[1]) or _span_iou(gold, pred) >= 0.5


def _relaxed_keys(gold: dict, pred: dict) -> dict:
    """Predicted keys renamed to the gold key they agree with (same role, and the names
    agree or, where both carry character spans, the spans overlap by half: intersection
    over union >= 0.5), one-to-one, exact names first, so set arithmetic scores it."""
    renamed: dict = {}
    free = set(gold)
    gold_names = {gk[:2] for gk in gold}
    for pk in sorted(pred, key=lambda k: (k[:2] not in gold_names, k)):
        same_name = [gk for gk in free if gk[:2] == pk[:2]]
        if same_name:
            # a name printed twice in the row: the occurrence whose span it overlaps most
            best = max(same_name, key=lambda gk: (_span_iou(gold[gk], pred[pk]), gk == pk))
            renamed[pk] = best
            free.discard(best)
            continue
        match = next(
            (gk for gk in sorted(free) if _agree(gk, gold[gk], pk, pred[pk])),
            None,
        )
        if match is not None:
            renamed[pk] = match
            free.discard(match)
        elif pk in gold:
            # its gold namesake went to a better-placed prediction: an extra, kept apart
            renamed[pk] = (*pk[:2], f"extra-{len(renamed)}")
        else:
            renamed[pk] = pk
    return {renamed[k]: v for k, v in pred.items()}


def evaluate(
    gold: list[Row],
    pred: list[Row],
    aliases: dict[str, str] | None = None,
    *,
    relaxed: bool = False,
) -> EvalReport:
    """Score ``pred`` against ``gold``; ``aliases`` maps a partition to its gold guideline.

    ``relaxed``: a predicted concept (or action, population name) counts as the gold one
    when role is the same and the names agree (``names_agree``) or their character spans
    overlap by half, instead of equal names; the real-row benchmark reports both."""
    aliases = aliases or {}
    index: dict[tuple[str, str], Row] = {}
    for row in pred:
        guideline = aliases.get(row.get("guideline", ""), row.get("guideline", ""))
        index[(guideline, normalize_row_text(row.get("row_text", "")))] = row
    report = EvalReport(rows_gold=len(gold))
    snomed_present = any(
        "snomed_id" in c and c.get("snomed_id") is not None
        for row in pred
        for c in row.get("concepts", [])
    )
    for g in gold:
        key = (g["guideline"], normalize_row_text(g["row_text"]))
        p = index.get(key)
        if p is None:
            report.unmatched_gold.append(g["row_text"][:80])
            p = {"concepts": [], "actions": [], "population": []}
        else:
            report.rows_matched += 1
        g_concepts = _keyed(g.get("concepts", []))
        p_concepts = _keyed(p.get("concepts", []))
        if relaxed:
            p_concepts = _relaxed_keys(g_concepts, p_concepts)
        gold_keys, pred_keys = set(g_concepts), set(p_concepts)
        report.concepts.add(gold_keys, pred_keys)
        for role in {k[0] for k in gold_keys | pred_keys}:
            report.by_role[role].add(
                {k for k in gold_keys if k[0] == role}, {k for k in pred_keys if k[0] == role}
            )
        report.or_pairs.add(_or_pairs(g_concepts), _or_pairs(p_concepts))
        report.negation.add(
            {k for k, c in g_concepts.items() if c.get("negated")},
            {k for k, c in p_concepts.items() if c.get("negated")},
        )
        g_population = {("", n.lower()): {} for n in g.get("population", [])}
        p_population = {("", n.lower()): {} for n in p.get("population", [])}
        if relaxed:
            p_population = _relaxed_keys(g_population, p_population)
        report.population.add(set(g_population), set(p_population))
        for k, gc in g_concepts.items():
            pc = p_concepts.get(k)
            if pc is None:
                continue
            if gc.get("role") == "ClinicalParameter":
                report.parameters.total += 1
                same = (
                    gc.get("operator") == pc.get("operator")
                    and _threshold(gc.get("threshold")) == _threshold(pc.get("threshold"))
                    and _unit(gc.get("unit")) == _unit(pc.get("unit"))
                )
                report.parameters.right += int(same)
            if snomed_present:
                report.snomed.total += 1
                report.snomed.right += int(
                    str(gc.get("snomed_id") or "") == str(pc.get("snomed_id") or "")
                )
        g_actions = _keyed(g.get("actions", []))
        p_actions = _keyed(p.get("actions", []))
        if relaxed:
            p_actions = _relaxed_keys(g_actions, p_actions)
        report.actions.add(set(g_actions), set(p_actions))
        for k, ga in g_actions.items():
            pa = p_actions.get(k)
            if pa is None:
                continue
            report.class_level.total += 1
            report.class_level.right += int(
                ga.get("class") == pa.get("class") and ga.get("level") == pa.get("level")
            )
            report.polarity.total += 1
            report.polarity.right += int(ga.get("polarity") == pa.get("polarity"))
        missing = sorted(gold_keys - pred_keys)
        extra = sorted(pred_keys - gold_keys)
        if missing or extra:
            report.errors.append({"row_text": g["row_text"], "missing": missing, "extra": extra})
    return report


def format_report(report: EvalReport) -> str:
    s = report.summary()
    lines = [
        f"rows: {s['rows_matched']}/{s['rows_gold']} gold rows matched",
        "concepts      P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}".format(**s["concepts"]),
    ]
    for role, sc in s["concepts_by_role"].items():
        lines.append(
            f"  {role:<18} P {sc['precision']:.3f}  R {sc['recall']:.3f}  F1 {sc['f1']:.3f}"
        )
    lines.append(
        "actions       P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}".format(**s["actions"])
    )
    lines.append(
        "OR-group pairs P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}".format(
            **s["or_group_pairs"]
        )
    )
    lines.append(
        "negated       P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}".format(
            **s["negated_concepts"]
        )
    )
    lines.append(
        "population    P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}".format(**s["population"])
    )

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    lines.append(
        f"parameter exactness {fmt(s['parameter_exactness'])} "
        f"(of {s['parameters_scored']} found gold parameters)"
    )
    lines.append(f"class/level accuracy {fmt(s['class_level_accuracy'])} (found gold actions)")
    lines.append(f"polarity accuracy    {fmt(s['polarity_accuracy'])}")
    lines.append(f"SNOMED id accuracy   {fmt(s['snomed_id_accuracy'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """python -m cardio_assets.evaluation --gold GOLD.jsonl --pred PRED.jsonl [--json]"""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--gold", default="data/gold/gold.jsonl")
    parser.add_argument("--pred", required=True)
    parser.add_argument(
        "--alias",
        action="append",
        default=[
            "ccs-sample-docling=ccs-sample",
            "ccs-sample-pdf=ccs-sample",
            "hf-sample-docx=hf-sample",
        ],
        help="PARTITION=GOLD_GUIDELINE (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--errors", action="store_true", help="list per-row differences")
    args = parser.parse_args(argv)
    aliases = dict(a.split("=", 1) for a in args.alias)
    report = evaluate(load_jsonl(args.gold), load_jsonl(args.pred), aliases)
    if args.json:
        print(json.dumps(report.summary(), indent=2))
    else:
        print(format_report(report))
    if args.errors:
        for err in report.errors:
            print(f"\n{err['row_text']}\n  missing: {err['missing']}\n  extra:   {err['extra']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
