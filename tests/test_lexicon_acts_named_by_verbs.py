"""The act of "It is recommended to <verb> X" when the rules know no noun for the verb:
English's regular noun where it makes one, else the gerund, and never a name starting with
"to". Every sentence here is the team's own.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.lexicon.act_nouns import act_of_infinitive, gerund, verb_noun
from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("verb", "noun"),
    [
        ("revascularize", "revascularization"),
        ("revascularise", "revascularisation"),
        ("anticoagulate", "anticoagulation"),
        ("eliminate", "elimination"),
        ("reject", "rejection"),
        ("adjust", "adjustment"),
        ("deliver", "delivery"),
        ("place", "placement"),
    ],
)
def test_a_verb_with_a_regular_noun_names_the_act_by_it(verb: str, noun: str) -> None:
    """-ize, -ate and -ct verbs make their nouns by rule (medical ones the word list lacks
    too); -ment and -y nouns count only where English has the word."""
    assert verb_noun(verb) == noun


@pytest.mark.parametrize("verb", ["expedite", "base", "weigh", "update"])
def test_a_verb_without_a_regular_noun_has_none(verb: str) -> None:
    """ "expedition" and "basement" are other words, and "updation" is none: these verbs
    name their act by the gerund."""
    assert verb_noun(verb) is None


@pytest.mark.parametrize(
    ("verb", "ing"), [("expedite", "expediting"), ("weigh", "weighing"), ("set", "setting")]
)
def test_the_gerund_follows_english_spelling(verb: str, ing: str) -> None:
    assert gerund(verb) == ing


def test_an_aim_verb_is_left_to_the_aim_readings() -> None:
    """ "to prevent X" right after the framing is what the act is for, read elsewhere."""
    assert act_of_infinitive("to prevent further progression") is None
    assert act_of_infinitive("to revascularize the left main artery")[0] == (
        "revascularization of the left main artery"
    )


@pytest.mark.parametrize(
    ("text", "act", "written"),
    [
        (
            "In adults with angina, it is recommended to revascularize the left main artery.",
            "revascularization of the left main artery",
            "revascularize the left main artery",
        ),
        (
            "It is recommended to place transcutaneous pacing pads in adults with an ICD.",
            "placement of transcutaneous pacing pad",
            "place transcutaneous pacing pads",
        ),
        (
            "It is recommended to expedite delivery in women with pre-eclampsia.",
            "expediting delivery",
            "expedite delivery",
        ),
    ],
)
def test_it_is_recommended_to_verb_names_the_act(
    lexicon, text: str, act: str, written: str
) -> None:  # type: ignore[no-untyped-def]
    """The act is named as a noun phrase, and its text is the row's own words (the verb as
    written), so that it can be found in the row."""
    result = extract(lexicon, text)
    assert act in [a.normalized for a in result.actions], result.actions
    found = named(result)
    assert found[act].text == written, found[act]
    assert written in text
    assert not any(n.startswith("to ") for n in found), found
