"""What a test is meant to find ("to rule out X"), a value a quantity is brought to ("a
drop in systolic pressure to <85 mmHg") and pieces of a clause cut in the wrong place: read
by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.measurements import find_measurements
from cardio_assets.logic.merged_concepts import merge_row
from cardio_assets.records import LogicNode
from tests.lexicon_fixtures import extract, named, row_of


def _logic_concepts(node: LogicNode | None) -> set[int]:
    if node is None:
        return set()
    if node.op == "LEAF":
        return {node.concept} if node.concept is not None else set()
    return set().union(*(_logic_concepts(child) for child in node.children))


@pytest.mark.parametrize(
    ("text", "aims"),
    [
        (
            "Echocardiography is advised to rule out a pericardial effusion in adults with "
            "chest pain after cardiac surgery.",
            {"pericardial effusion"},
        ),
        (
            "A treadmill test may be considered for the detection of silent ischaemia in "
            "marathon runners over 45 years.",
            {"silent ischaemia"},
        ),
        (
            "Seven-day patch monitoring is advised when screening for atrial fibrillation in "
            "survivors of an embolic stroke.",
            {"atrial fibrillation"},
        ),
        (
            "Stress perfusion imaging is advised to confirm/exclude ischaemia in adults with an "
            "anomalous coronary origin.",
            {"ischaemia"},
        ),
        (
            "Right heart catheterisation is advised to confirm the diagnosis of pulmonary "
            "hypertension before targeted therapy.",
            {"pulmonary hypertension"},
        ),
        # "for screening (and surveillance) of": the same aim
        (
            "Natriuretic peptides may be considered for screening and surveillance of "
            "cardiac amyloidosis in adults with myeloma.",
            {"cardiac amyloidosis"},
        ),
        (
            "Pulse palpation is advised for the screening of atrial fibrillation in adults "
            "over 65 years.",
            {"atrial fibrillation"},
        ),
    ],
)
def test_what_a_test_looks_for_is_a_concept_but_no_criterion(  # type: ignore[no-untyped-def]
    lexicon, text: str, aims: set[str]
) -> None:
    """A test done "to rule out" or "for the detection of" a disease names that disease,
    but the patient need not have it: the disease is a concept of the row with function
    purpose, outside the population and outside the rule's logic (a patient without it
    still qualifies for the test)."""
    main = extract(lexicon, text)
    found = {c.normalized for c in main.concepts if c.function == "purpose"}
    assert found == aims, [(c.role, c.normalized, c.function) for c in main.concepts]
    assert all(c.role == "Condition" for c in main.concepts if c.function == "purpose")
    population = lexicon.extract(row_of(text), "POPULATION")
    assert not aims & {c.normalized for c in population.concepts}
    merged = merge_row(main, population)
    in_logic = {merged.concepts[i].normalized for i in _logic_concepts(merged.logic)}
    assert not aims & in_logic, in_logic
    assert all(not c.is_population for c in merged.concepts if c.normalized in aims)


def test_the_aim_ends_where_another_aim_begins(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to diagnose and treat the reversible causes" has two aims: treating is no disease,
    and "whether" or "the cause of" looks for no disease of its own (the patient with
    syncope has the syncope): none of these is a purpose concept."""
    for text in (
        "Thyroid tests are advised in adults with a slow pulse to diagnose and treat "
        "reversible causes.",
        "Home recordings may be considered to detect whether pressure falls at night.",
        "A tilt-table test is advised to identify the cause of fainting in older adults.",
    ):
        result = extract(lexicon, text)
        purposes = [c.normalized for c in result.concepts if c.function == "purpose"]
        assert not any("treat" in p or "whether" in p or "cause" in p for p in purposes), purposes
    result = extract(
        lexicon,
        "Thyroid tests are advised in adults with a slow pulse to diagnose and treat "
        "reversible causes.",
    )
    assert not any("treat" in c.normalized for c in result.concepts), named(result)


def test_screening_named_as_the_act_stays_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """When "screening for X" is itself what is recommended (its subject), the screening
    stays the act and X is what it looks for: a concept with function purpose, as in "when
    screening for X" beside another act, and never a criterion (most real-row golds read it
    so). (With the tests it is done by named, the tests are the act:
    tests/test_lexicon_tests_and_choices.py.)"""
    result = extract(
        lexicon,
        "Opportunistic screening for atrial fibrillation is advised in adults over 70 years.",
    )
    assert [a.normalized for a in result.actions] == ["opportunistic screening"]
    assert named(result)["atrial fibrillation"].function == "purpose"


