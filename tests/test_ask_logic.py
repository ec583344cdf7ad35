"""cardio ask: each logic case on hand-written rules, in both engines.

The Python engine is checked against answers worked out by hand; the same rules are then
loaded into the real Neo4j (tests/neo4j_fixtures.py) and the Cypher engine must give the
same value for every rule and every leaf, for every patient used here.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic import neo4j_graph as graph
from cardio_assets.logic.ask.answer import build_answer
from cardio_assets.logic.ask.cypher_engine import CypherEngine
from cardio_assets.logic.ask.evaluate import PythonEngine
from cardio_assets.logic.ask.facts import PatientTerminology
from cardio_assets.logic.ask.model import FALSE, TRUE, UNKNOWN
from tests.ask_helpers import AND, OR, bundle_patient, cond, condition, form_patient, param, rule

G = "ask-logic"
HF, HFREF, AF, MI, T2DM = "84114007", "703272007", "49436004", "22298006", "44054006"
LVEF, LDL, EGFR, BP = "250908004", "102739008", "80274001", "75367002"

RULES = [
    rule(
        G,
        0,
        AND(
            cond("HF", HF),
            param("LVEF ≤35%", "left ventricular ejection fraction", LVEF, "<=", 35.0, "%"),
        ),
    ),
    rule(G, 1, OR(cond("AF", AF), cond("type 2 diabetes", T2DM))),
    rule(
        G,
        2,
        AND(
            cond("HF", HF),
            OR(
                param("LVEF ≤40%", "left ventricular ejection fraction", LVEF, "<=", 40.0, "%"),
                AND(
                    cond("type 2 diabetes", T2DM),
                    param(
                        "eGFR 30–60",
                        "estimated glomerular filtration rate",
                        EGFR,
                        "between",
                        [30.0, 60.0],
                        "mL/min/1.73 m²",
                    ),
                ),
            ),
        ),
    ),
    rule(
        G,
        3,
        AND(cond("HF", HF), cond("myocardial infarction", MI, negated=True)),
        action="diltiazem",
        action_sid="372793000",
        klass="III",
        level="C",
        polarity="not recommended",
    ),
    rule(
        G,
        4,
        AND(
            param(
                "LDL-C ≥1.4 mmol/L", "low density lipoprotein cholesterol", LDL, ">=", 1.4, "mmol/L"
            )
        ),
    ),
    rule(
        G,
        5,
        AND(
            param(
                "LDL-C <1.4 mmol/L (<55 mg/dL)",
                "low density lipoprotein cholesterol",
                LDL,
                "<",
                1.4,
                "mmol/L",
            )
        ),
    ),
    rule(
        G,
        6,
        AND(param("office BP ≥140/90 mmHg", "office blood pressure", None, ">=", 140.0, "mmHg")),
    ),
    rule(G, 7, AND(param("BP <130/80 mmHg", "blood pressure", BP, "<", 130.0, "mmHg"))),
    rule(G, 8, AND(param("aged ≥75 years", "age", None, ">=", 75.0, "years"))),
    rule(G, 9, AND(cond("CCS", normalized="chronic coronary syndrome"))),
    rule(G, 10, None),
    rule(
        G, 11, AND(cond("HFrEF", HFREF)), action="beta-blocker", action_sid="373254001", klass="IIa"
    ),
]


@pytest.fixture(scope="module")
def terms() -> PatientTerminology:
    return PatientTerminology.open()


@pytest.fixture(scope="module")
def python_engine(terms: PatientTerminology) -> PythonEngine:
    return PythonEngine(RULES, terms.units, terms.config)


def values(engine, ctx) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {int(r.rule.rule_id.rsplit("r", 1)[1]): r.value for r in engine.evaluate(ctx)}


def leaves(engine, ctx, row: int):  # type: ignore[no-untyped-def]
    return next(r for r in engine.evaluate(ctx) if r.rule.rule_id.endswith(f":r{row}")).leaves


def lvef(v: float, unit: str = "%") -> dict:
    return {"name": "LVEF", "value": v, "unit": unit}


# Patients of the cases below, reused for the two-engine check.
CASES: dict[str, dict] = {
    "and_true": {"conditions": ["heart failure"], "parameters": [lvef(30)]},
    "and_false": {"conditions": ["heart failure"], "parameters": [lvef(40)]},
    "and_unknown": {"conditions": ["heart failure"]},
    "or_true": {"conditions": ["type 2 diabetes"]},
    "or_false": {"absent": ["atrial fibrillation", "type 2 diabetes"]},
    "nested_true": {
        "conditions": ["heart failure", "type 2 diabetes"],
        "parameters": [lvef(45), {"name": "eGFR", "value": 45, "unit": "mL/min/1.73 m2"}],
    },
    "nested_false": {
        "conditions": ["heart failure", "type 2 diabetes"],
        "parameters": [lvef(45), {"name": "eGFR", "value": 25, "unit": "mL/min/{1.73_m2}"}],
    },
    "range_low_edge": {
        "conditions": ["heart failure", "type 2 diabetes"],
        "parameters": [lvef(45), {"name": "eGFR", "value": 30, "unit": "mL/min/1.73 m2"}],
    },
    "range_above": {
        "conditions": ["heart failure", "type 2 diabetes"],
        "parameters": [lvef(45), {"name": "eGFR", "value": 60.5, "unit": "mL/min/1.73 m2"}],
    },
    "not_false": {"conditions": ["heart failure", "myocardial infarction"]},
    "not_true": {"conditions": ["heart failure"], "absent": ["myocardial infarction"]},
    "subsumed": {
        "conditions": ["HFrEF"],
        "medications": ["bisoprolol"],
        "parameters": [lvef(0.3, "1")],
    },
    "absent_parent": {"absent": ["heart failure"]},
    "ldl_mg": {"parameters": [{"name": "LDL-C", "value": 70, "unit": "mg/dL"}]},
    "ldl_mmol": {"parameters": [{"name": "LDL-C", "value": 1.2, "unit": "mmol/L"}]},
    "ldl_dual": {"parameters": [{"name": "LDL-C", "value": 54.5, "unit": "mg/dL"}]},
    "ldl_no_unit": {"parameters": [{"name": "LDL-C", "value": 70}]},
    "ldl_bad_unit": {"parameters": [{"name": "LDL-C", "value": 70, "unit": "furlongs"}]},
    "bp_high_systolic": {
        "parameters": [{"name": "blood pressure", "value": "150/85", "unit": "mmHg"}]
    },
    "bp_high_diastolic": {
        "parameters": [{"name": "blood pressure", "value": "135/92", "unit": "mmHg"}]
    },
    "bp_normal": {"parameters": [{"name": "blood pressure", "value": "125/78", "unit": "mmHg"}]},
    "bp_mixed": {"parameters": [{"name": "blood pressure", "value": "125/82", "unit": "mm[Hg]"}]},
    "sbp_only": {"parameters": [{"name": "systolic blood pressure", "value": 150, "unit": "mmHg"}]},
    "sbp_only_low": {
        "parameters": [{"name": "systolic blood pressure", "value": 125, "unit": "mmHg"}]
    },
    "old": {"birth_date": "1950-01-01"},
    "young": {"age": 70},
    "ccs_text": {"conditions": ["CCS"]},
    "empty": {},
}


def ctx_of(terms: PatientTerminology, name: str):  # type: ignore[no-untyped-def]
    return form_patient(terms, **CASES[name])


def test_and(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    assert values(python_engine, ctx_of(terms, "and_true"))[0] == TRUE
    assert values(python_engine, ctx_of(terms, "and_false"))[0] == FALSE
    ctx = ctx_of(terms, "and_unknown")
    assert values(python_engine, ctx)[0] == UNKNOWN
    answer = build_answer(
        ctx, python_engine.evaluate(ctx), terms.units, terms.config, engine="python", guidelines=[G]
    )
    item = next(i for i in answer.possibly_applicable if i.rule_id.endswith(":r0"))
    assert item.missing == [
        "left ventricular ejection fraction <= 35 % (<= 35 % -> applicable; > 35 % -> excluded)"
    ]


def test_or(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    assert values(python_engine, ctx_of(terms, "or_true"))[1] == TRUE
    assert values(python_engine, ctx_of(terms, "or_false"))[1] == FALSE
    assert values(python_engine, ctx_of(terms, "empty"))[1] == UNKNOWN


def test_nested(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    assert values(python_engine, ctx_of(terms, "nested_true"))[2] == TRUE
    assert values(python_engine, ctx_of(terms, "nested_false"))[2] == FALSE
    assert values(python_engine, ctx_of(terms, "and_unknown"))[2] == UNKNOWN


def test_range_is_inclusive(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    assert values(python_engine, ctx_of(terms, "range_low_edge"))[2] == TRUE  # 30 in [30, 60]
    assert values(python_engine, ctx_of(terms, "range_above"))[2] == FALSE


def test_not_and_class_three_first(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    ctx = ctx_of(terms, "not_false")
    assert values(python_engine, ctx)[3] == FALSE
    answer = build_answer(
        ctx, python_engine.evaluate(ctx), terms.units, terms.config, engine="python", guidelines=[G]
    )
    item = next(i for i in answer.excluded if i.rule_id.endswith(":r3"))
    assert item.warning and item.contradicted and "myocardial infarction" in item.contradicted[0]
    ctx = ctx_of(terms, "not_true")
    assert values(python_engine, ctx)[3] == TRUE
    answer = build_answer(
        ctx, python_engine.evaluate(ctx), terms.units, terms.config, engine="python", guidelines=[G]
    )
    assert answer.applicable[0].rule_id.endswith(":r3") and answer.applicable[0].warning
    assert [i.class_ for i in answer.applicable] == sorted(
        (i.class_ for i in answer.applicable),
        key=lambda c: {"III": 0, "I": 1, "IIa": 2, "IIb": 3}[c],
    )


def test_subsumption_and_drug_class(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    ctx = ctx_of(terms, "subsumed")
    v = values(python_engine, ctx)
    assert v[0] == TRUE  # HFrEF is-a heart failure; 0.3 (unit 1) = 30 %
    hf_leaf = next(leaf for leaf in leaves(python_engine, ctx, 0) if leaf.kind == "condition")
    assert ctx.facts[hf_leaf.fact].snomed_id == HFREF
    answer = build_answer(
        ctx, python_engine.evaluate(ctx), terms.units, terms.config, engine="python", guidelines=[G]
    )
    item = next(i for i in answer.applicable if i.rule_id.endswith(":r11"))
    assert "bisoprolol (is-a)" in (item.actions[0].patient_has or "")
    # no heart failure at all rules out its subtype HFrEF (descendants of an absent fact)
    assert values(python_engine, ctx_of(terms, "absent_parent"))[11] == FALSE


def test_unit_conversion(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    assert values(python_engine, ctx_of(terms, "ldl_mg"))[4] == TRUE  # 70 mg/dL = 1.81 mmol/L
    assert values(python_engine, ctx_of(terms, "ldl_mmol"))[4] == FALSE
    for case in ("ldl_no_unit", "ldl_bad_unit"):
        ctx = ctx_of(terms, case)
        assert values(python_engine, ctx)[4] == UNKNOWN
        assert any(p.where == "parameters[0]" or "unit" in p.message for p in ctx.problems) or (
            ctx.measurements[0].unit_problem
        )


def test_dual_units_use_the_rows_own_number(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    ctx = ctx_of(terms, "ldl_dual")  # 54.5 mg/dL: < 55 mg/dL as written, 1.409 mmol/L converted
    assert values(python_engine, ctx)[5] == TRUE
    assert leaves(python_engine, ctx, 5)[0].alternative
    assert values(python_engine, ctx)[4] == TRUE  # the other row gives only mmol/L: converted


def test_paired_blood_pressure(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    expect = {
        "bp_high_systolic": (TRUE, FALSE),
        "bp_high_diastolic": (TRUE, FALSE),
        "bp_normal": (FALSE, TRUE),
        "bp_mixed": (FALSE, FALSE),
        "sbp_only": (TRUE, FALSE),  # one component decides both
        "sbp_only_low": (UNKNOWN, UNKNOWN),  # the diastolic one could still decide
    }
    for case, (above, below) in expect.items():
        v = values(python_engine, ctx_of(terms, case))
        assert (v[6], v[7]) == (above, below), case


def test_age_from_birth_date(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    assert values(python_engine, ctx_of(terms, "old"))[8] == TRUE  # 76 on 2026-03-01
    assert values(python_engine, ctx_of(terms, "young"))[8] == FALSE


def test_unmapped_rule_concept_matched_by_name_as_weaker(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    ctx = ctx_of(terms, "ccs_text")
    assert values(python_engine, ctx)[9] == TRUE
    answer = build_answer(
        ctx, python_engine.evaluate(ctx), terms.units, terms.config, engine="python", guidelines=[G]
    )
    item = next(i for i in answer.applicable if i.rule_id.endswith(":r9"))
    assert item.weaker_matches and item.logic.tests[0].match == "name"


def test_no_logic_and_empty_patient(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    ctx = ctx_of(terms, "empty")
    assert set(values(python_engine, ctx).values()) == {UNKNOWN}
    assert any("no facts" in p.message for p in ctx.problems)


def test_fhir_statuses(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    ctx = bundle_patient(
        terms,
        {"resourceType": "Patient", "id": "p", "birthDate": "1940-05-05"},
        condition("hf", HF),
        condition("mi-resolved", MI, clinical="resolved"),
        condition("dm-refuted", T2DM, clinical=None, verification="refuted"),
        condition("af-error", AF, clinical=None, verification="entered-in-error"),
    )
    by_source = {f.source: f for f in ctx.facts}
    assert by_source["Condition/hf"].status == "present"
    assert by_source["Condition/dm-refuted"].status == "absent"
    assert "Condition/mi-resolved" not in by_source and "Condition/af-error" not in by_source
    assert any("resolved" in x for x in ctx.patient.not_counted)
    v = values(python_engine, ctx)
    assert v[1] == UNKNOWN  # AF entered in error: unknown; diabetes refuted: no help
    assert v[3] == UNKNOWN  # resolved MI neither present nor absent
    assert v[8] == TRUE  # age 85


@pytest.mark.neo4j
def test_cypher_engine_agrees_on_every_case(terms, python_engine, neo4j_driver) -> None:  # type: ignore[no-untyped-def]
    graph.load_guideline(neo4j_driver, G, RULES, guideline_title="ask logic cases")
    cypher = CypherEngine(neo4j_driver, terms.units, terms.config, guidelines=[G])
    for name in CASES:
        ctx = ctx_of(terms, name)
        py = {r.rule.rule_id: r for r in python_engine.evaluate(ctx)}
        cy = {r.rule.rule_id: r for r in cypher.evaluate(ctx)}
        assert py.keys() == cy.keys(), name
        for rule_id, expected in py.items():
            got = cy[rule_id]
            assert got.value == expected.value, (name, rule_id)
            assert [leaf.model_dump() for leaf in got.leaves] == [
                leaf.model_dump() for leaf in expected.leaves
            ], (name, rule_id)
            assert got.decisions == expected.decisions, (name, rule_id)


def test_answers_do_not_depend_on_what_was_asked_before(terms, python_engine) -> None:  # type: ignore[no-untyped-def]
    """The answer memoises each rule's AND/OR structure and what-if values across patients
    (a service answers many); an answer built with the memo cold equals one built after
    every other case warmed it, in every group and sentence."""
    from cardio_assets.logic.ask.answer import _outcome, _structure

    def answer(name: str):  # type: ignore[no-untyped-def]
        ctx = ctx_of(terms, name)
        return build_answer(
            ctx, python_engine.evaluate(ctx), terms.units, terms.config, engine="python",
            guidelines=[G],
        ).model_dump(mode="json")  # fmt: skip

    for name in CASES:
        _structure.cache_clear()
        _outcome.cache_clear()
        cold = answer(name)
        for other in CASES:
            answer(other)
        assert answer(name) == cold, name
