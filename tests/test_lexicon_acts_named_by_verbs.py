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
        ("eliminate", "elimination"),
        ("reject", "rejection"),
        ("adjust", "adjustment"),
        ("place", "placement"),
        ("deliver", "delivery"),
    ],
)
def test_a_verb_with_a_regular_noun_names_the_act_by_it(verb: str, noun: str) -> None:
    """-ate, -ct and -ment nouns made by rule, kept only where English has the word."""
    assert verb_noun(verb) == noun


@pytest.mark.parametrize(
    "verb",
    [
        "expedite",
        "base",
        "weigh",
        "update",
        "rate",
        "exercise",
        "test",
    ],
)
def test_a_verb_without_a_regular_noun_has_none(verb: str) -> None:
    """ "expedition", "basement" and "ration" are other words, "updation" and "exercisation"
    none, and "testy" an adjective: these verbs name their act by the gerund ("state" and
    "advise" make "statement" and "advisement", which are theirs)."""
    assert verb_noun(verb) is None


@pytest.mark.parametrize(
    ("verb", "ing"), [("expedite", "expediting"), ("weigh", "weighing"), ("set", "setting")]
)
def test_the_gerund_follows_english_spelling(verb: str, ing: str) -> None:
    assert gerund(verb) == ing


@pytest.mark.parametrize(
    "phrase",
    [
        "to prevent further progression",
        "to rule out an acute coronary syndrome",
        "to not interrupt anticoagulation",
        "to be treated with a statin",
        "to either repair or replace the valve",
    ],
)
def test_what_is_no_act_is_left_to_other_readings(phrase: str) -> None:
    """Aims (also of two words: "rule out"), a negated verb and the copula are read
    elsewhere; naming them here would lose a condition or a negation."""
    assert act_of_infinitive(phrase) is None


@pytest.mark.parametrize(
    ("phrase", "act"),
    [
        ("to supply oxygen", "supplying oxygen"),
        ("to rely on home monitoring", "relying on home monitoring"),
        ("to routinely place pacing pads", "placement of pacing pads"),
        ("to first perform echocardiography", "performing echocardiography"),
        ("to have high awareness of bleeding", "high awareness of bleeding"),
    ],
)
def test_a_verb_ending_in_ly_is_no_adverb(phrase: str, act: str) -> None:
    """ "supply" and "rely" are verbs; "routinely" and "first" are adverbs before one."""
    assert act_of_infinitive(phrase)[0] == act


@pytest.mark.parametrize(
    ("text", "act", "written"),
    [
        (
            "In adults with angina, it is recommended to revascularize the left main artery.",
            "revascularize the left main artery",
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
