"""Deterministic checks of an llm answer against the row it was given (pure logic).

A model's answer is a claim; the row text is the evidence. Two checks hold every answer
to the annotation contract (data/gold/ANNOTATION_CONVENTIONS.md) before any stage uses it:

1. **Spans.** Every concept and action ``text`` must occur in the ROW line the model was
   sent, after case, dash and whitespace folding (``fold``); an item whose span does not is
   dropped and recorded (``span_not_in_row``): a paraphrase or an invented concept cannot be
   located, grounded or audited.
2. **Values.** A ClinicalParameter's operator, threshold, unit and second-unit values are
   re-parsed from its span by the one measurement grammar the lexicon and grounding share
   (``find_measurements``). Where the model disagrees, the **re-parsed value is kept** and
   the model's recorded: the contract puts name and value in the span (section 4) and says
   how a value reads (section 5), the span is verbatim row text (check 1), and the grammar
   implements section 5 for every backend, so the re-parse is what the row says while the
   model's fields are an unverified restatement of it. A span that holds no value while the
   model gave one loses the model's value (``value_not_in_span``): nothing in the row
   backs it.

The cache keeps the model's answer as returned; these checks run on every read of it, so
a change here (or in the grammar) applies to cached answers too, and
``validation_version`` is part of the llm extraction's code version. No Dagster imports.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardio_assets.logic.measurements import GRAMMAR_FILES, canonical_unit, find_measurements
from cardio_assets.records import ValidationIssue

SPAN_CHECKS = ("span_not_in_row",)
VALUE_CHECKS = ("operator", "threshold", "unit", "alt_values", "value_not_in_span")
_VALUE_FIELDS = ("operator", "threshold", "unit", "alt_values")

# every Unicode dash and minus folds to "-" (U+2010..U+2015, minus, small/full-width hyphen)
_DASHES = re.compile(r"[\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d\u00ad]")
_ROW_LINE = re.compile(r"^ROW:[ \t]?(.*)$", re.MULTILINE)


def fold(text: str) -> str:
    """Case, dash and whitespace folded: NFKC, casefold, every dash "-", whitespace runs
    collapsed, and no whitespace beside a symbol ("LVEF ≤ 35 %" == "LVEF ≤35%"), while two
    words stay two words ("heart rate" != "heartrate")."""
    text = _DASHES.sub("-", unicodedata.normalize("NFKC", text).casefold())
    text = " ".join(text.split())
    return re.sub(r" (?=[^\w ])|(?<=[^\w ]) ", "", text)


def row_of(tagged_text: str) -> str:
    """The ROW line's text of a tagged row (the whole text when it has no ROW line)."""
    found = _ROW_LINE.findall(tagged_text)
    return found[-1] if found else tagged_text


def span_in_row(span: str, row: str) -> bool:
    folded = fold(span)
    return bool(folded) and folded in fold(row)


# --------------------------------------------------------------------------- values


def _comparable(value: Any) -> Any:
    """A threshold as a hashable value: 35 == 35.0 == [35], "140 / 90" == "140/90"."""
    if isinstance(value, list):
        numbers = tuple(float(v) for v in value)
        return numbers[0] if len(numbers) == 1 else numbers
    if isinstance(value, str):
        text = "".join(value.split())
        try:
            return float(text)
        except ValueError:
            return text
    return None if value is None else float(value)


def _alt_key(values: Iterable[dict[str, Any]]) -> list[tuple[tuple[float, ...], str | None]]:
    def numbers(threshold: Any) -> tuple[float, ...]:
        return tuple(map(float, threshold if isinstance(threshold, list) else [threshold]))

    return sorted((numbers(v["threshold"]), canonical_unit(v.get("unit"))) for v in values)


def _parsed_values(span: str) -> dict[str, Any] | None:
    """operator / threshold / unit / alt_values of the first measurement in the span."""
    found = find_measurements(span)
    if not found:
        return None
    m = found[0]
    threshold = m.threshold
    return {
        "operator": m.operator,
        "threshold": threshold,
        "unit": m.unit,
        "alt_values": [dict(v) for v in m.alt_values],
    }


