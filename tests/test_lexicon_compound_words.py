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
    "text",
    [
        "aged 75 years and above",
        "an ejection fraction of 35% or lower",
        "moderate or higher-grade valve stenosis",
        "two or more-vessel disease",
    ],
)
def test_a_comparison_word_after_a_value_or_a_grade_stays_part_of_it(text: str) -> None:
    """The same words standing alone after a number are how the value compares; after a
    grade or a number, hyphened or not, they close a range ("moderate or higher-grade"),
    which the contract keeps whole."""
    assert isinstance(split_logic(text), Leaf)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("below-knee or above-knee amputation", "below-knee amputation"),
        ("standard-dose or higher-dose statins", "standard-dose statins"),
    ],
)
def test_a_hyphened_modifier_before_the_split_borrows_the_noun(text: str, first: str) -> None:
    """ "below-knee or above-knee amputation": once the connector splits the two, the first
    modifier still names the shared noun, not a bare "below-knee"."""
    tree = split_logic(text)
    assert isinstance(tree, Expr)
    assert leaves(tree)[0].full == first


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
