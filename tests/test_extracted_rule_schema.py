"""The extracted_rules contract: the JSON Schema file and the pydantic models agree."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from cardio_assets.records import ExtractedRule, extracted_rule_json_schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "schemas" / "extracted_rule.schema.json"
EXAMPLE_FILE = ROOT / "schemas" / "examples" / "extracted_rule.example.json"
REGENERATE = (
    '.venv/bin/python -c "import json; from cardio_assets.records import '
    'extracted_rule_json_schema as s; print(json.dumps(s(), indent=2))" '
    "> schemas/extracted_rule.schema.json"
)


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture()
def example() -> dict[str, Any]:
    return json.loads(EXAMPLE_FILE.read_text())


def test_schema_file_matches_the_models() -> None:
    committed = json.loads(SCHEMA_FILE.read_text())
    assert committed == extracted_rule_json_schema(), f"schema file is stale; run: {REGENERATE}"


def test_example_is_valid_for_schema_and_models(validator, example) -> None:
    validator.validate(example)
    rule = ExtractedRule.model_validate(example)
    assert rule.logic is not None and rule.logic.op == "AND"
    leaves = rule.logic.leaves()
    assert [leaf.kind for leaf in leaves] == ["condition", "parameter", "condition", "condition"]
    nested = rule.logic.children[2]
    assert nested.kind == "logic" and nested.op == "OR"
    assert [c.role for c in rule.concepts()] == [
        "Condition",
        "ClinicalParameter",
        "Condition",
        "Condition",
        "Procedure",
    ]


@pytest.mark.parametrize("exclude_none", [False, True])
def test_dumped_rule_round_trips_through_schema(validator, example, exclude_none) -> None:
    rule = ExtractedRule.model_validate(example)
    dumped = json.loads(rule.model_dump_json(by_alias=True, exclude_none=exclude_none))
    validator.validate(dumped)
    assert ExtractedRule.model_validate(dumped) == rule


def test_children_without_kind_are_inferred(example) -> None:
    """Producers may omit 'kind'; the tree shape must still be recovered."""

    def strip_kind(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("kind", None)
            for value in node.values():
                strip_kind(value)
        elif isinstance(node, list):
            for value in node:
                strip_kind(value)

    strip_kind(example["logic"])
    rule = ExtractedRule.model_validate(example)
    assert [leaf.kind for leaf in rule.logic.leaves()] == [
        "condition",
        "parameter",
        "condition",
        "condition",
    ]


def test_integer_snomed_id_is_kept_as_text(example) -> None:
    example["actions"][0]["concept"]["grounding"]["snomed_id"] = 415070008
    rule = ExtractedRule.model_validate(example)
    assert rule.actions[0].concept.grounding.snomed_id == "415070008"


def _param(rule: dict) -> dict:
    return rule["logic"]["children"][1]


def _grounded(rule: dict) -> dict:
    return rule["logic"]["children"][0]["concept"]


# (mutation, also expressible in the JSON Schema?)
INVALID: dict[str, tuple[Callable[[dict], None], bool]] = {
    "grounded and unmapped": (
        lambda r: _grounded(r).update(unmapped_reason="also unmapped"),
        True,
    ),
    "neither grounded nor unmapped": (lambda r: _grounded(r).pop("grounding"), True),
    "parameter test on a Condition": (
        lambda r: _param(r)["concept"].update(role="Condition"),
        True,
    ),
    "condition test on a Procedure": (lambda r: _grounded(r).update(role="Procedure"), True),
    "unknown operator": (lambda r: _param(r).update(operator="=>"), True),
    "between with one number": (lambda r: _param(r).update(operator="between"), False),
    "range with three numbers": (
        lambda r: _param(r).update(operator="between", threshold=[1, 2, 3]),
        True,
    ),
    "action on a Condition": (lambda r: r["actions"][0]["concept"].update(role="Condition"), True),
    "outcome with a Procedure role": (
        lambda r: r["outcomes"].append(copy.deepcopy(r["actions"][0]["concept"])),
        True,
    ),
    "empty AND node": (lambda r: r["logic"].update(children=[]), True),
    "unknown key": (lambda r: r.update(confidence=0.9), True),
    "malformed snomed id": (
        lambda r: _grounded(r)["grounding"].update(snomed_id="12ab"),
        True,
    ),
    "score above 1": (lambda r: _grounded(r)["grounding"].update(score=1.5), True),
    "bad source sha256": (lambda r: r["provenance"].update(source_sha256="abc"), True),
    "unknown backend": (lambda r: r["provenance"].update(backend="regex"), True),
    "missing provenance": (lambda r: r.pop("provenance"), True),
    "guideline mismatch": (lambda r: r["provenance"].update(guideline="other"), False),
    "nothing left": (lambda r: r.update(logic=None, actions=[], outcomes=[]), False),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_rules_are_rejected(validator, example, case) -> None:
    mutate, schema_can_tell = INVALID[case]
    mutate(example)
    with pytest.raises(ValidationError):
        ExtractedRule.model_validate(example)
    if schema_can_tell:
        errors = list(validator.iter_errors(example))
        assert errors, f"schema accepted: {case}"
