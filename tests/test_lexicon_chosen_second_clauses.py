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
