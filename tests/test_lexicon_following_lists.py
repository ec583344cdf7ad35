"""A list after "the following … is recommended:" is what the row recommends: read by rule,
in the team's own sentences.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.lexicon.sentence_leads import list_as_subject
from cardio_assets.logic.lexicon.sentences import parse_sentence
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


def test_items_with_verbs_of_their_own_keep_the_sentence_as_written() -> None:
    """A list whose items carry verbs ("when the dose is …") would lend the sentence a new
    verb if moved before it; the row is then read as written, its verb unchanged."""
    parse = parse_sentence(
        "In pregnant women with a mechanical valve, the following plan should be considered: "
        "warfarin when the dose is low; heparin when it is high."
    )
    assert parse.verb == "should be considered", parse
    assert parse.cohort == "In pregnant women with a mechanical valve", parse


@pytest.mark.parametrize(
    "text",
    [
        # a colon inside a bracket is no list's colon
        "The following drugs are recommended (class I: level A): aspirin; clopidogrel.",
        # the colon opens the patients' own list, not the acts
        "The following tests are recommended in patients with any of these findings: syncope; "
        "palpitations; and chest pain.",
    ],
)
def test_a_colon_that_opens_no_list_of_acts_leaves_the_sentence_as_written(text: str) -> None:
    """Only a colon at the end of the verb phrase, outside brackets, opens the list the
    pointer stands for; a verb phrase that ends on a list lead of its own ("with any of these
    findings:") keeps the sentence as written."""
    assert list_as_subject(text) is None


def test_a_clause_after_the_list_is_said_of_the_whole_row(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…: A and B, unless contraindicated" moves the clause after the verb: both items are
    acts, and the exception is the row's negated condition."""
    result = extract(
        lexicon,
        "In patients after myocardial infarction, the following should be considered: aspirin "
        "and a statin, unless contraindicated.",
    )
    assert {"aspirin", "statin"} <= {a.normalized.lower() for a in result.actions}
    assert any(c.negated for c in result.concepts), result.concepts
