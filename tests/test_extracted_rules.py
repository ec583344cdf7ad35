"""Rule builder: logic trees, groundings, provenance and drops; every rule valid for the
JSON Schema file. The asset test materializes the real pipeline (lexicon backend)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from cardio_assets.logic.extracted_rules import (
    NO_OUTCOME_REASON,
    build_rule,
    build_rules,
    grounding_lookup,
    rule_outline,
)
from cardio_assets.records import (
    ConditionTest,
    ExtractedAction,
    ExtractedRule,
    GroundingIndexEntry,
    GroundingOutcome,
    LogicNode,
    MergedConcept,
    MergedRow,
    ParameterTest,
    RowExtraction,
    RowRecord,
    RuleNode,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "extracted_rule.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SHA = "ab" * 32
G = "ccs-demo"


def assert_schema_valid(rule: ExtractedRule) -> None:
    for exclude_none in (False, True):
        data = json.loads(rule.model_dump_json(by_alias=True, exclude_none=exclude_none))
        errors = sorted(VALIDATOR.iter_errors(data), key=str)
        assert not errors, f"{rule.id}: {errors[0].message} at {list(errors[0].path)}"


def row(index: int = 3, text: str = "synthetic row", cls: str | None = "IIb") -> RowRecord:
    return RowRecord(
        id=f"{G}:table_001:r{index}",
        guideline=G,
        guideline_title="Demo guideline",
        table_id="table_001",
        table_title="Revascularization",
        row_index=index,
        header=["Recommendations", "Class", "Level"],
        row_text=text,
        class_=cls,
        level="B",
        section="Revascularization in CCS",
        pages=[62, 63],
        source_file="data/demo.html",
        source_sha256=SHA,
        cell_sha256="cd" * 32,
    )


def mc(role: str, normalized: str, **kw) -> MergedConcept:
    return MergedConcept(
        role=role,
        text=kw.pop("text", normalized),
        normalized=normalized,
        sources=kw.pop("sources", ["MAIN"]),
        **kw,
    )


def mapped(role: str, term: str, sctid: int, fsn: str, score: float = 0.93) -> GroundingOutcome:
    return GroundingOutcome(
        term=term,
        role=role,
        entry=GroundingIndexEntry(
            entity_standardized_candidate=term,
            snomed_id=sctid,
            preferred_term=fsn,
            score=score,
            target_label=role,
            term=term,
            role=role,
            semantic_tag=fsn.rsplit("(", 1)[-1].rstrip(")"),
        ),
    )


def unmapped(role: str, term: str, reason: str) -> GroundingOutcome:
    return GroundingOutcome(term=term, role=role, unmapped_reason=reason)


def worked_example(logic: LogicNode | None = None) -> MergedRow:
    """The worked example row of docs/ARCHITECTURE.md after merge (our own wording)."""
    return MergedRow(
        row_id=f"{G}:table_001:r3",
        guideline=G,
        backend="lexicon",
        model="lexicon-rules-1",
        concepts=[
            mc(
                "Condition",
                "chronic coronary syndrome",
                text="CCS",
                is_population=True,
                sources=["MAIN", "POPULATION"],
            ),
            mc(
                "ClinicalParameter",
                "left ventricular ejection fraction",
                text="LVEF",
                operator="<=",
                threshold=35.0,
                unit="%",
            ),
            mc("Condition", "high surgical risk", or_group="g1"),
            mc("Condition", "not operable", or_group="g1"),
            mc("Procedure", "percutaneous coronary intervention", text="PCI"),
        ],
        actions=[
            ExtractedAction(
                text="PCI",
                normalized="percutaneous coronary intervention",
                role="Procedure",
                class_="IIb",
                level="B",
            )
        ],
        logic=logic,
    )


WORKED_GROUNDINGS = [
    mapped(
        "Condition", "chronic coronary syndrome", 1010333003, "Chronic coronary syndrome (disorder)"
    ),
    mapped(
        "ClinicalParameter",
        "left ventricular ejection fraction",
        250908004,
        "Left ventricular ejection fraction (observable entity)",
    ),
    unmapped("Condition", "high surgical risk", "best candidate 0.62 below min_match_score 0.75"),
    mapped(
        "Procedure",
        "percutaneous coronary intervention",
        415070008,
        "Percutaneous coronary intervention (procedure)",
    ),
]


def extractions(focus_hashes: dict[str, str | None], error: str | None = None):
    return [
        RowExtraction(
            row_id=f"{G}:table_001:r3",
            guideline=G,
            focus=focus,
            backend="lexicon",
            model="lexicon-rules-1",
            prompt_hash=h,
            input_hash="00",
            error=error if focus == "POPULATION" else None,
        )
        for focus, h in focus_hashes.items()
    ]


def shape(node) -> object:
    """Tree shape as nested tuples: ('AND', [...]) and leaf terms (with operators)."""
    if isinstance(node, RuleNode):
        return (node.op, [shape(c) for c in node.children])
    if isinstance(node, ParameterTest):
        return f"{node.concept.normalized} {node.operator} {node.threshold:g}{node.unit}"
    return ("NOT " if node.negated else "") + node.concept.normalized


@pytest.mark.parametrize("explicit_tree", [False, True])
def test_worked_example_tree(explicit_tree: bool) -> None:
    tree = None
    if explicit_tree:  # what the merge records: AND(leaf0, leaf1, OR(leaf2, leaf3))
        leaf = lambda i: LogicNode(op="LEAF", concept=i)  # noqa: E731
        tree = LogicNode(
            op="AND",
            children=[leaf(0), leaf(1), LogicNode(op="OR", children=[leaf(2), leaf(3)])],
        )
    rule = build_rule(
        row(),
        worked_example(tree),
        grounding_lookup(WORKED_GROUNDINGS),
        extractions={
            (e.row_id, e.focus): e for e in extractions({"MAIN": "h1", "POPULATION": "h1"})
        },
        config_hash="cfg123",
        run_id="run-1",
    )
    assert isinstance(rule, ExtractedRule)
    assert_schema_valid(rule)
    assert shape(rule.logic) == (
        "AND",
        [
            "chronic coronary syndrome",
            "left ventricular ejection fraction <= 35%",
            ("OR", ["high surgical risk", "not operable"]),
        ],
    )
    ccs, lvef, risk, inoperable = (leaf.concept for leaf in rule.logic.leaves())
    assert ccs.grounding.snomed_id == "1010333003" and ccs.is_population
    assert ccs.passes == ["MAIN", "POPULATION"]
    assert lvef.grounding.snomed_id == "250908004"
    assert risk.grounding is None and "0.62 below" in risk.unmapped_reason
    assert inoperable.grounding is None and inoperable.unmapped_reason == NO_OUTCOME_REASON
    [action] = rule.actions
    assert (action.concept.grounding.snomed_id, action.class_, action.level, action.polarity) == (
        "415070008",
        "IIb",
        "B",
        "recommended",
    )
    assert rule.outcomes == []
    p = rule.provenance
    assert (p.table_id, p.row_index, p.pages, p.section) == (
        "table_001",
        3,
        [62, 63],
        "Revascularization in CCS",
    )
    assert (p.source_sha256, p.passes, p.backend, p.model) == (
        SHA,
        ["MAIN", "POPULATION"],
        "lexicon",
        "lexicon-rules-1",
    )
    assert (p.prompt_hash, p.config_hash, p.run_id) == ("h1", "cfg123", "run-1")
    assert rule_outline(rule) == (
        "IF (chronic coronary syndrome AND left ventricular ejection fraction <= 35% AND "
        "(high surgical risk? OR not operable?)) THEN percutaneous coronary intervention [IIb/B]"
    )


def test_nested_tree_negation_outcomes_and_polarity() -> None:
    """A OR (B AND NOT C), a negated parameter inverted, class III 'not recommended'."""
    leaf = lambda i: LogicNode(op="LEAF", concept=i)  # noqa: E731
    merged = MergedRow(
        row_id=f"{G}:table_001:r3",
        guideline=G,
        backend="llm",
        model="qwen",
        concepts=[
            mc("Condition", "a"),
            mc("Condition", "b"),
            mc("Condition", "c", negated=True),
            mc("ClinicalParameter", "lvef", operator="<", threshold=35.0, unit="%", negated=True),
            mc("Medication", "drug x"),
            mc("Outcome", "mortality"),
        ],
        actions=[ExtractedAction(text="drug X", role="Medication", polarity="not recommended")],
        logic=LogicNode(
            op="AND",
            children=[
                LogicNode(
                    op="OR",
                    children=[leaf(0), LogicNode(op="AND", children=[leaf(1), leaf(2)])],
                ),
                leaf(3),
            ],
        ),
    )
    rule = build_rule(row(cls="III"), merged, grounding_lookup([]), config_hash="c", run_id=None)
    assert isinstance(rule, ExtractedRule)
    assert_schema_valid(rule)
    assert shape(rule.logic) == ("AND", [("OR", ["a", ("AND", ["b", "NOT c"])]), "lvef >= 35%"])
    assert rule.polarity == "not recommended"
    assert rule.actions[0].class_ == "III"  # the row's class when the pass gave none
    assert rule.actions[0].concept.normalized == "drug x"
    assert [o.normalized for o in rule.outcomes] == ["mortality"]
    assert all(c.unmapped_reason == NO_OUTCOME_REASON for c in rule.concepts())
    assert rule.provenance.passes == ["MAIN"]  # no raw records given: from the concepts


def test_or_groups_without_tree_and_single_child_collapse() -> None:
    """No recorded tree: OR group -> OR node, rest AND; one test left -> AND root of one."""
    merged = worked_example(None)
    merged.concepts.append(mc("ClinicalParameter", "heart rate"))  # no threshold: not a test
    notes: list[str] = []
    rule = build_rule(row(), merged, {}, config_hash="c", notes=notes)
    assert shape(rule.logic)[1][2] == ("OR", ["high surgical risk", "not operable"])
    assert any("heart rate" in n and "no operator" in n for n in notes)

    lonely = MergedRow(
        row_id=f"{G}:table_001:r3",
        guideline=G,
        backend="lexicon",
        concepts=[mc("Condition", "only one", or_group="g1"), mc("Procedure", "echo")],
        actions=[ExtractedAction(text="echo", role="Procedure")],
        logic=LogicNode(op="OR", children=[LogicNode(op="LEAF", concept=0)]),
    )
    rule = build_rule(row(), lonely, {}, config_hash="c")
    assert shape(rule.logic) == ("AND", ["only one"])
    assert_schema_valid(rule)


def test_prompt_hashes_and_failed_pass() -> None:
    raw = {(e.row_id, e.focus): e for e in extractions({"MAIN": "aaa", "POPULATION": "bbb"})}
    rule = build_rule(row(), worked_example(), {}, extractions=raw, config_hash="c")
    assert rule.provenance.prompt_hash == "MAIN:aaa POPULATION:bbb"
    failed = {
        (e.row_id, e.focus): e
        for e in extractions({"MAIN": "aaa", "POPULATION": "bbb"}, error="parse failure")
    }
    rule = build_rule(row(), worked_example(), {}, extractions=failed, config_hash="c")
    assert rule.provenance.passes == ["MAIN"]


def test_drops_are_counted_with_reasons() -> None:
    rows = [row(1), row(2), row(3), row(4)]
    keep_actions_only = MergedRow(
        row_id=rows[0].id,
        guideline=G,
        backend="lexicon",
        concepts=[mc("Medication", "aspirin")],
        actions=[ExtractedAction(text="aspirin", role="Medication", class_="I", level="A")],
    )
    noise = MergedRow(  # an outcome and a parameter without a value: nothing computable
        row_id=rows[1].id,
        guideline=G,
        backend="lexicon",
        concepts=[mc("Outcome", "survival"), mc("ClinicalParameter", "blood pressure")],
    )
    failed = MergedRow(
        row_id=rows[2].id, guideline=G, backend="llm", errors=["MAIN: timeout", "POPULATION: 500"]
    )
    build = build_rules(
        rows,
        [keep_actions_only, noise, failed],
        [mapped("Medication", "aspirin", 387458008, "Aspirin (substance)")],
        config_hash="c",
        run_id="r",
    )
    assert [r.id for r in build.rules] == [rows[0].id]
    assert build.rules[0].logic is None
    assert build.rules[0].actions[0].concept.grounding.snomed_id == "387458008"
    reasons = {d.row_id: d.reason for d in build.dropped}
    assert reasons[rows[1].id] == "nothing left: no action and no condition"
    assert "MAIN: timeout" in reasons[rows[2].id]
    assert reasons[rows[3].id] == "nothing left: row has no merged extraction"
    assert build.dropped_by_reason() == {"nothing left": 3}
    counts = build.counts()
    assert (counts["rules"], counts["dropped"], counts["concept_uses_mapped"]) == (1, 3, 1)
    for rule in build.rules:
        assert_schema_valid(rule)


def test_invalid_row_is_dropped_not_raised() -> None:
    bad = row()
    bad.source_sha256 = "not-a-sha"  # the contract requires 64 hex digits
    build = build_rules([bad], [worked_example()], [], config_hash="c")
    assert build.rules == []
    assert build.dropped[0].reason.startswith("invalid rule: key 'source_sha256'")


def test_condition_test_roles() -> None:
    """Concepts in the logic keep their role; actions never enter the tree."""
    rule = build_rule(row(), worked_example(), {}, config_hash="c")
    assert all(isinstance(x, ConditionTest | ParameterTest) for x in rule.logic.leaves())
    assert {x.concept.role for x in rule.logic.leaves()} == {"Condition", "ClinicalParameter"}


def test_asset_materializes_valid_rules_on_a_sample() -> None:
    """Real pipeline (Docling, lexicon backend, bundled SNOMED sample) up to extracted_rules."""
    import dagster as dg

    from cardio_assets import paths
    from cardio_assets.definitions import RESOURCES, defs
    from cardio_assets.partitions import sync_guideline_partitions
    from resources.duckdb_io_manager import read_records

    guideline = "hf-sample-docx"
    upstream = dg.AssetSelection.assets("extracted_rules").upstream()
    with dg.DagsterInstance.ephemeral() as instance:
        sync_guideline_partitions(instance)
        result = dg.materialize(
            [*defs.assets, *(defs.asset_checks or [])],
            instance=instance,
            resources=RESOURCES,
            selection=upstream,
            partition_key=guideline,
        )
    assert result.success
    [event] = [
        e
        for e in result.get_asset_materialization_events()
        if e.asset_key == dg.AssetKey("extracted_rules")
    ]
    meta = event.step_materialization_data.materialization.metadata
    lines = (paths.guideline_output_dir(guideline) / "extracted_rules.jsonl").read_text()
    rules = [json.loads(line) for line in lines.splitlines()]
    assert rules and len(rules) == meta["rules"].value
    assert len(rules) + meta["dropped"].value == meta["rows"].value
    for data in rules:
        errors = list(VALIDATOR.iter_errors(data))
        assert not errors, f"{data['id']}: {errors[0].message}"
        assert data["provenance"]["run_id"] == result.run_id
        assert data["provenance"]["source_sha256"]
    stored = read_records(paths.warehouse_path(), "extracted_rules", ExtractedRule, [guideline])
    assert [r.model_dump(by_alias=True) for r in stored] == [
        ExtractedRule.model_validate(d).model_dump(by_alias=True) for d in rules
    ]
    assert any(r.logic and r.logic.leaves() for r in stored)
    assert any(c.grounding for r in stored for c in r.concepts())
    [check] = [
        c for c in result.get_asset_check_evaluations() if c.check_name == "rules_have_actions"
    ]
    assert check.passed
