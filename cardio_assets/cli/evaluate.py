"""``cardio eval --pred PRED.jsonl [--gold data/gold/gold.jsonl]``: score ``cardio extract``
output against the gold annotation and print one table (the numbers in README "Quality").

Scoring lives in cardio_assets/evaluation.py (pure); this module only formats it, adds the
per-role error breakdown that tells an extractor's author where it loses points, and
compares with the issue's targets (``--check`` exits 1 when one is missed).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from cardio_assets.evaluation import EvalReport, evaluate, load_jsonl

# Quality targets of issue 4 for the lexicon backend: (summary key, sub-key, minimum).
TARGETS: dict[str, tuple[str, str | None, float]] = {
    "concept F1": ("concepts", "f1", 0.85),
    "parameter exactness": ("parameter_exactness", None, 0.95),
    "class/level accuracy": ("class_level_accuracy", None, 0.98),
    "OR-group pair F1": ("or_group_pairs", "f1", 0.9),
}
DEFAULT_ALIASES = (
    "ccs-sample-docling=ccs-sample",
    "ccs-sample-pdf=ccs-sample",
    "hf-sample-docx=hf-sample",
)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def metrics_table(report: EvalReport) -> str:
    """Markdown table: P/R/F1 rows, then accuracy rows, then the targets."""
    s = report.summary()
    lines = [
        f"rows matched: {s['rows_matched']}/{s['rows_gold']} gold rows",
        "",
        "| metric | precision | recall | F1 |",
        "|---|---|---|---|",
    ]

    def prf(name: str, scores: dict[str, float]) -> None:
        lines.append(
            f"| {name} | {scores['precision']:.3f} | {scores['recall']:.3f} | {scores['f1']:.3f} |"
        )

    prf("concepts (role + normalized)", s["concepts"])
    for role, scores in s["concepts_by_role"].items():
        prf(f"  {role}", scores)
    prf("actions", s["actions"])
    prf("OR-group pairs", s["or_group_pairs"])
    prf("negated concepts", s["negated_concepts"])
    prf("population", s["population"])
    lines += ["", "| accuracy | value | scored on |", "|---|---|---|"]
    lines.append(
        f"| parameter operator+threshold+unit | {_fmt(s['parameter_exactness'])} "
        f"| {s['parameters_scored']} found gold parameters |"
    )
    lines.append(f"| class/level | {_fmt(s['class_level_accuracy'])} | found gold actions |")
    lines.append(f"| polarity | {_fmt(s['polarity_accuracy'])} | found gold actions |")
    lines.append(
        f"| SNOMED id | {_fmt(s['snomed_id_accuracy'])} | found gold concepts (null = null is right) |"
    )
    lines += ["", "| target | value | minimum | |", "|---|---|---|---|"]
    for name, (ok, value, minimum) in target_status(report).items():
        lines.append(f"| {name} | {_fmt(value)} | {minimum:.2f} | {'ok' if ok else 'MISSED'} |")
    return "\n".join(lines)


def target_status(report: EvalReport) -> dict[str, tuple[bool, float | None, float]]:
    s = report.summary()
    out = {}
    for name, (key, sub, minimum) in TARGETS.items():
        value = s[key][sub] if sub else s[key]
        # nothing to score (e.g. no gold parameter found) is not a miss
        out[name] = (value is None or value >= minimum, value, minimum)
    return out


def error_breakdown(report: EvalReport) -> dict[str, dict[str, int]]:
    """Missed (false negative) and spurious (false positive) concepts per role."""
    missing = Counter(role for err in report.errors for role, _ in err["missing"])
    extra = Counter(role for err in report.errors for role, _ in err["extra"])
    roles = sorted(set(missing) | set(extra))
    return {role: {"missed": missing[role], "spurious": extra[role]} for role in roles}


@click.command("eval")
@click.option(
    "--pred",
    "pred_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Predictions written by `cardio extract`.",
)
@click.option(
    "--gold",
    "gold_path",
    default="data/gold/gold.jsonl",
    show_default=True,
    type=click.Path(dir_okay=False, path_type=Path),
)
@click.option(
    "--alias",
    "aliases",
    multiple=True,
    help="PARTITION=GOLD_GUIDELINE: score a partition against another guideline's gold.",
)
@click.option("--errors", is_flag=True, help="List every row's missed and spurious concepts.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--check", is_flag=True, help="Exit 1 when a quality target is missed.")
def eval_command(
    pred_path: Path,
    gold_path: Path,
    aliases: tuple[str, ...],
    errors: bool,
    as_json: bool,
    check: bool,
) -> None:
    """Precision/recall/F1 of PRED against the gold annotation (rows matched by guideline +
    normalized row text; see data/gold/ANNOTATION_GUIDELINES.md)."""
    for path in (pred_path, gold_path):
        if not path.is_file():
            raise click.ClickException(f"{path}: file not found")
    alias_map: dict[str, str] = {}
    for item in (*DEFAULT_ALIASES, *aliases):
        if "=" not in item:
            raise click.ClickException(f"--alias {item!r}: expected PARTITION=GOLD_GUIDELINE")
        partition, guideline = item.split("=", 1)
        alias_map[partition] = guideline
    try:
        report = evaluate(load_jsonl(gold_path), load_jsonl(pred_path), alias_map)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        payload = report.summary() | {"errors_by_role": error_breakdown(report)}
        click.echo(json.dumps(payload, indent=2))
    else:
        click.echo(metrics_table(report))
        breakdown = error_breakdown(report)
        if breakdown:
            click.echo(
                "\nconcept errors by role: "
                + ", ".join(
                    f"{role} {v['missed']} missed / {v['spurious']} spurious"
                    for role, v in breakdown.items()
                )
            )
        if report.unmatched_gold:
            click.echo(f"\n{len(report.unmatched_gold)} gold rows had no prediction, e.g.:")
            for text in report.unmatched_gold[:5]:
                click.echo(f"  {text}")
    if errors:
        for err in report.errors:
            click.echo(
                f"\n{err['row_text']}\n  missed:   {err['missing']}\n  spurious: {err['extra']}"
            )
    if check and not all(ok for ok, _, _ in target_status(report).values()):
        raise SystemExit(1)
