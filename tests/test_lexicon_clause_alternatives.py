"""Cases offered one after another as clauses ("if A, or if B", also after a bracket of a
disease's kinds), and the patients named after the parts of a recommended whole, read by
rule in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "cases"),
    [
        (
            "Valve replacement is recommended if exertional symptoms appear, or if the LVEF "
            "drops below 50%.",
            ["exertional symptom", "left ventricular ejection fraction"],
        ),
        (
            "Early repair should be considered when the LVEF is below 55%, when the peak "
            "velocity is 5 m/s or more, or when the BNP level is above 300 pg/mL.",
            [
                "left ventricular ejection fraction",
                "peak velocity",
                "b-type natriuretic peptide",
            ],
        ),
        (
            "A leadless device should be considered when no venous route to the heart is "
            "available or when the risk of pocket infection is high.",
            ["venous route to the heart", "high risk of pocket infection"],
        ),
    ],
)
def test_cases_offered_as_clauses_are_alternatives(  # type: ignore[no-untyped-def]
    lexicon, text: str, cases: list[str]
) -> None:
    """ "…, or if B", "when A, when B, or when C": each clause names one case the row
    applies in and any one is enough (the contract's clause-level OR), so they share one OR
    label; before, each clause was read as one more condition, all required together."""
    found = named(extract(lexicon, text))
    labels = {found[name].or_group for name in cases}
    assert len(labels) == 1 and None not in labels, found


def test_a_list_the_or_clause_closes_joins_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in patients with A, B, C, or if D": the comma list has no "or" of its own, the one
    before the clause closes it, so all four are the alternatives."""
    found = named(
        extract(
            lexicon,
            "Aneurysm resection during bypass surgery should be considered in patients with "
            "a large LV aneurysm, a large mural thrombus, or if the aneurysm is the source of "
            "arrhythmias.",
        )
    )
    labels = {
        found[name].or_group
        for name in (
            "large left ventricular aneurysm",
            "large mural thrombus",
            "aneurysm is the source of arrhythmia",
        )
    }
    assert len(labels) == 1 and None not in labels, found


def test_clauses_joined_by_and_stay_required(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Without an "or" between them, two clauses are both required: no OR label."""
    found = named(
        extract(
            lexicon,
            "Valve replacement is recommended if exertional symptoms appear and if the LVEF "
            "drops below 50%.",
        )
    )
    assert found["exertional symptom"].or_group is None, found
    assert found["left ventricular ejection fraction"].or_group is None, found


def test_patients_named_after_the_parts_are_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Cognition should be screened with a brief standard test in patients with heart
    failure": the patients after the parts ("with a brief standard test") are the row's
    cohort; before, they were read into the part's name ("… test in patients with heart
    failure")."""
    found = named(
        extract(
            lexicon,
            "Cognition should be screened with a brief standard test in patients with heart "
            "failure.",
        )
    )
    assert found["heart failure"].role == "Condition", found
    assert not [n for n in found if "heart failure" in n and n != "heart failure"], found


def test_a_case_clause_after_a_comparator_and_its_indication(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A over B for X, or if Y": the comparator's "for X" becomes a phrase of its own, and
    the clause after it is X's alternative (a phrase count that once put the two out of step
    failed the whole row)."""
    found = named(
        extract(
            lexicon,
            "Ablation is advised over lifelong antiarrhythmic drugs for frequent AVNRT "
            "episodes, or if an episode has led to fainting.",
        )
    )
    assert found["ablation"].role == "Procedure", found
    first = found["frequent atrioventricular nodal re-entrant tachycardia episode"]
    assert first.or_group is not None, found
    assert found["episode has led to fainting"].or_group == first.or_group


def test_a_second_group_named_by_its_age_is_an_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in people aged ≥75 years, and in those aged 65 years or more with X": two groups,
    either enough, each first named by its age; the ages share an OR label (the contract's
    "and" over patient groups)."""
    found = extract(
        lexicon,
        "Pulse checks may be considered in people aged ≥80 years, and in those aged 70 years "
        "or more with hypertension.",
    )
    ages = [c for c in found.concepts if c.normalized == "age"]
    assert len(ages) == 2 and ages[0].or_group is not None, found.concepts
    assert ages[0].or_group == ages[1].or_group


def test_as_well_as_those_with_names_another_group(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients who had X, as well as those living with Y": two groups of patients, either
    of them, like "and those with Y"."""
    found = named(
        extract(
            lexicon,
            "Structured exercise training is recommended for patients who have had a "
            "myocardial infarction, as well as those living with heart failure.",
        )
    )
    first, second = found["myocardial infarction"], found["heart failure"]
    assert first.or_group is not None and first.or_group == second.or_group, found


def test_a_second_value_for_another_group_in_words(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "40 mm or more in men or 35 mm or more in women": the second value, written with
    its bound in words, is the same quantity's for the second group, not a Condition."""
    result = extract(
        lexicon,
        "Surgery should be considered when the root diameter is 40 mm or more in men or "
        "35 mm or more in women.",
    )
    values = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert sorted(c.threshold for c in values) == [35.0, 40.0], result.concepts
    assert not [c for c in result.concepts if c.role == "Condition" and "mm" in c.text]


@pytest.mark.parametrize(
    ("text", "apart"),
    [
        (
            # clauses joined by "and" before the "or" stay required
            "Valve replacement is recommended if exertional symptoms appear and if the LVEF "
            "drops below 50%, or if the aortic velocity exceeds 5 m/s.",
            "exertional symptom",
        ),
        (
            # the group named before the first clause is not one of the clauses
            "Early repair should be considered in patients with aortic stenosis, when the "
            "LVEF is below 55%, or when the BNP level is above 300 pg/mL.",
            "aortic stenosis",
        ),
        (
            # a list joined by "and" before the clause: only its last case is the alternative
            "Statins are recommended in patients with diabetes and kidney disease, or if the "
            "LDL-C is 4.9 mmol/L or more.",
            "diabetes mellitus",
        ),
    ],
)
def test_what_the_or_clause_does_not_close(  # type: ignore[no-untyped-def]
    lexicon, text: str, apart: str
) -> None:
    """Only cases the "or" offers an alternative to share its label: not clauses joined by
    "and", not the group the clauses are said of, not the first of two states joined by
    "and" (the rule review and the code review of the fortieth session found each)."""
    found = named(extract(lexicon, text))
    assert found[apart].or_group is None, found
    assert any(c.or_group for c in found.values()), found


def test_the_second_groups_value_keeps_its_printed_span(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The second group's value is named after the quantity before it, but its span is the
    value as printed: a span must be text of the row (the rule review found spans such as
    "aortic diameter ≥52 mm" that the row never prints)."""
    text = "Repair is recommended for an aortic diameter ≥57 mm in men or ≥52 mm in women."
    result = extract(lexicon, text)
    values = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert {c.normalized for c in values} == {"aortic diameter"}, values
    assert all(c.text in text for c in values), values


def test_males_and_females_are_groups_with_their_own_values(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a QTc ≥460 ms in males or ≥470 ms in females": "males" and "females" name groups of
    people as "men" and "women" do, so the second value is the second group's threshold of
    the same quantity; before, it was lost with the group it was said of."""
    result = extract(
        lexicon,
        "Beta-blockers are recommended in patients with a QTc ≥460 ms in males or ≥470 ms in "
        "females.",
    )
    values = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert sorted(c.threshold for c in values) == [460.0, 470.0], result.concepts
    groups = {c.text: c.role for c in result.concepts if c.text in ("males", "females")}
    assert groups == {"males": "Condition", "females": "Condition"}, result.concepts


def test_what_one_case_is_had_without_stays_out_of_the_alternatives(  # type: ignore[no-untyped-def]
    lexicon,
) -> None:
    """ "when A without B, when C, or when D": the cases are A, C and D; B is what the first
    case must be had without, so it is negated and joined to that case alone, not offered as
    one more alternative (before, "without B" was a plain condition under the OR label)."""
    found = named(
        extract(
            lexicon,
            "Early repair should be considered when the LVEF is 55% or less without another "
            "explanation, when the end-systolic diameter is 45 mm or more, or when atrial "
            "fibrillation appears.",
        )
    )
    cases = {
        found[name].or_group
        for name in (
            "left ventricular ejection fraction",
            "end-systolic diameter",
            "atrial fibrillation",
        )
    }
    assert len(cases) == 1 and None not in cases, found
    absent = found["another explanation"]
    assert absent.negated and absent.or_group is None, found


@pytest.mark.parametrize(
    ("text", "state", "negated"),
    [
        (
            "Oral anticoagulation is recommended unless the patient is at very high risk of "
            "bleeding.",
            "very high risk of bleeding",
            True,
        ),
        (
            "A staged approach should be preferred when the patient is a candidate for "
            "surgery and frail.",
            "candidate for surgery",
            False,
        ),
    ],
)
def test_the_patient_who_is_a_state_names_only_the_state(  # type: ignore[no-untyped-def]
    lexicon, text: str, state: str, negated: bool
) -> None:
    """ "unless the patient is at high risk", "when the patient is a candidate for X": the
    patient is the row's subject already; the condition is what the patient is (before, the
    words "patient is" led the condition's name)."""
    found = named(extract(lexicon, text))
    assert state in found, found
    assert found[state].negated is negated, found
    assert not any(name.startswith("patient") for name in found), found


def test_a_grade_range_said_of_a_risk_is_one_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when the risk is high or very high": two grades of one scale said after the copula
    are one range (as "high or very high risk" before the noun already is), not the state
    and a stray "very high" offered as its alternative."""
    found = named(
        extract(
            lexicon,
            "Cardioprotective drugs should be considered before chemotherapy when the "
            "baseline toxicity risk is high or very high.",
        )
    )
    assert "high or very high baseline toxicity risk" in found, found
    assert "very high" not in found, found


def test_another_group_after_the_therapy_the_first_persists_on(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in patients with A despite T, or who cannot take T": the alternatives are A and the
    group that cannot take T; T is what A persists on, said of A only (before, the phrase
    after "despite" ran on to the group and T became its alternative)."""
    found = named(
        extract(
            lexicon,
            "Ranolazine may be considered in patients with angina despite nitrates, or who "
            "cannot tolerate nitrates.",
        )
    )
    first, second = found["angina"], found["nitrate intolerance"]
    assert first.or_group is not None and first.or_group == second.or_group, found
    assert found["nitrate"].or_group is None, found


def test_a_low_to_moderate_range_after_the_copula_is_one_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when the bleeding risk is low or moderate": the same range reading for the grades
    below high (the name puts the grades first, as for "high or very high")."""
    found = named(
        extract(
            lexicon,
            "Extended anticoagulation may be considered when the bleeding risk is low or moderate.",
        )
    )
    assert "low or moderate bleeding risk" in found, found


@pytest.mark.parametrize(
    "text",
    [
        "Cardiac MRI is advised where myocarditis is suspected and the patient is stable.",
        "Where myocarditis is suspected and the patient is stable, cardiac MRI is advised.",
    ],
)
def test_where_opens_a_case_like_when(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "where X is suspected" after the act is a case, as "when" is; "and the patient is
    stable" is a second case of the clause, named by what the patient is. Before, the act's
    "where" stayed in the name ("where myocarditis") and the second case was named "patient
    is stable"."""
    found = named(extract(lexicon, text))
    assert found["suspected myocarditis"].role == "Condition", found
    assert found["stable"].role == "Condition", found
    assert not [n for n in found if "where" in n or "patient" in n], found


def test_where_available_opens_no_case(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "where available" only hedges the act, even with a verb later in the sentence;
    it is no case of the patients."""
    found = named(
        extract(lexicon, "Genetic testing where available is advised in adults with DCM.")
    )
    assert not [n for n in found if "available" in n], found


def test_where_a_service_is_available_is_the_setting(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "a hospital where surgical backup is available" names where the act is done, no
    case of the patients and no second act (the golds keep it out)."""
    result = extract(
        lexicon,
        "Transfer to a hospital where surgical backup is available is advised in adults with shock.",
    )
    assert len(result.actions) == 1, result.actions
    assert not [c for c in result.concepts if c.role == "Condition" and "available" in c.text]


def test_a_clause_of_what_the_patient_is_on_keeps_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "when the patient is being treated with a VKA" names a therapy, not what the
    patient is; the drug stays in a concept."""
    result = extract(
        lexicon, "When the patient is being treated with a VKA, bridging is not advised."
    )
    assert [c for c in result.concepts if "VKA" in c.text], result.concepts


def test_an_or_if_clause_after_a_bracket_of_kinds_is_the_diseases_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for recurrent SVT (AVNRT, AVRT and AT), or if SVT is linked to sudden death": the
    clause is another case beside the disease, not one more of the bracket's kinds, which
    stay alternatives among themselves (before, all five were one OR group)."""
    found = named(
        extract(
            lexicon,
            "Ablation is advised for symptomatic recurrent SVT (AVNRT, AVRT and AT), or if the"
            " SVT may be linked to sudden death.",
        )
    )
    head = found["symptomatic recurrent supraventricular tachycardia"].or_group
    kinds = {
        found[k].or_group
        for k in (
            "atrioventricular nodal re-entrant tachycardia",
            "atrioventricular re-entrant tachycardia",
            "atrial tachycardia",
        )
    }
    assert head and found["supraventricular tachycardia"].or_group == head, found
    assert len(kinds) == 1 and head not in kinds and None not in kinds, found


def test_a_comma_inside_a_bracket_lists_no_indications(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for SVT (AVNRT, AVRT and AT)": one indication and its kinds, so the disease is not
    made an alternative of its own kinds (three indications listed with commas would be)."""
    found = named(
        extract(lexicon, "Ablation is advised for symptomatic recurrent SVT (AVNRT, AVRT and AT).")
    )
    assert found["symptomatic recurrent supraventricular tachycardia"].or_group is None, found


def test_an_or_if_clause_after_a_bracket_of_patterns_is_the_diseases_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for AF (paroxysmal, persistent or permanent), or if flutter is present": the clause is
    an alternative to AF, whatever the bracket's kinds are (adjectives here); a first reading
    paired flutter with the last pattern and left AF out."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is advised for AF (paroxysmal, persistent or permanent), or if"
            " atrial flutter is present.",
        )
    )
    assert found["atrial fibrillation"].or_group, found
    assert found["atrial flutter"].or_group == found["atrial fibrillation"].or_group, found
