""" ", or in patients with B" after a first group or case: another group the act is for,
either one enough (the contract's clause-level OR); each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "first", "second"),
    [
        # a group, then "or in those with" a bound: either group qualifies
        (
            "Valve surgery is recommended in patients with severe MR, or in those whose LVEF "
            "is below 60%.",
            "severe mitral regurgitation",
            "left ventricular ejection fraction",
        ),
        # a "when" clause, then "or in patients with" a state
        (
            "An ICD is recommended when syncope recurs, or in patients with a prior cardiac "
            "arrest.",
            "recurrent syncope",
            "prior cardiac arrest",
        ),
        # the first case goes on with the therapy it persists on before the "or"
        (
            "Ablation is recommended when palpitations persist despite beta-blockers or in "
            "patients with pre-excitation.",
            "persistent palpitation",
            "pre-excitation",
        ),
        # ... or with what the act is given beside
        (
            "Ezetimibe is recommended in patients at high risk on a statin, in addition to "
            "diet, or in patients with statin intolerance.",
            "high risk",
            "statin intolerance",
        ),
    ],
)
def test_or_in_another_group_is_an_alternative_to_the_first(lexicon, sentence, first, second):
    by_name = named(extract(lexicon, sentence))
    assert by_name[first].or_group is not None, by_name
    assert by_name[first].or_group == by_name[second].or_group, by_name


def test_a_second_group_after_and_in_patients_with_still_joins_as_before(lexicon):
    # "after X, and in patients with Y": the distributive "and" kept its reading (a guard).
    by_name = named(
        extract(
            lexicon,
            "Anticoagulation is recommended after valve repair, and in patients with AF.",
        )
    )
    assert by_name["atrial fibrillation"].or_group is not None, by_name
