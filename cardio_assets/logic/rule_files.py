"""The two files ``cardio build`` (and the grounding_index / extracted_rules assets) write,
read back for ``cardio load``: validated, and checked to come from one run (pure, no Dagster).

A rule carries the grounding of each of its concepts, copied from the grounding index of
its run, so every SNOMED CT id a rule uses must be a key of that index with the same
preferred term. An index of another run (another guideline, other thresholds, another
release) fails that check, and the error names both files.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from cardio_assets.errors import UserError
from cardio_assets.records import ExtractedRule, GroundingIndexEntry

_FIX_PAIR = (
    "pass the grounding_index.json and extracted_rules.jsonl one `cardio build` (or one "
    "run of the assets) wrote"
)


class RuleFilesError(UserError):
    """A rules or index file that cannot be loaded; names the file (and line or key)."""


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"key '{'.'.join(str(p) for p in err['loc'])}': {err['msg']}" for err in exc.errors()[:3]
    )


def read_rules(path: Path) -> list[ExtractedRule]:
    """One ExtractedRule per JSONL line (schemas/extracted_rule.schema.json)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuleFilesError(f"{path}: rules file not found; make it with `cardio build`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFilesError(f"{path}: rules file cannot be read as text ({exc})") from None
    rules: list[ExtractedRule] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rule = ExtractedRule.model_validate_json(line)
        except ValidationError as exc:
            if any(err["type"] == "json_invalid" for err in exc.errors()):
                why = "not a JSON line"
            else:
                why = f"not an extracted rule: {_problems(exc)}"
            raise RuleFilesError(
                f"{path}:{number}: {why}; expected one rule per line "
                "(schemas/extracted_rule.schema.json), as `cardio build` writes"
            ) from None
        if rule.id in seen:
            raise RuleFilesError(f"{path}:{number}: rule id {rule.id!r} appears twice")
        seen.add(rule.id)
        rules.append(rule)
    if not rules:
        raise RuleFilesError(f"{path}: rules file holds no rule; make it with `cardio build`")
    return rules


def read_index(path: Path) -> dict[str, GroundingIndexEntry]:
    """The grounding_index JSON: SNOMED CT id -> entry (docs/ARCHITECTURE.md)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RuleFilesError(f"{path}: index file not found; make it with `cardio build`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RuleFilesError(
            f"{path}: not a grounding index JSON ({exc}); pass the grounding_index.json "
            "`cardio build` wrote"
        ) from None
    if not isinstance(data, dict):
        raise RuleFilesError(
            f"{path}: not a grounding index (expected an object keyed by SNOMED CT id, got "
            f"{type(data).__name__})"
        )
    index: dict[str, GroundingIndexEntry] = {}
    for key, value in data.items():
        try:
            entry = GroundingIndexEntry.model_validate(value)
        except ValidationError as exc:
            raise RuleFilesError(
                f"{path}: entry {key!r} is not a grounding index entry: {_problems(exc)}"
            ) from None
        if str(entry.snomed_id) != key:
            raise RuleFilesError(
                f"{path}: entry {key!r} holds snomed_id {entry.snomed_id}; the file is keyed "
                "by each entry's snomed_id"
            )
        index[key] = entry
    return index


def check_same_run(
    index: dict[str, GroundingIndexEntry],
    rules: list[ExtractedRule],
    index_path: Path,
    rules_path: Path,
) -> int:
    """Raise when the rules use a SNOMED CT id the index lacks or names otherwise; returns
    how many distinct ids the rules use."""
    used: dict[str, tuple[str, str]] = {}  # snomed id -> (preferred term, first rule)
    for rule in rules:
        for ref in rule.concepts():
            if ref.grounding is not None:
                used.setdefault(ref.grounding.snomed_id, (ref.grounding.preferred_term, rule.id))
    missing = [(sid, rid) for sid, (_, rid) in used.items() if sid not in index]
    if missing:
        sid, rid = missing[0]
        raise RuleFilesError(
            f"{index_path} and {rules_path} are not from the same run: {len(missing)} SNOMED "
            f"CT id(s) the rules use are not in the index (first: {sid} in rule {rid}); "
            + _FIX_PAIR
        )
    renamed = [
        (sid, term, rid) for sid, (term, rid) in used.items() if index[sid].preferred_term != term
    ]
    if renamed:
        sid, term, rid = renamed[0]
        raise RuleFilesError(
            f"{index_path} and {rules_path} are not from the same run: SNOMED CT id {sid} is "
            f"{index[sid].preferred_term!r} in the index but {term!r} in rule {rid} (another "
            "terminology release); " + _FIX_PAIR
        )
    return len(used)