def test_a_value_a_quantity_is_brought_to_names_the_quantity() -> None:
    """ "a drop in systolic pressure to <85 mmHg": "to" before a bound in symbols links the
    value to the quantity named before it; a verb before "to" names nothing."""
    (found,) = find_measurements("after a drop in systolic pressure to <85 mmHg")
    assert (found.name, found.operator, found.threshold, found.unit) == (
        "systolic pressure",
        "<",
        85.0,
        "mmHg",
    )
    (found,) = find_measurements("diastolic pressure is to be lowered to <75 mmHg")
    assert found.name == ""


@pytest.mark.parametrize(
    ("text", "name", "threshold"),
    [
        (
            "Stopping the infusion is advised after a drop in systolic pressure to <85 mmHg.",
            "systolic pressure",
            85.0,
        ),
        ("Reducing LDL-C to <1.6 mmol/L is advised in adults with diabetes.", None, 1.6),
        (
            "Limitation of sodium intake to <2 g per day is advised in adults with hypertension.",
            None,
            None,
        ),
    ],
)
def test_a_change_to_a_value_is_the_parameter_not_a_condition(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str | None, threshold: float | None
) -> None:
    """A fall, a reduction or a limitation "to <N" is the quantity at that value: one
    parameter (a target, and then the act, when nothing else is recommended), never a
    condition that carries the number or a leftover "drop" or "reducing"; a dose amount
    ("2 g per day") stays no parameter."""
    result = extract(lexicon, text)
    leftovers = {"drop", "reducing", "limitation", "a drop"}
    assert not leftovers & {c.normalized for c in result.concepts}, named(result)
    params = [c for c in result.concepts if c.role == "ClinicalParameter"]
    if threshold is None:
        assert not params, params
        return
    (param,) = params
    assert param.operator == "<" and param.threshold == threshold
    if name:
        assert param.normalized == name
    else:
        assert result.actions and {a.role for a in result.actions} == {"ClinicalParameter"}


