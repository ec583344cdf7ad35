"""A second clause that names the act chosen instead, and patients described by how they came
to hospital inside a clause: each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "chosen"),
    [
        # After a semicolon or "in whom", "X is the drug of choice" names X; the words that
        # rank it are no part of its name.
        (
            "Digoxin should not be used in this setting; beta-blockers are the drugs of choice.",
            "beta-blocker",
        ),
        (
            "Digoxin is contraindicated in patients with WPW, in whom procainamide remains the "
            "drug of choice.",
            "procainamide",
        ),
        (
            "Reversal with andexanet may be considered for apixaban; for dabigatran, "
            "idarucizumab is the agent of choice.",
            "idarucizumab",
        ),
    ],
)
def test_what_a_second_clause_chooses_is_named_alone(lexicon, sentence, chosen):
    result = named(extract(lexicon, sentence))
    assert any(name.startswith(chosen) for name in result), result
    assert not any("of choice" in name for name in result), result


def test_a_time_of_choice_is_not_an_act_chosen(lexicon):
    # "week 12 is the time of choice": when, never what; the span is left as it was (a guard).
    result = named(
        extract(lexicon, "In a first trimester, week 12 is the time of choice for surgery.")
    )
    assert not any(name == "week 12" for name in result), result


@pytest.mark.parametrize(
    "sentence",
    [
        # "If X stays poor in patients admitted with Y": the state, then the patients; how they
        # came (admitted, hospitalised, presenting) is no part of the state.
        "If diuresis stays poor in patients admitted with acute HF, a thiazide should be added.",
        "If blood pressure remains high in patients hospitalised with acute HF, a nitrate "
        "may be considered.",
    ],
)
def test_patients_admitted_with_a_disease_are_read_apart_from_the_clause(lexicon, sentence):
    result = named(extract(lexicon, sentence))
    assert "acute heart failure" in result, result
    assert not any("patients" in name for name in result), result


@pytest.mark.parametrize(
    ("sentence", "first", "fallback"),
    [
        # "A, or if not tolerated, B": B is what is given when A cannot be; the two are one
        # choice, and the words that say when B is chosen are no concept of the row.
        (
            "Aspirin, or if contraindicated, clopidogrel is recommended in CCS.",
            "aspirin",
            "clopidogrel",
        ),
        (
            "After MI, a beta-blocker — or, if it is contraindicated, ivabradine — is "
            "recommended for patients with angina.",
            "beta-blocker",
            "ivabradine",
        ),
        (
            "If BP stays uncontrolled on three drugs, adding spironolactone, or if not "
            "tolerated, amiloride, is recommended.",
            "spironolactone",
            "amiloride",
        ),
    ],
)
def test_a_fallback_drug_is_an_alternative_to_the_first(lexicon, sentence, first, fallback):
    result = named(extract(lexicon, sentence))
    assert first in result and fallback in result, result
    assert result[first].or_group and result[first].or_group == result[fallback].or_group
    assert not any("tolera" in name or "contraindicat" in name for name in result), result


# A review's mends (each guard fails on 4393e51, the version it mends).


@pytest.mark.parametrize(
    ("sentence", "state", "fallback"),
    [
        # The fallback is an alternative to the act only when the act is what comes right
        # before it; after the patients' phrase, it is not an alternative to their disease.
        (
            "Spironolactone is recommended in patients with resistant hypertension, or if not "
            "tolerated, eplerenone.",
            "resistant hypertension",
            "eplerenone",
        ),
        (
            "In patients with AF unsuitable for long-term OAC, or if it is contraindicated, "
            "LAA occlusion may be considered.",
            "unsuitable for long-term oral anticoagulant",
            "left atrial appendage occlusion",
        ),
    ],
)
def test_a_fallback_after_the_patients_is_no_alternative_to_their_state(
    lexicon, sentence, state, fallback
):
    result = named(extract(lexicon, sentence))
    assert state in result and fallback in result, result
    assert result[fallback].or_group is None or result[fallback].or_group != result[state].or_group


def test_a_fallback_dose_is_no_drug(lexicon):
    # "or if not tolerated, the highest tolerated dose": a dose of the same drug, no second
    # drug to choose.
    result = extract(
        lexicon,
        "A high-intensity statin, or if not tolerated, the maximally tolerated dose, is "
        "recommended in patients with ACS.",
    )
    assert not any("dose" in a.normalized or "maximally" in a.normalized for a in result.actions)


@pytest.mark.parametrize(
    "sentence",
    [
        # "the weeks / the time window of choice": when, never what is chosen, whatever the
        # number of the noun or the word before it.
        "Valve surgery should be deferred in pregnancy; weeks 20 to 24 are the weeks of "
        "choice for intervention.",
        "Surgery should be avoided in the first trimester; the second trimester is the time "
        "window of choice for valvuloplasty.",
    ],
)
def test_a_time_of_choice_in_any_wording_is_not_an_act_chosen(lexicon, sentence):
    result = named(extract(lexicon, sentence))
    assert not any(name in ("weeks 20 to 24", "second trimester") for name in result), result


def test_a_word_before_the_choice_still_names_what_is_chosen(lexicon):
    # "adenosine is still the drug of choice": "still" says nothing of what is chosen.
    result = named(
        extract(lexicon, "Digoxin should be avoided; adenosine is still the drug of choice.")
    )
    assert "adenosine" in result, result


def test_patients_admitted_to_hospital_with_a_disease_are_read_apart(lexicon):
    # "in patients admitted to hospital with Y": the same as "admitted with Y".
    result = named(
        extract(
            lexicon,
            "If diuresis stays poor in patients admitted to hospital with acute HF, a thiazide "
            "should be added.",
        )
    )
    assert "acute heart failure" in result and "diuresis stays poor" in result, result
