"""A bare number after the people it bounds is their age, and "of any age" bounds nothing:
each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "operator", "threshold"),
    [
        # "people over 70": no unit written, but the number after the people is their age.
        ("In people over 70 with diabetes, a statin may be started.", ">", 70.0),
        ("In women under 45 with a mechanical valve, pregnancy should be planned.", "<", 45.0),
    ],
)
def test_a_bare_number_after_the_people_is_their_age(lexicon, sentence, operator, threshold):
    result = named(extract(lexicon, sentence))
    assert "age" in result, result
    assert (result["age"].operator, result["age"].threshold) == (operator, threshold)
    # ... counted in years, as "aged ≥50" is, though no unit is written
    assert result["age"].unit == "years", result["age"]
    assert not any(name.startswith(("over", "under")) for name in result), result


def test_a_count_after_the_people_stays_a_count(lexicon):
    # "patients with ≥2 risk factors": the number counts the factors, no age (a guard).
    result = named(extract(lexicon, "Screening is recommended in patients with ≥2 risk factors."))
    assert "age" not in result, result


def test_of_any_age_bounds_nothing(lexicon):
    # "frail patients of any age": the frailty is the criterion; the age is left open.
    result = named(
        extract(
            lexicon,
            "In frail patients of any age, BP-lowering drugs should be started at a low dose.",
        )
    )
    assert not any("age" in name.split() for name in result), result
