"""Advice withdrawn ("X is no longer recommended"), devices advised against by how they go
in ("should not be inserted"), a state named by the drug it concerns ("contraindications to
anticoagulation"), possessives before longer names ("their yearly risk review") and when an
act is done ("during follow-up"). Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_advice_no_longer_given_is_advice_against_the_act(lexicon):
    # "is no longer recommended" withdraws the advice: the act is what the row now advises
    # against, and the verb phrase is no part of its name.
    result = named(extract(lexicon, "Routine bed rest is no longer recommended after a DVT."))
    assert "bed rest" in result, result
    assert not [n for n in result if "longer" in n], result


def test_a_state_that_is_no_longer_an_indication_is_no_verb_of_the_row(lexicon):
    # In a "when" clause, "no longer indicated" describes the patients: the state stays a
    # condition with its words, it does not turn the clause into the row's verb.
    result = named(
        extract(
            lexicon,
            "When ICD therapy is no longer indicated, a decision on the device strategy should "
            "be based on a shared discussion with the patient.",
        )
    )
    states = [c for n, c in result.items() if "no longer indicated" in n]
    assert states and states[0].role == "Condition", result


@pytest.mark.parametrize(
    ("text", "device"),
    [
        ("In septic shock, a balloon pump should not be inserted routinely.", "balloon pump"),
        ("In heart failure, a central line should not be placed routinely.", "central line"),
    ],
)
def test_a_device_advised_against_by_how_it_goes_in(lexicon, text, device):
    # "should not be inserted / placed" is the verb that advises against the device; the
    # device is the act, the verb is not a state of the patients.
    extraction = extract(lexicon, text)
    result = named(extraction)
    assert not {"inserted", "placed"} & set(result), result
    assert [a.normalized for a in extraction.actions] == [device], extraction.actions


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "A vena cava filter should be considered in patients with absolute "
            "contraindications to anticoagulation.",
            "absolute contraindications to anticoagulation",
        ),
        (
            "Ezetimibe is recommended in patients with intolerance to statins.",
            "intolerance to statins",
        ),
        (
            "Clopidogrel is recommended in patients with hypersensitivity to aspirin.",
            "hypersensitivity to aspirin",
        ),
    ],
)
def test_a_state_named_by_the_drug_it_concerns_is_a_condition(lexicon, text, state):
    # A contraindication or an intolerance is the patients' state; the drug after "to" says
    # which, it does not make the state a drug.
    result = named(extract(lexicon, text))
    found = [c for n, c in result.items() if n.startswith(state.split()[0])]
    assert found and all(c.role == "Condition" for c in found), result


def test_only_a_state_s_head_decides_before_to(lexicon):
    # "access to the chest" is no act because "access" names one elsewhere: before "to",
    # only a state's head ("contraindication", "intolerance") gives the role.
    result = named(
        extract(
            lexicon,
            "Defibrillation pads should be applied before surgery if access to the chest will "
            "be difficult.",
        )
    )
    assert [c.role for n, c in result.items() if n.startswith("access")] == ["Condition"], result


def test_a_possessive_before_a_longer_name_is_dropped(lexicon):
    # "their yearly cardiovascular risk review": the review, whoever it belongs to.
    result = named(
        extract(
            lexicon,
            "An ECG is recommended in all patients as part of their yearly cardiovascular "
            "risk review.",
        )
    )
    assert not [n for n in result if n.startswith("their")], result
    assert "cardiovascular risk review" in result, result


@pytest.mark.parametrize(
    "text",
    [
        "Bleeding risk should be reassessed during follow-up in AF.",
        "Whole-aorta imaging is advised at baseline and during follow-up.",
        "Echocardiography is recommended during follow-up to detect progression of AS.",
        "Reassessment of bleeding risk is recommended during the follow-up period.",
    ],
)
def test_during_follow_up_says_when_the_act_is_done(lexicon, text):
    # The act is repeated at the visits that follow; "follow-up" is no second act.
    result = named(extract(lexicon, text))
    assert not [n for n in result if "follow-up" in n], result


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("CT is recommended during follow-up of patients after EVAR.", "follow-up"),
        (
            "Blood pressure measurement is recommended during follow-up visits in patients "
            "with CKD.",
            "follow-up visit",
        ),
    ],
    ids=["of a named thing", "visits"],
)
def test_follow_up_that_names_more_is_still_read(lexicon, text, kept):
    # "follow-up of X", "follow-up visits": the words go on, so the phrase is no bare time
    # of the act and is read as before, never cut into a stray noun.
    result = named(extract(lexicon, text))
    assert [n for n in result if kept in n], result
    assert not {"visit", "visits", "period"} & set(result), result
    assert "chronic kidney disease" in result or "endovascular aortic repair" in result, result
