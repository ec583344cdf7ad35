"""Words that look like a value's comparison or a connector but, hyphened into a compound,
start a name. Every sentence here is the team's own; each names the phrasing it stands for.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.logic_split import Expr, Leaf, leaves, split_logic
from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "second"),
    [
        ("kidney disease and above-target triglyceride levels", "above-target triglyceride levels"),
        ("obesity and lower-limb oedema", "lower-limb oedema"),
        ("gout or higher-grade valve regurgitation", "higher-grade valve regurgitation"),
    ],
)
def test_a_comparison_word_hyphened_into_a_compound_starts_a_second_name(
    text: str, second: str
) -> None:
    """After "and" or "or", "above", "lower" or "higher" make a value of what went before
    ("75 years and above", "35% or lower"); hyphened to the next word they are the first
    half of an adjective ("above-target", "lower-limb") and the connector joins two names."""
    tree = split_logic(text)
    assert isinstance(tree, Expr), tree
    assert [leaf.text for leaf in leaves(tree)][-1] == second


@pytest.mark.parametrize(
    "text", ["aged 75 years and above", "an ejection fraction of 35% or lower"]
)
def test_a_comparison_word_after_a_value_stays_part_of_it(text: str) -> None:
    """The same words standing alone after a number are how the value compares."""
    assert isinstance(split_logic(text), Leaf)


def test_a_row_names_both_states_joined_to_a_compound_adjective(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Both are states the patients have; neither swallows the other."""
    found = named(
        extract(
            lexicon,
            "Fibrates are recommended in patients with kidney disease and above-target "
            "triglyceride levels.",
        )
    )
    assert found["kidney disease"].role == "Condition"
    assert found["above-target triglyceride level"].role == "Condition"