def _check_values(concept: dict[str, Any]) -> list[ValidationIssue]:
    """Re-parse one parameter's span; correct ``concept`` in place; the disagreements."""
    has_value = any(concept.get(f) not in (None, []) for f in _VALUE_FIELDS)
    parsed = _parsed_values(concept["text"])
    issues: list[ValidationIssue] = []

    def issue(check: str, model: Any, now: Any) -> None:
        issues.append(
            ValidationIssue(
                check=check,  # type: ignore[arg-type]
                role=concept["role"],
                text=concept["text"],
                model_value=model,
                parsed_value=now,
            )
        )

    if parsed is None:
        if has_value:
            issue("value_not_in_span", {f: concept.get(f) for f in _VALUE_FIELDS}, None)
            concept.update(operator=None, threshold=None, unit=None, alt_values=[])
        return issues
    if concept.get("operator") != parsed["operator"]:
        issue("operator", concept.get("operator"), parsed["operator"])
    if _comparable(concept.get("threshold")) != _comparable(parsed["threshold"]):
        issue("threshold", concept.get("threshold"), parsed["threshold"])
    if canonical_unit(concept.get("unit")) != parsed["unit"]:
        issue("unit", concept.get("unit"), parsed["unit"])
    if _alt_key(concept.get("alt_values") or []) != _alt_key(parsed["alt_values"]):
        issue("alt_values", concept.get("alt_values") or [], parsed["alt_values"])
    concept.update(parsed)
    return issues


# --------------------------------------------------------------------------- answers


def validate_records(
    records: dict[str, list[dict[str, Any]]], tagged_text: str
) -> tuple[dict[str, list[dict[str, Any]]], list[ValidationIssue]]:
    """The checked copy of one answer's record dumps ({"concepts", "actions"}) and what the
    checks dropped or corrected. The input is not changed (it is the cached answer)."""
    row = row_of(tagged_text)
    issues: list[ValidationIssue] = []
    checked: dict[str, list[dict[str, Any]]] = {"concepts": [], "actions": []}
    for kind, item in (("concepts", "concept"), ("actions", "action")):
        for original in records.get(kind, []):
            entry = dict(original)
            if not span_in_row(entry.get("text", ""), row):
                issues.append(
                    ValidationIssue(
                        check="span_not_in_row",
                        item=item,  # type: ignore[arg-type]
                        role=entry["role"],
                        text=entry.get("text", ""),
                    )
                )
                continue
            if kind == "concepts" and (
                entry["role"] == "ClinicalParameter"
                or any(entry.get(f) not in (None, []) for f in _VALUE_FIELDS)
            ):
                issues.extend(_check_values(entry))
            checked[kind].append(entry)
    return checked, issues


def is_value_checked(concept: Any) -> bool:
    """Whether a kept concept went through the value check (a parameter, or it had a value)."""
    return concept.role == "ClinicalParameter" or concept.operator is not None


def validation_summary(results: Iterable[Any]) -> dict[str, Any]:
    """Counts for asset metadata and ``cardio extract``: spans checked and dropped per
    check, values checked and rejected (model value replaced or dropped) per check."""
    spans = values = rows_with_issues = 0
    dropped: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    for result in results:
        if getattr(result, "error", None):
            continue
        issues = list(getattr(result, "validation", []) or [])
        span_drops = [i for i in issues if i.check in SPAN_CHECKS]
        spans += len(result.concepts) + len(result.actions) + len(span_drops)
        values += sum(1 for c in result.concepts if is_value_checked(c))
        dropped.update(i.check for i in span_drops)
        # one parameter can disagree on several fields: each field is one rejected value
        rejected.update(i.check for i in issues if i.check in VALUE_CHECKS)
        rows_with_issues += bool(issues)
    return {
        "spans_checked": spans,
        "spans_dropped": sum(dropped.values()),
        "spans_dropped_by_check": {c: dropped.get(c, 0) for c in SPAN_CHECKS},
        "parameters_checked": values,
        "values_rejected": sum(rejected.values()),
        "values_rejected_by_check": {c: rejected.get(c, 0) for c in VALUE_CHECKS},
        "rows_with_issues": rows_with_issues,
    }


def summary_line(summary: dict[str, Any]) -> str:
    """One line for the CLI: "12 spans checked, 1 dropped (span_not_in_row 1); ..."."""

    def detail(counts: dict[str, int]) -> str:
        shown = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        return f" ({shown})" if shown else ""

    return (
        f"{summary['spans_checked']} spans checked, {summary['spans_dropped']} dropped"
        f"{detail(summary['spans_dropped_by_check'])}; {summary['parameters_checked']} "
        f"parameters checked, {summary['values_rejected']} values rejected"
        f"{detail(summary['values_rejected_by_check'])}"
    )


def validation_version() -> str:
    """sha256 (16 hex) of this module and of the measurement grammar it re-parses with (the
    values, their operators and units): part of the llm extraction's code version (the
    checks apply to cached answers too)."""
    digest = hashlib.sha256()
    for path in (Path(__file__), *GRAMMAR_FILES):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
