"""The therapy a case says the patients are taking ("while already on X", "while receiving
X"), the state a case takes as the diagnosis ("when X is the working diagnosis"), implanted
systems named by their kind ("a dual-chamber system") and schedule words before a drug
("twice-daily X"). Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "Sotagliflozin may be considered in patients whose symptoms worsen while already "
            "on an ARNI.",
            "angiotensin receptor neprilysin inhibitor",
        ),
        (
            "Ivabradine may be considered if angina persists while receiving a beta-blocker.",
            "beta-blocker",
        ),
        (
            "A lower LDL-C goal may be considered after a second event while still taking a "
            "high-intensity statin.",
            "high-intensity statin",
        ),
    ],
    ids=["already on", "receiving", "still taking"],
)
def test_the_therapy_a_case_says_the_patients_take_is_named_alone(lexicon, text, drug):
    # "while already on X" says the patients are on X: the drug is the background, and how
    # long or how far they have been taking it ("already", "still") names nothing.
    result = named(extract(lexicon, text))
    assert drug in result, result
    assert result[drug].role == "Medication", result
    assert not [n for n in result if n.startswith(("already", "taking", "receiving", "still"))]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Screening is recommended in athletes who collapse while taking part in "
            "competitive sport.",
            "competitive sport",
        ),
        ("Family history should be recorded when taking the medical history.", None),
    ],
    ids=["taking part", "taking a history"],
)
def test_taking_what_is_no_therapy_is_no_background_drug(lexicon, text, kept):
    # Taking part in sport, or taking a history, names no therapy the patients are on: no
    # drug is read from it.
    result = named(extract(lexicon, text))
    assert not [c for c in result.values() if c.role == "Medication"], result
    if kept:
        assert kept in result, result


@pytest.mark.parametrize(
    "text",
    [
        "When takotsubo syndrome is the working diagnosis, cardiac MRI should be considered.",
        "Cardiac MRI is recommended in patients in whom takotsubo syndrome is the presumed "
        "diagnosis.",
    ],
    ids=["working", "presumed"],
)
def test_a_state_taken_as_the_diagnosis_is_the_state(lexicon, text):
    # The case is the patients thought to have the syndrome; "is the working diagnosis"
    # only says how sure the team is, as "is suspected" does.
    result = named(extract(lexicon, text))
    assert "takotsubo syndrome" in result, result
    assert result["takotsubo syndrome"].role == "Condition", result
    assert not [n for n in result if "diagnosis" in n], result


@pytest.mark.parametrize(
    "text",
    [
        "Single-chamber pacing may be considered instead of a dual-chamber system.",
        "A leadless pacemaker should be considered in place of transvenous systems.",
    ],
)
def test_a_system_the_act_is_preferred_to_is_a_device(lexicon, text):
    # A pacing system is implanted hardware, a Procedure as a pacemaker is; the drugs a row
    # says act on a body system stay drugs.
    result = named(extract(lexicon, text))
    systems = [c for n, c in result.items() if n.endswith("system")]
    assert systems and all(c.role == "Procedure" for c in systems), result


def test_drugs_named_by_the_system_they_block_stay_drugs(lexicon):
    result = named(
        extract(lexicon, "Drugs that block the renin-angiotensin system are not recommended.")
    )
    assert [c.role for n, c in result.items() if "renin" in n] == ["Medication"], result


@pytest.mark.parametrize(
    "text",
    [
        "Pacing is recommended in patients with sarcoidosis affecting the conduction system.",
        "Anticoagulation is not recommended in patients with bleeding in the central nervous "
        "system.",
    ],
)
def test_a_system_of_the_body_is_no_device(lexicon, text):
    # Only hardware before "system" makes it a device; the body's systems stay with the state.
    result = named(extract(lexicon, text))
    assert not [n for n, c in result.items() if "system" in n and c.role == "Procedure"], result


@pytest.mark.parametrize(
    "text",
    [
        "Once-daily edoxaban or twice-daily apixaban should be considered.",
        "Edoxaban or twice daily apixaban should be considered.",
    ],
)
def test_a_schedule_word_before_a_drug_is_no_part_of_its_name(lexicon, text):
    # How often the drug is taken is its schedule, never part of the concept (the contract
    # leaves doses and schedules out): "twice-daily apixaban" is apixaban.
    result = named(extract(lexicon, text))
    assert {"edoxaban", "apixaban"} <= set(result), result


def test_a_schedule_named_as_the_act_keeps_its_word(lexicon):
    # "once-daily dosing" is the schedule itself: the word is the act's name.
    extraction = extract(lexicon, "Once-daily dosing is recommended to improve adherence.")
    assert [a.normalized for a in extraction.actions] == ["once-daily dosing"], extraction
