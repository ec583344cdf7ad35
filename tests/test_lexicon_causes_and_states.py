"""What a finding is caused by or complicated by, whether it gives symptoms, whose age a
history counts and what the patient declines, read by rule in the team's own sentences: a
measured cause after alternatives is said of all of them, a complication is a state of its
own, "(a)symptomatic" written before a measured quantity or after an act's "of" is the
patient's state, the years after "a family history of X" are the relative's, and a therapy
the patient declines is a state of the patient.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


@pytest.mark.parametrize("cue", ["attributable to", "due to", "secondary to", "caused by"])
def test_a_measured_cause_after_alternatives_is_no_alternative(lexicon, cue: str) -> None:  # type: ignore[no-untyped-def]
    """ "a minor stroke or TIA attributable to a 60-99% carotid stenosis": either event, and
    the stenosis behind it. Before, the stenosis joined the events' OR label and the second
    event was named "TIA attributable" (or "TIA due")."""
    found = named(
        extract(
            lexicon,
            "Carotid surgery is recommended for patients with a minor stroke or TIA "
            f"{cue} a 60-99% carotid stenosis.",
        )
    )
    assert_one_or_group(found["minor stroke"], found["transient ischemic attack"])
    stenosis = found["carotid stenosis"]
    assert stenosis.role == "ClinicalParameter" and stenosis.or_group is None, found
    assert stenosis.threshold == [60.0, 99.0], stenosis


def test_a_cause_in_words_stays_in_the_finding_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: only a measured cause is read apart; "presyncope due to bradycardia" stays one
    finding, an alternative to syncope, as before."""
    found = named(
        extract(
            lexicon,
            "Pacing is recommended in patients with syncope or presyncope due to bradycardia.",
        )
    )
    assert_one_or_group(found["syncope"], found["presyncope due to bradycardia"])


def test_new_and_asymptomatic_before_a_quantity_are_no_part_of_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a new asymptomatic peak velocity above 3.5 m/s": the velocity is the quantity; that it
    is new and gives no symptoms is said of the patient. Before, the parameter was named
    "new asymptomatic peak velocity" and no state was read."""
    found = named(
        extract(
            lexicon,
            "Switching to another kinase inhibitor is recommended in patients with a new "
            "asymptomatic peak velocity above 3.5 m/s.",
        )
    )
    assert found["peak velocity"].role == "ClinicalParameter", found
    assert found["new asymptomatic"].role == "Condition", found


def test_new_stays_in_a_quantity_name_without_a_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "new" is dropped from a name only before "(a)symptomatic"."""
    found = named(
        extract(lexicon, "Review is recommended in patients with a new QRS width above 150 ms.")
    )
    assert "new qrs width" in found or "new qrs duration" in found, found


@pytest.mark.parametrize("state", ["symptomatic", "asymptomatic"])
def test_an_act_of_a_symptomatic_measured_lesion_leaves_the_state(lexicon, state: str) -> None:  # type: ignore[no-untyped-def]
    """ "Stenting of symptomatic 50-69% carotid stenosis": the stenosis goes to its value, so
    the act ended on "of symptomatic". The act is the stenting; the state is the patient's.
    Before, the act was named "stenting of symptomatic" and no state was read."""
    result = extract(lexicon, f"Stenting of {state} 50-69% carotid stenosis may be considered.")
    assert [a.normalized for a in result.actions] == ["stenting"], result.actions
    found = named(result)
    assert found[state].role == "Condition", found
    assert found["carotid stenosis"].threshold == [50.0, 69.0], found


@pytest.mark.parametrize(
    ("text", "history"),
    [
        (
            "Cardiac screening is advised for athletes with a family history of sudden death "
            "under 35 years.",
            "family history of sudden death",
        ),
        (
            "Lipid testing is advised for adults with a family history of early heart disease "
            "in a brother younger than 50 years.",
            "family history of early heart disease",
        ),
    ],
)
def test_the_age_in_a_family_history_is_the_relatives(lexicon, text: str, history: str) -> None:  # type: ignore[no-untyped-def]
    """ "a family history of sudden death under 35 years", "... in a brother younger than 50
    years": the relative's age, whichever words name him; the patient's age is not limited.
    Before, the years became a parameter named "sudden death" (or "brother") and the history
    lost its event."""
    found = named(extract(lexicon, text))
    assert not [c for c in found.values() if c.role == "ClinicalParameter"], found
    named_so = [c for n, c in found.items() if n.startswith(history)]
    assert [c.role for c in named_so] == ["Condition"], found


def test_the_patients_own_age_beside_a_family_history_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: an age said of the patients before the history is still their age."""
    found = named(
        extract(
            lexicon,
            "Cardiac screening is advised for athletes under 35 years with a family history of "
            "sudden death.",
        )
    )
    assert found["age"].threshold == 35.0, found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "Quinidine may be considered in adults with Brugada syndrome who decline an ICD.",
            "implantable cardioverter defibrillator not desired",
        ),
        (
            "Rate control should be considered in adults with AF who have refused ablation.",
            "ablation not desired",
        ),
        (
            "Rate control should be considered in adults with AF who decline ablation or "
            "rhythm-control drugs.",
            "rhythm-control drug not desired",
        ),
    ],
)
def test_a_therapy_the_patient_declines_is_a_state_of_the_patient(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str
) -> None:
    """ "who decline an ICD", "who have refused ablation": said as the patient's act, the
    choice against a therapy is still who the row is for, as "for whom X is not desired" is.
    Before, "decline an ICD" was read as a Procedure; each therapy of "decline A or B" is
    declined."""
    found = named(extract(lexicon, text))
    assert found[name].role == "Condition", found


def test_what_complicates_a_disease_is_a_state_of_its_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "endocarditis complicated by heart failure, by an abscess, or by a large vegetation":
    the patients have the endocarditis and any one of its complications. Before, the first
    complication stayed inside the disease's name and the others were its alternatives."""
    found = named(
        extract(
            lexicon,
            "Early surgery is advised for endocarditis complicated by heart failure, by an "
            "abscess, or by a large vegetation.",
        )
    )
    assert found["endocarditis"].or_group is None, found
    assert_one_or_group(found["heart failure"], found["abscess"])
    assert_one_or_group(found["abscess"], found["large vegetation"])


def test_a_disease_not_complicated_is_left_to_the_negation_rules(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "endocarditis not complicated by heart failure" says the opposite; the
    complication must never come out as a state the patients have."""
    found = named(
        extract(
            lexicon, "Oral antibiotics are advised for endocarditis not complicated by abscess."
        )
    )
    assert not [c for n, c in found.items() if n == "abscess" and not c.negated], found


def test_a_decline_in_a_function_is_no_refusal(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "a decline in renal function" is a finding, not a therapy the patient declines."""
    found = named(
        extract(lexicon, "Dose review is advised in adults with a decline in renal function.")
    )
    assert not [n for n in found if "not desired" in n], found


def test_the_patients_age_after_a_family_history_and_and_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "a family history of HCM and age above 40 years": after "and" the age is the
    patient's again."""
    found = named(
        extract(
            lexicon,
            "Screening is advised in adults with a family history of HCM and age above 40 years.",
        )
    )
    assert found["age"].threshold == 40.0, found
