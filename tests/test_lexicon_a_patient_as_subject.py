"""A condition clause whose subject is one patient, read by rule in the team's own sentences:
"when a patient is admitted with acute HF", "if a patient with AF needs stroke prevention",
"when someone with CKD has a new stroke" name the patients the row is for, as "patients with
…" would; before, the whole clause was one condition ("patient is admitted with acute heart
failure") and "someone" was a condition of its own. What such a patient is ("when an HF
patient is still symptomatic") is read the same way.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text,conditions",
    [
        (
            "Early coronary angiography is recommended when a patient is admitted with a "
            "non-ST-elevation ACS and ongoing chest pain.",
            ["non-st-elevation acute coronary syndrome", "ongoing chest pain"],
        ),
        (
            "Cascade genetic testing is recommended when an affected patient is diagnosed with "
            "hypertrophic cardiomyopathy.",
            ["hypertrophic cardiomyopathy"],
        ),
        (
            "Statin therapy should be intensified when someone with diabetes has a second "
            "myocardial infarction.",
            ["diabetes mellitus"],
        ),
    ],
)
def test_a_patient_named_in_a_clause_is_the_rows_cohort(
    lexicon, text: str, conditions: list[str]
) -> None:  # type: ignore[no-untyped-def]
    found = named(extract(lexicon, text))
    for condition in conditions:
        assert found[condition].role == "Condition", found
    assert not any(
        name.startswith(("patient", "someone", "admitted", "diagnosed")) for name in found
    ), found


def test_what_the_patient_needs_is_no_condition_of_the_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when a patient with AF needs stroke prevention": AF is the patients' disease, and the
    need is not read into its name."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is recommended when a patient with atrial flutter needs "
            "cardioversion.",
        )
    )
    assert found["atrial flutter"].role == "Condition", found
    assert not any("needs" in name for name in found), found


def test_a_patients_clause_stays_one_of_the_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when a new murmur is found or when a patient is admitted with syncope": either clause
    calls for the act; reading the patient's clause must not take it out of the OR."""
    found = named(
        extract(
            lexicon,
            "Echocardiography is recommended when a new murmur is found or when a patient is "
            "admitted with syncope.",
        )
    )
    assert found["syncope"].or_group is not None, found
    assert found["syncope"].or_group == found["new murmur"].or_group, found


def test_a_need_with_its_own_verb_is_left_as_it_was(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "when a patient needs to be transferred": "needs to" is a verb of its own, not a
    need for a therapy, and the clause is not emptied."""
    found = named(
        extract(lexicon, "Temporary pacing is recommended when a patient needs to be transferred.")
    )
    assert len(found) >= 2, found


@pytest.mark.parametrize(
    "text,conditions",
    [
        (
            "Intravenous iron should be considered when an HF patient with LVEF below 50% is"
            " still symptomatic and iron-deficient.",
            ["heart failure", "symptomatic", "iron-deficient"],
        ),
        (
            "Low-dose aspirin is recommended when a woman is at high risk of pre-eclampsia.",
            ["high risk of pre-eclampsia"],
        ),
    ],
)
def test_what_a_patient_in_a_clause_is_names_a_condition(
    lexicon, text: str, conditions: list[str]
) -> None:  # type: ignore[no-untyped-def]
    """ "when an HF patient with X is still symptomatic", "if a woman is at high risk of Y":
    what the clause's patient is reads as "patients with X who are …"; before, the subject
    stayed in the condition's name ("heart failure patient with is still symptomatic")."""
    found = named(extract(lexicon, text))
    for condition in conditions:
        assert found[condition].role == "Condition", found


@pytest.mark.parametrize(
    "text",
    [
        "Ablation is reasonable when patients are referred to an expert centre.",
        "Temporary pacing is advised when a patient is urgently transferred to a pacing centre.",
        "Follow-up imaging is advised when patients are seen in a specialist clinic.",
    ],
)
def test_what_is_done_to_a_patient_is_no_state(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "when patients are referred to a centre" (a guard), "… are urgently transferred", "…
    are seen in a clinic" (an adverb between, or an irregular participle: a first reading took
    these as states) say what is done to them, not what they are: no cohort of referred or
    seen patients."""
    found = named(extract(lexicon, text))
    assert not any(n.startswith(("referred", "urgently", "seen")) for n in found), found
