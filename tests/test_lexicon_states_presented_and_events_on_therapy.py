"""A state and what it presents with ("suspected myocarditis presenting with shock"), patients
who meet the diagnostic criteria of a disease, and an event that happens on a therapy ("if
bleeding occurs on apixaban"). Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_a_state_presenting_with_another_names_both(lexicon):
    # "suspected myocarditis presenting with shock or AV block": the suspected disease, and
    # the findings it comes with as alternatives; "presenting" joins them as "with" would.
    result = extract(
        lexicon,
        "Endomyocardial biopsy should be considered in suspected myocarditis presenting with "
        "cardiogenic shock or complete AV block.",
    )
    names = named(result)
    assert names["suspected myocarditis"].or_group is None, result
    assert names["cardiogenic shock"].or_group, result
    assert not any("presenting" in c.normalized for c in result.concepts), result


def test_patients_presenting_with_a_state_keep_their_reading(lexicon):
    # Patients "presenting with" a state are those who came with it: the state is theirs.
    result = named(
        extract(lexicon, "Primary PCI is recommended in patients presenting with STEMI.")
    )
    assert result["st segment elevation myocardial infarction"].role == "Condition", result


@pytest.mark.parametrize(
    "lead", ["meeting diagnostic criteria for", "who fulfil the diagnostic criteria for"]
)
def test_meeting_the_diagnostic_criteria_of_a_disease_is_having_it(lexicon, lead):
    # Those who meet the diagnostic criteria for DCM or ARVC have one of the two; the
    # criteria themselves are no concept.
    result = extract(lexicon, f"Genetic testing is recommended in patients {lead} DCM or ARVC.")
    names = named(result)
    assert {"dilated cardiomyopathy", "arrhythmogenic right ventricular cardiomyopathy"} <= set(
        names
    ), result
    assert not any("criteria" in c.normalized for c in result.concepts), result


def test_criteria_for_an_act_stay_whole(lexicon):
    # "who meet criteria for intervention" (no "diagnostic") says the act is indicated: kept
    # as the patients' state, as the golds keep it.
    result = extract(
        lexicon,
        "In patients with an arch aneurysm who meet criteria for intervention, an endovascular "
        "approach may be considered.",
    )
    assert any("criteria for intervention" in c.normalized for c in result.concepts), result


@pytest.mark.parametrize(
    "clause",
    [
        "If major bleeding occurs on edoxaban or apixaban",
        "If major bleeding develops in patients on edoxaban or apixaban",
    ],
)
def test_an_event_on_a_therapy_names_the_event_and_the_drugs(lexicon, clause):
    # The bleeding is the patients' state; the drugs they are on are alternatives, no part
    # of the bleeding's name.
    result = extract(lexicon, f"{clause}, a specific reversal agent should be considered.")
    names = named(result)
    assert names["major bleeding"].role == "Condition", result
    assert names["edoxaban"].or_group and names["edoxaban"].or_group == names["apixaban"].or_group


@pytest.mark.parametrize("lead", ["free of", "who are free from"])
def test_patients_free_of_two_diseases_have_neither(lexicon, lead):
    # "free of structural and ischaemic heart disease" is "without" both: each disease
    # negated under one OR label (NOT(OR(A, B))), named without the words "free of".
    result = extract(
        lexicon,
        f"Flecainide may be considered in patients {lead} structural and ischaemic heart disease.",
    )
    negated = [c for c in result.concepts if c.negated]
    assert {c.normalized for c in negated} == {
        "structural heart disease",
        "ischaemic heart disease",
    }, result
    assert negated[0].or_group and negated[0].or_group == negated[1].or_group, result


@pytest.mark.parametrize(
    "text",
    [
        "Patients with HFrEF should start an SGLT2 inhibitor (dapagliflozin 10 mg or "
        "empagliflozin 10 mg, taken once a day).",
        "Patients with HFrEF should start an SGLT2 inhibitor (dapagliflozin or empagliflozin "
        "once daily).",
    ],
    ids=["taken once a day", "once daily"],
)
def test_how_often_a_drug_is_taken_leaves_its_examples(lexicon, text):
    # The schedule in the bracket ("taken once a day", "once daily") is no concept; the two
    # drugs it follows are still the class's examples, alternatives named alone.
    result = named(extract(lexicon, text))
    assert result["dapagliflozin"].or_group and (
        result["dapagliflozin"].or_group == result["empagliflozin"].or_group
    ), result
    assert not any("daily" in name or "taken" in name for name in result), result


def test_a_schedule_after_a_comma_keeps_the_clause_before_it_apart(lexicon):
    # ", without diabetes, once-weekly semaglutide": the schedule goes, the comma that ends
    # the exception stays, so the drug is not read into the negated state.
    result = named(
        extract(
            lexicon,
            "For adults with obesity, without diabetes, once-weekly semaglutide should be "
            "considered.",
        )
    )
    assert result["semaglutide"].role == "Medication" and not result["semaglutide"].negated
    assert result["diabetes mellitus"].negated, result
