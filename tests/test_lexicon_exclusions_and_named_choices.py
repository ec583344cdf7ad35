"""A state an exception needs ruled out ("unless infection has been ruled out"), a
contraindication said with its strength ("unless absolutely contraindicated"), and an act
named as the choice to make ("X is the recommended intervention", "X is the first step").
Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "High-dose steroids are not recommended unless tuberculosis has been ruled out.",
            "tuberculosis",
        ),
        (
            "Immunosuppression is not recommended except when viral infection has been "
            "excluded by PCR on biopsy tissue.",
            "viral infection",
        ),
    ],
    ids=["unless", "except when, with the test"],
)
def test_a_state_an_exception_needs_ruled_out_is_named_alone(lexicon, text, state):
    # The exception is about the state being absent: the state is named, negated, and the
    # test that excluded it names no criterion of its own.
    result = named(extract(lexicon, text))
    assert state in result and result[state].negated, result
    assert not [n for n in result if "ruled out" in n or "excluded" in n], result


def test_an_absolute_contraindication_keeps_its_strength(lexicon):
    # "unless absolutely contraindicated": only an absolute contraindication stops the act.
    result = named(
        extract(lexicon, "Thrombolysis is recommended unless absolutely contraindicated.")
    )
    assert result["absolute contraindication"].negated, result


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "In symptomatic severe MS, balloon valvotomy is the recommended intervention for "
            "patients with suitable anatomy.",
            "balloon valvotomy",
        ),
        (
            "Carotid sinus massage is the first step for stable regular tachycardia.",
            "carotid sinus massage",
        ),
    ],
    ids=["recommended intervention", "first step"],
)
def test_an_act_named_as_the_choice_is_the_recommended_act(lexicon, text, act):
    # "is the recommended intervention for …" recommends the act; the words are a verb
    # phrase, no part of its name, and what follows "for" is whom it is for.
    extraction = extract(lexicon, text)
    result = named(extraction)
    assert act in result, result
    assert [a.normalized for a in extraction.actions] == [act], extraction.actions
