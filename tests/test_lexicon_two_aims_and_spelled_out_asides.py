"""Three readings of the team's own sentences: two aims joined by "and", each with its own
verb ("to relieve symptoms and lower morbidity and mortality"); a bracket spelling out what
does not matter ("whatever the AF pattern (paroxysmal or permanent)"); and "X is the
recommended first-line test", a recommendation of X.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "outcomes"),
    [
        (
            "Resynchronisation therapy is advised in heart failure with LBBB to relieve symptoms"
            " and lower both morbidity and mortality.",
            {"symptom", "morbidity", "mortality"},
        ),
    ],
)
def test_a_second_verb_after_and_starts_a_second_aim(
    lexicon, text: str, outcomes: set[str]
) -> None:  # type: ignore[no-untyped-def]
    """Each verb of the aim leads in to its own object; before, the first object ran on
    into the second verb ("symptoms and lower both morbidity")."""
    found = {c.normalized for c in extract(lexicon, text).concepts if c.role == "Outcome"}
    assert outcomes <= found, found
    assert not any(" and " in name for name in found), found


def test_one_verb_with_two_objects_stays_one_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "to reduce death and hospital admission" has one verb and two objects."""
    found = {
        c.normalized
        for c in extract(
            lexicon, "Beta-blockers are advised in heart failure to reduce death and admission."
        ).concepts
        if c.role == "Outcome"
    }
    assert {"death", "admission"} <= found, found


def test_a_bracket_after_what_does_not_matter_goes_with_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "whatever the AF pattern (paroxysmal, persistent or permanent)": the bracket lists
    the patterns that do not matter, so none of them is a condition of the row."""
    result = extract(
        lexicon,
        "Anticoagulation is advised in people with AF at high stroke risk, whatever the AF"
        " pattern (paroxysmal, persistent or permanent).",
    )
    found = named(result)
    assert not {"paroxysmal", "persistent", "permanent"} & set(found), found
    assert found["atrial fibrillation"].role == "Condition", found


def test_the_recommended_first_line_test_is_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "CCTA is the recommended first-line diagnostic test": CCTA is what is recommended;
    before, the whole clause was one procedure."""
    result = extract(
        lexicon,
        "In people with stable chest pain, CCTA is the recommended first-line diagnostic test.",
    )
    assert [a.normalized for a in result.actions] == ["computed tomography coronary angiography"], (
        result.actions
    )
