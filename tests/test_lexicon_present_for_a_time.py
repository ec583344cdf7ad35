"""A state "present for" a time has lasted that long: each case in the team's own words."""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "name", "threshold"),
    [
        # "X has been / is present for more than 24 h" says how long X has lasted, as "X
        # has lasted longer than 24 h" does: a duration of X, with its bound.
        (
            "When AF has been present for more than 24 h, cardioversion should be preceded by "
            "anticoagulation.",
            "atrial fibrillation duration",
            24.0,
        ),
        (
            "When AF is present for more than 48 h, anticoagulation is recommended before "
            "cardioversion.",
            "atrial fibrillation duration",
            48.0,
        ),
    ],
)
def test_a_state_present_for_a_time_has_a_duration(lexicon, sentence, name, threshold):
    result = named(extract(lexicon, sentence))
    assert name in result, result
    assert (result[name].operator, result[name].threshold) == (">", threshold)


def test_a_person_present_for_a_time_is_no_duration(lexicon):
    # "a surgeon should be present for 1 h after TAVI": someone's attendance, no state that
    # lasted (a review's guard: it fails on 7b373a2).
    result = named(
        extract(lexicon, "A cardiac surgeon should be on site and present for 1 h after TAVI.")
    )
    assert not any(c.role == "ClinicalParameter" or "lasting" in c.text for c in result.values()), (
        result
    )


def test_a_state_present_for_a_time_after_its_noun_has_a_duration(lexicon):
    # "in patients with AF present for more than 48 h": the same duration, said without a
    # verb (a review's guard: it fails on 784975c).
    result = named(
        extract(
            lexicon,
            "In patients with AF present for more than 48 h, anticoagulation for 3 weeks "
            "before cardioversion is recommended.",
        )
    )
    assert result["atrial fibrillation duration"].threshold == 48.0
