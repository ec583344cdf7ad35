"""Who a row is for: the population `cardio extract` reports (the contract, section 9).

Every condition the row restricts patients by (negated ones and alternatives included), the
therapy or procedure the cohort is already defined by, and an age threshold; never the
recommended act, the therapy given with it or the one it is preferred over. Sentences are
the team's own.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.lexicon import LexiconExtractor
from cardio_assets.logic.merged_concepts import merge_row, prediction_line
from tests.lexicon_fixtures import row_of


def population(lexicon: LexiconExtractor, text: str) -> list[str]:
    """Both passes of one row merged, as `cardio extract` reports the population."""
    row = row_of(text)
    merged = merge_row(
        lexicon.extract(row, "MAIN"), lexicon.extract(row, "POPULATION"), lexicon.abbreviations
    )
    return prediction_line(text, "lang", merged)["population"]


def test_a_therapy_the_cohort_is_already_on_belongs_to_it(lexicon) -> None:
    """ "despite a beta-blocker" says who the row is for: patients already taking one."""
    found = population(
        lexicon, "Ivabradine should be considered in patients with angina despite a beta-blocker."
    )
    assert "beta-blocker" in found and "ivabradine" not in found


def test_negated_and_alternative_conditions_belong_to_it(lexicon) -> None:
    """The cohort "with atrial fibrillation and without a mechanical valve" is defined by
    both; alternatives ("A or B") each define part of it."""
    found = population(
        lexicon,
        "Apixaban is recommended in patients with atrial fibrillation or flutter without a "
        "mechanical valve.",
    )
    assert {"atrial fibrillation", "flutter", "mechanical valve"} <= set(found)
    assert "apixaban" not in found


@pytest.mark.parametrize(
    ("text", "beside"),
    [
        ("Apixaban is recommended over warfarin in patients with atrial fibrillation.", "warfarin"),
        (
            "In addition to a statin, ezetimibe should be considered in patients with "
            "familial hypercholesterolaemia.",
            "statin",
        ),
        (
            "Aspirin is recommended in combination with clopidogrel in patients with unstable "
            "angina.",
            "clopidogrel",
        ),
    ],
)
def test_a_comparator_or_a_co_therapy_is_not_the_cohort(lexicon, text: str, beside: str) -> None:
    """What the act is preferred over, or given together with, is not what the patients
    already have: it stays a concept of the row but out of the population."""
    found = population(lexicon, text)
    assert beside not in found and found  # the cohort's condition is still there


def test_an_age_threshold_belongs_to_it(lexicon) -> None:
    found = population(lexicon, "Screening for AF is recommended in people aged 75 years or older.")
    assert found == ["age"]