def test_pieces_of_a_clause_are_no_concepts(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A span that opens like a relative clause ("which outweighs …", "this test has not
    …") is a comment on the row, not a concept; one that ends on a word waiting for more
    ("diameter of the") keeps only what it names."""
    result = extract(
        lexicon,
        "Dual therapy is advised in adults with a recent stent and a high clotting risk, "
        "which outweighs the risk of bleeding.",
    )
    assert not any(c.normalized.startswith("which") for c in result.concepts), named(result)
    assert "high clotting risk" in named(result)
    result = extract(
        lexicon,
        "An exercise test is advised in adults with chest pain, if this test has not been "
        "done in the last year.",
    )
    assert not any(c.normalized.startswith("this") for c in result.concepts), named(result)
    result = extract(
        lexicon,
        "Imaging of the whole aorta is advised when the diameter of the aortic arch exceeds 50 mm.",
    )
    assert not any(c.text.endswith((" of the", " the")) for c in result.concepts), named(result)


def test_a_finding_on_a_test_is_the_condition_and_the_test_its_background(  # type: ignore[no-untyped-def]
    lexicon,
) -> None:
    """ "scarring on cardiac MRI", "ectopy seen on Holter monitoring": the patient has the
    finding; the test that showed it was done whatever it found, so it takes neither the
    negation of "without …" nor the OR label of the finding's alternatives. A method
    ("surveillance by ultrasound") or bare "findings at angiography" is no such pair."""
    r = named(
        extract(lexicon, "An ICD is advised in adults with extensive scarring on cardiac MRI.")
    )
    assert r["extensive scarring"].role == "Condition", r
    assert r["cardiac magnetic resonance imaging"].role == "Procedure", r
    r = named(
        extract(
            lexicon,
            "Rate control is advised in adults without pre-excitation on a resting ECG.",
        )
    )
    assert r["pre-excitation"].negated and not r["resting electrocardiogram"].negated, r
    r = named(
        extract(
            lexicon,
            "Anticoagulation is advised in adults with a ventricular clot detected by imaging "
            "or with signs of embolism.",
        )
    )
    assert r["ventricular clot"].or_group and r["imaging"].or_group is None, r
    assert r["ventricular clot"].or_group == r["signs of embolism"].or_group, r
    r = named(
        extract(
            lexicon,
            "Yearly surveillance of the leg arteries by ultrasound is advised after bypass "
            "surgery.",
        )
    )
    assert not any(c.role == "Condition" and "arter" in n for n, c in r.items()), r
    r = named(extract(lexicon, "Surgery may be considered depending on findings at angiography."))
    assert "finding" not in r and "findings" not in r, r


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold", "unit"),
    [
        (
            "In adults at low risk, a repeat echocardiogram may be considered within 6 months "
            "after the end of chemotherapy.",
            "time since end of chemotherapy",
            "<=",
            6.0,
            "months",
        ),
        (
            "In adults with time from symptom onset >24 h, an invasive strategy is advised.",
            "time from symptom onset",
            ">",
            24.0,
            "h",
        ),
        (
            "Fibrinolysis is advised in adults with time from pain onset <6 h duration.",
            "time from pain onset",
            "<",
            6.0,
            "h",
        ),
    ],
)
def test_time_counted_from_an_event_is_one_parameter(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: float, unit: str
) -> None:
    """ "within 6 months after the end of chemotherapy" counts the time since that event,
    as "within 6 months of" does: "after" opens no clause of its own and the months are no
    duration to drop; "time from symptom onset >24 h" names the time itself, and a trailing
    "duration" adds nothing to it."""
    result = extract(lexicon, text)
    param = named(result)[name]
    assert (param.operator, param.threshold, param.unit) == (operator, threshold, unit)
    assert not {"within", "duration"} & set(named(result)), named(result)


def test_a_verb_lends_itself_to_its_whole_object_list(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "cannot tolerate beta-blockers, ivabradine, or amiodarone": each drug of the list is
    not tolerated, so each is an intolerance (a Condition), not a drug given; likewise each
    drug after "contraindications to". A clause after "or" has a verb of its own."""
    r = named(
        extract(
            lexicon,
            "Digoxin may be considered in adults with heart failure who cannot tolerate "
            "beta-blockers, ivabradine, or amiodarone.",
        )
    )
    for drug in ("beta-blocker", "ivabradine", "amiodarone"):
        assert r[f"{drug} intolerance"].role == "Condition", r
    assert r["ivabradine intolerance"].or_group == r["amiodarone intolerance"].or_group
    r = named(
        extract(
            lexicon,
            "Clopidogrel is advised in adults with contraindications to aspirin or ticagrelor.",
        )
    )
    assert {"contraindications to aspirin", "contraindications to ticagrelor"} <= set(r), r
    r = named(
        extract(
            lexicon,
            "Digoxin may be considered in adults who cannot tolerate beta-blockers or who have "
            "atrial fibrillation.",
        )
    )
    assert (
        r["atrial fibrillation"].role == "Condition" and "atrial fibrillation intolerance" not in r
    )


def test_everyone_a_reason_and_a_dangling_word_name_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in non-athletes and athletes with X": a group and its complement are everyone, so
    only X restricts; "since they gain no benefit" says why, not for whom; an act that ends
    on "beyond" ("prolonging DAPT beyond 6 months") keeps its name without it (and without
    the lead-in "prolonging", like "continuing"). A pair of
    poles before its noun ("fatal and non-fatal events") is left alone by the group rule."""
    r = named(
        extract(lexicon, "Bed rest is advised in athletes and non-athletes with acute myocarditis.")
    )
    assert set(r) == {"bed rest", "acute myocarditis"}, r
    r = named(
        extract(
            lexicon,
            "Aspirin is not recommended in adults with carotid plaques since they gain no "
            "benefit and bleed more.",
        )
    )
    assert "carotid plaque" in r and not any("since" in n or "bleed" in n for n in r), r
    result = extract(
        lexicon,
        "Prolonging DAPT beyond 6 months after stenting may be considered in adults with diabetes.",
    )
    assert [a.normalized for a in result.actions] == ["dual antiplatelet therapy"]
    r = named(extract(lexicon, "Statin therapy is advised to reduce fatal and non-fatal events."))
    assert any("non-fatal" in n for n in r), r
    # "although X" concedes X: the row holds either way, so X is no criterion
    r = named(
        extract(
            lexicon,
            "Pacing is advised in adults with intermittent complete heart block, although no "
            "link between symptoms and the ECG has been shown.",
        )
    )
    assert set(r) == {"pacing", "adults", "intermittent complete heart block"}, r


def test_the_rule_carries_what_its_test_looks_for_outside_its_logic(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The built rule keeps the disease a test rules out in ``purposes`` (the graph's
    LOOKS_FOR edge), never in its logic, and still requires the patient's own conditions."""
    from cardio_assets.logic.extracted_rules import build_rule

    text = (
        "Echocardiography is advised to rule out a pericardial effusion in adults with chest "
        "pain after cardiac surgery."
    )
    row = row_of(text)
    main, population = lexicon.extract(row, "MAIN"), lexicon.extract(row, "POPULATION")
    rule = build_rule(row, merge_row(main, population), {}, config_hash="test")
    assert [p.normalized for p in rule.purposes] == ["pericardial effusion"]
    tested = {leaf.concept.normalized for leaf in rule.logic.leaves()}
    assert "pericardial effusion" not in tested and "chest pain" in tested
