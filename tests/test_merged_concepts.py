"""Merging MAIN and POPULATION passes, OR splitting, and the split_logic helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.config import load_abbreviations
from cardio_assets.evaluation import evaluate
from cardio_assets.logic.abbreviations import Abbreviations, singular_head
from cardio_assets.logic.logic_split import Expr, Leaf, leaves, split_logic
from cardio_assets.logic.merged_concepts import merge_row, prediction_line
from cardio_assets.records import ExtractedAction, ExtractedConcept, LogicNode, RowExtraction

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def abbreviations() -> Abbreviations:
    return load_abbreviations(ROOT / "configs" / "abbreviations.txt")


def extraction(focus: str, concepts: list[ExtractedConcept], actions=(), **extra) -> RowExtraction:  # type: ignore[no-untyped-def]
    return RowExtraction(
        row_id="g:table_000:r3",
        guideline="g",
        focus=focus,  # type: ignore[arg-type]
        backend="llm",
        model="m",
        input_hash=f"h-{focus}",
        concepts=concepts,
        actions=list(actions),
        **extra,
    )


def concept(role: str, text: str, normalized: str | None = None, **extra) -> ExtractedConcept:  # type: ignore[no-untyped-def]
    return ExtractedConcept(role=role, text=text, normalized=normalized, **extra)  # type: ignore[arg-type]


PCI = ExtractedAction(
    text="PCI",
    normalized="percutaneous coronary intervention",
    role="Procedure",
    level="B",
    **{"class": "IIb"},
)


# --------------------------------------------------------------------------- split_logic


def test_and_binds_tighter_than_or() -> None:
    assert split_logic("diabetes or CKD and anaemia") == Expr(
        "OR", (Leaf("diabetes"), Expr("AND", (Leaf("CKD"), Leaf("anaemia"))))
    )
    assert split_logic("diabetes and CKD or anaemia") == Expr(
        "OR", (Expr("AND", (Leaf("diabetes"), Leaf("CKD"))), Leaf("anaemia"))
    )


def test_a_semicolon_ends_the_clause_a_negation_governs() -> None:
    """ "no chest pain; or a syncope": what follows the semicolon is said of the patient
    again, not denied; the connector after the semicolon still joins the two clauses."""
    tree = split_logic("no chest pain at rest; or a syncope on exertion")
    assert tree == Expr(
        "OR", (Leaf("chest pain at rest", negated=True), Leaf("a syncope on exertion"))
    )
    listed = split_logic("absence of fever; rising troponin; new ECG changes")
    assert [(x.text, x.negated) for x in leaves(listed)] == [
        ("fever", True),
        ("rising troponin", False),
        ("new ECG changes", False),
    ]


def test_but_stops_a_negation() -> None:
    """ "no angina but a dilated ventricle": "but" contrasts the second with the first, so
    the negation of the first does not carry over."""
    assert split_logic("no angina but a dilated ventricle") == Expr(
        "AND", (Leaf("angina", negated=True), Leaf("a dilated ventricle"))
    )


def test_neither_nor_is_two_negated_conditions_and() -> None:
    assert split_logic("neither diabetes nor CKD") == Expr(
        "AND", (Leaf("diabetes", negated=True), Leaf("CKD", negated=True))
    )
    tree = split_logic("neither diabetes, CKD nor anaemia")
    assert isinstance(tree, Expr) and tree.op == "AND"
    assert [(x.text, x.negated) for x in leaves(tree)] == [
        ("diabetes", True),
        ("CKD", True),
        ("anaemia", True),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "high surgical risk or not operable",
            Expr("OR", (Leaf("high surgical risk"), Leaf("not operable"))),
        ),
        (
            "aspirin, clopidogrel, or prasugrel",
            Expr("OR", (Leaf("aspirin"), Leaf("clopidogrel"), Leaf("prasugrel"))),
        ),
        (
            "ACE-I, beta-blocker and MRA",
            Expr("AND", (Leaf("ACE-I"), Leaf("beta-blocker"), Leaf("MRA"))),
        ),
        ("diabetes and/or CKD", Expr("OR", (Leaf("diabetes"), Leaf("CKD")))),
        ("OAC plus clopidogrel", Expr("AND", (Leaf("OAC"), Leaf("clopidogrel")))),
        # De Morgan: without A or B = neither A nor B
        ("without diabetes or CKD", Expr("AND", (Leaf("diabetes", True), Leaf("CKD", True)))),
        # values and parentheses are never split
        ("LVEF of 35% or less", Leaf("LVEF of 35% or less")),
        ("LVEF between 36 and 49%", Leaf("LVEF between 36 and 49%")),
        ("an MRA (spironolactone or eplerenone)", Leaf("an MRA (spironolactone or eplerenone)")),
        # a shared complement is distributed (the contract, section 6)
        (
            "signs or symptoms of congestion",
            Expr(
                "OR",
                (Leaf("signs", full="signs of congestion"), Leaf("symptoms of congestion")),
            ),
        ),
    ],
)
def test_split_logic_shapes(text: str, expected) -> None:  # type: ignore[no-untyped-def]
    assert split_logic(text) == expected


def test_elliptical_pairs_bind_tightest_and_name_the_full_concept() -> None:
    tree = split_logic("ischaemic HF, NYHA class II or III and LVEF ≤35%")
    assert tree == Expr(
        "AND",
        (
            Leaf("ischaemic HF"),
            Expr("OR", (Leaf("NYHA class II"), Leaf("III", full="NYHA class III"))),
            Leaf("LVEF ≤35%"),
        ),
    )
    pair = split_logic("paroxysmal or persistent AF")
    assert pair == Expr("OR", (Leaf("paroxysmal", full="paroxysmal AF"), Leaf("persistent AF")))


def test_keep_together_vetoes_a_split_of_a_known_term() -> None:
    known = {"disease and/or syndrome"}.__contains__
    assert split_logic("disease and/or syndrome", keep_together=known) == Leaf(
        "disease and/or syndrome"
    )


# --------------------------------------------------------------------------- merge


def test_shared_population_condition_kept_once_and_tagged(abbreviations: Abbreviations) -> None:
    main = extraction(
        "MAIN",
        [
            concept("Condition", "CCS"),  # abbreviation left unexpanded by the pass
            concept("ClinicalParameter", "LVEF", operator="<=", threshold=35, unit="%"),
            concept("Condition", "high surgical risk", or_group="x7"),
            concept("Condition", "not operable", or_group="x7"),
        ],
        [PCI],
    )
    population = extraction(
        "POPULATION",
        [concept("Condition", "chronic coronary syndrome", "Chronic coronary syndrome")],
        [PCI.model_copy(update={"text": "ignored"})],
    )
    out = merge_row(main, population, abbreviations)
    names = [(c.role, c.normalized) for c in out.concepts]
    assert names.count(("Condition", "chronic coronary syndrome")) == 1
    ccs = next(c for c in out.concepts if c.normalized == "chronic coronary syndrome")
    assert ccs.is_population and ccs.sources == ["MAIN", "POPULATION"] and ccs.text == "CCS"
    lvef = next(c for c in out.concepts if c.role == "ClinicalParameter")
    assert lvef.normalized == "left ventricular ejection fraction" and not lvef.is_population
    groups = {c.normalized: c.or_group for c in out.concepts}
    assert groups["high surgical risk"] == groups["not operable"] == "g1"  # renumbered per row
    # actions from MAIN only, and the action's own concept is a concept of the row
    assert [a.text for a in out.actions] == ["PCI"]
    assert ("Procedure", "percutaneous coronary intervention") in names
    assert out.logic == LogicNode(
        op="AND",
        children=[
            LogicNode(op="LEAF", concept=0),
            LogicNode(op="LEAF", concept=1),
            LogicNode(
                op="OR", children=[LogicNode(op="LEAF", concept=2), LogicNode(op="LEAF", concept=3)]
            ),
        ],
    )


def test_or_phrase_from_a_pass_is_split_into_one_group(abbreviations: Abbreviations) -> None:
    main = extraction(
        "MAIN",
        [
            concept("Condition", "diabetes or CKD and anaemia"),
            concept("Condition", "high surgical risk or not operable"),
        ],
    )
    out = merge_row(main, None, abbreviations)
    got = [(c.text, c.normalized, c.or_group) for c in out.concepts]
    assert got == [
        ("diabetes", "diabetes mellitus", "g1"),
        ("CKD", "chronic kidney disease", "g1"),
        ("anaemia", "anaemia", "g1"),
        ("high surgical risk", "high surgical risk", "g2"),
        ("not operable", "not operable", "g2"),
    ]
    # the exact nested structure survives in the logic tree: A OR (B AND C)
    first = out.logic.children[0]  # type: ignore[union-attr]
    assert first == LogicNode(
        op="OR",
        children=[
            LogicNode(op="LEAF", concept=0),
            LogicNode(
                op="AND",
                children=[LogicNode(op="LEAF", concept=1), LogicNode(op="LEAF", concept=2)],
            ),
        ],
    )


def test_neither_nor_phrase_becomes_two_negated_conditions(abbreviations: Abbreviations) -> None:
    out = merge_row(
        extraction("MAIN", [concept("Condition", "neither diabetes nor CKD")]), None, abbreviations
    )
    assert [(c.normalized, c.negated, c.or_group) for c in out.concepts] == [
        ("diabetes mellitus", True, None),
        ("chronic kidney disease", True, None),
    ]
    assert out.logic == LogicNode(
        op="AND", children=[LogicNode(op="LEAF", concept=0), LogicNode(op="LEAF", concept=1)]
    )


def test_without_a_or_b_from_a_pass_keeps_its_label_and_means_neither(
    abbreviations: Abbreviations,
) -> None:
    """The contract's NOT(OR(A, B)): both negated under one OR label, as the llm prompt asks.
    The label stays for the output; the logic is NOT A AND NOT B, never OR(NOT A, NOT B)."""
    main = extraction(
        "MAIN",
        [
            concept("Condition", "AF", "atrial fibrillation"),
            concept("Condition", "severe mitral stenosis", or_group="g1", negated=True),
            concept(
                "Condition", "a mechanical valve", "mechanical valve", or_group="g1", negated=True
            ),
        ],
    )
    out = merge_row(main, None, abbreviations)
    assert [(c.normalized, c.negated, c.or_group) for c in out.concepts] == [
        ("atrial fibrillation", False, None),
        ("severe mitral stenosis", True, "g1"),
        ("mechanical valve", True, "g1"),
    ]
    assert out.logic == LogicNode(
        op="AND", children=[LogicNode(op="LEAF", concept=i) for i in range(3)]
    )
    # a group with a non-negated member is still an OR
    mixed = merge_row(
        extraction(
            "MAIN",
            [
                concept("Condition", "diabetes", or_group="g1"),
                concept(
                    "Condition", "no prior stroke", "prior stroke", or_group="g1", negated=True
                ),
            ],
        ),
        None,
        abbreviations,
    )
    assert mixed.logic == LogicNode(
        op="OR", children=[LogicNode(op="LEAF", concept=0), LogicNode(op="LEAF", concept=1)]
    )


def test_parameters_with_different_values_stay_apart(abbreviations: Abbreviations) -> None:
    main = extraction(
        "MAIN",
        [
            concept("ClinicalParameter", "LVEF", operator="<=", threshold=35, unit="%"),
            concept("ClinicalParameter", "LVEF", operator="between", threshold=[36, 49], unit="%"),
            concept("ClinicalParameter", "LVEF", operator="<=", threshold=35, unit="%"),
        ],
    )
    out = merge_row(main, None, abbreviations)
    assert [(c.operator, c.threshold) for c in out.concepts] == [
        ("<=", 35.0),
        ("between", [36.0, 49.0]),
    ]


def test_pass_errors_are_carried_and_row_ids_must_match(abbreviations: Abbreviations) -> None:
    failed = extraction("POPULATION", [], error="ParseError: truncated answer")
    out = merge_row(extraction("MAIN", [concept("Condition", "AF")]), failed, abbreviations)
    assert out.errors == ["POPULATION: ParseError: truncated answer"]
    assert [c.normalized for c in out.concepts] == ["atrial fibrillation"]
    other = failed.model_copy(update={"row_id": "g:table_000:r4"})
    with pytest.raises(ValueError, match="different rows"):
        merge_row(extraction("MAIN", []), other, abbreviations)
    with pytest.raises(ValueError, match="at least one pass"):
        merge_row(None, None, abbreviations)


def test_normalized_is_singular_and_expanded(abbreviations: Abbreviations) -> None:
    assert abbreviations.normalize("DOACs") == "direct oral anticoagulant"
    assert abbreviations.normalize("Loop diuretics") == "loop diuretic"
    assert abbreviations.normalize("HF hospitalization") == "heart failure hospitalization"
    assert abbreviations.normalize("as") == "as"  # lower-case words are never abbreviations
    assert singular_head("type 2 diabetes") == "type 2 diabetes"
    assert singular_head("aortic stenosis") == "aortic stenosis"


# --------------------------------------------------------------------------- output and scoring


def test_prediction_line_and_evaluation_round_trip(abbreviations: Abbreviations) -> None:
    main = extraction(
        "MAIN",
        [
            concept("Condition", "CCS"),
            concept("ClinicalParameter", "LVEF", operator="<=", threshold=35, unit="%"),
            concept("Condition", "high surgical risk", or_group="a"),
            concept("Condition", "not operable", or_group="a"),
        ],
        [PCI],
    )
    out = merge_row(main, extraction("POPULATION", [concept("Condition", "CCS")]), abbreviations)
    line = prediction_line(
        "In CCS patients ... PCI may be considered.", "g", out, class_="IIb", level="B"
    )
    assert line["population"] == ["chronic coronary syndrome"]
    assert {c["snomed_id"] for c in line["concepts"]} == {None}
    gold = [dict(line)]
    perfect = evaluate(gold, [line]).summary()
    assert perfect["concepts"]["f1"] == perfect["or_group_pairs"]["f1"] == 1.0
    assert perfect["parameter_exactness"] == perfect["class_level_accuracy"] == 1.0
    # a wrong threshold and a lost OR group are both seen
    worse = dict(line)
    worse["concepts"] = [
        {**c, "threshold": 40} if c["role"] == "ClinicalParameter" else {**c, "or_group": None}
        for c in line["concepts"]
    ]
    scored = evaluate(gold, [worse]).summary()
    assert scored["parameter_exactness"] == 0.0

    # a unit spelled another way ("m2" for "m²") is the same unit; another unit is not
    def with_unit(row: dict, unit: str) -> dict:
        concepts = [
            {**c, "unit": unit} if c["role"] == "ClinicalParameter" else c for c in row["concepts"]
        ]
        return {**row, "concepts": concepts}

    for unit, exact in (("kg/m²", 1.0), ("kg/m", 0.0), ("mmHg", 0.0)):
        summary = evaluate([with_unit(line, "kg/m2")], [with_unit(line, unit)]).summary()
        assert summary["parameter_exactness"] == exact, unit
    assert scored["or_group_pairs"]["recall"] == 0.0
    assert scored["concepts"]["f1"] == 1.0
