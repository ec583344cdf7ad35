"""A state "present for" a time has lasted that long: each case in the team's own words."""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "name", "threshold"),
    [
        # "X has been present for more than 24 h" says how long X has lasted, as "X has
        # lasted longer than 24 h" does: a duration of X, with its bound.
        (
            "When AF has been present for more than 24 h, cardioversion should be preceded by "
            "anticoagulation.",
            "atrial fibrillation duration",
            24.0,
        ),
        (
            "In CKD, with abnormalities present for >3 months, an ACE inhibitor is recommended.",
            "abnormality duration",
            3.0,
        ),
    ],
)
def test_a_state_present_for_a_time_has_a_duration(lexicon, sentence, name, threshold):
    result = named(extract(lexicon, sentence))
    assert name in result, result
    assert (result[name].operator, result[name].threshold) == (">", threshold)
