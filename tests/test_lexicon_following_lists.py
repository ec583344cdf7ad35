"""A list after "the following … is recommended:" is what the row recommends: read by rule,
in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        (
            "After a first episode of myocarditis, the following are recommended before a return "
            "to training: a Holter recording; an exercise ECG; and cardiac MRI.",
            {
                "holter recording",
                "exercise electrocardiogram",
                "cardiac magnetic resonance imaging",
            },
        ),
        (
            "The following drugs are not recommended in patients with long QT syndrome: "
            "• macrolide antibiotics; • methadone; • haloperidol.",
            {"macrolide antibiotic", "methadone", "haloperidol"},
        ),
        (
            "In adults with congenital heart disease, the following tests are recommended "
            "every year: a resting ECG and pulse oximetry.",
            {"electrocardiogram", "pulse oximetry"},
        ),
    ],
)
def test_the_items_after_the_following_are_the_acts(  # type: ignore[no-untyped-def]
    lexicon, text: str, acts: set[str]
) -> None:
    """ "the following [drugs] are recommended: A; B; C" points at the list after the colon:
    each item is an act of the row (before, the pointer stood as the subject and the row had
    no act at all), and "the following" names nothing."""
    result = extract(lexicon, text)
    found = {a.normalized.lower() for a in result.actions}
    assert acts <= found, found
    assert not any("following" in c.normalized.lower() for c in result.concepts), result.concepts


def test_items_with_verbs_of_their_own_keep_the_sentence_as_written(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A list whose items carry verbs ("when the dose is …") would lend the sentence a new
    verb if moved before it; the row is then read as written, its verb unchanged."""
    result = extract(
        lexicon,
        "In pregnant women with a mechanical valve, the following plan should be considered: "
        "warfarin when the dose is low; heparin when it is high.",
    )
    assert result.error is None
    assert {"warfarin", "heparin"} <= {c.normalized.lower() for c in result.concepts}
