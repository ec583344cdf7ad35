"""The role of an example the terminology does not know (the kind of the head it follows),
therapy words that name drugs or acts ("triple therapy", "lifestyle measures"), and words
left over once the rules took their noun away: read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize(
    ("text", "examples", "role"),
    [
        (
            "Quitting smoking is advised, supported by counselling and pharmacotherapy "
            "(varenicline, bupropion or cytisine).",
            {"varenicline", "bupropion", "cytisine"},
            "Medication",
        ),
        (
            "Frailty screening with a validated tool (e.g. the Clinical Frailty Scale or gait "
            "speed) should be considered in older adults.",
            {"clinical frailty scale", "gait speed"},
            "Procedure",
        ),
    ],
)
def test_an_example_unknown_to_the_terminology_is_of_the_heads_kind(  # type: ignore[no-untyped-def]
    lexicon, text: str, examples: set[str], role: str
) -> None:
    """Items listed after a drug therapy or a test name kinds of it: when nothing in their
    own words or the terminology says otherwise, they take the head's role rather than the
    slot's default (a drug was read as a disease, a scale as a drug)."""
    found = named(extract(lexicon, text))
    assert {n: found[n].role for n in examples} == dict.fromkeys(examples, role), found


def test_an_example_with_a_role_of_its_own_keeps_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A disease listed after a procedure is still a disease: only items with no role of
    their own take the head's."""
    found = named(
        extract(
            lexicon,
            "Referral to a specialist centre (e.g. in pulmonary hypertension or congenital heart "
            "disease) is advised.",
        )
    )
    assert found["pulmonary hypertension"].role == "Condition", found
    assert found["congenital heart disease"].role == "Condition", found


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        (
            "A DOAC plus clopidogrel is advised after a short period of triple therapy in adults "
            "with AF.",
            ("Medication", "triple therapy"),
        ),
        (
            "Midodrine may be considered in adults with reflex syncope that persists despite "
            "education and lifestyle measures.",
            ("Procedure", "lifestyle measure"),
        ),
        (
            "ACE inhibitors should not be used at any stage of pregnancy.",
            ("Condition", "pregnancy"),
        ),
    ],
)
def test_therapy_words_and_time_leads(lexicon, text: str, concept: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    """ "Triple / dual therapy" is a drug combination and "lifestyle measures" something done,
    whatever slot they sit in; "a short period of X" says how long X is given and "at any
    stage of pregnancy" whenever the state holds: neither is part of the name."""
    assert concept in roles(extract(lexicon, text))


def test_a_participle_left_alone_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ideally performed within 14 days": once the act it is said of is read, "performed"
    alone names nothing."""
    found = named(
        extract(
            lexicon,
            "Carotid endarterectomy is advised in adults with a recent TIA, ideally performed "
            "within 14 days of the event.",
        )
    )
    assert "performed" not in found, found


def test_a_nicotinic_partial_agonist_is_a_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A nicotinic partial agonist (-nicline) is a drug even when the terminology lacks it:
    the recommended act is giving it, not a procedure."""
    found = roles(extract(lexicon, "Varenicline is advised in adults who smoke and have CAD."))
    assert ("Medication", "varenicline") in found, found


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Proceeding to TAVI is advised in adults with severe aortic stenosis.", "TAVI"),
        (
            "An ICD solely for primary prevention is not advised within 40 days of an MI.",
            "ICD",
        ),
    ],
)
def test_lead_in_words_and_narrowing_adverbs_are_no_part_of_the_act(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str
) -> None:
    """ "Proceeding to X" is doing X, and "solely / exclusively for Y" only says how narrow
    the purpose is: the act is named by what is done."""
    assert [a.text for a in extract(lexicon, text).actions] == [act]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Valve intervention for secondary mitral regurgitation is advised after medical "
            "therapy.",
            {("Procedure", "valve intervention"), ("Condition", "secondary mitral regurgitation")},
        ),
        (
            "Statins for primary prevention are advised in adults with diabetes.",
            {("Medication", "statin"), ("Outcome", "primary prevention")},
        ),
    ],
)
def test_secondary_names_a_disease_unless_it_names_prevention(  # type: ignore[no-untyped-def]
    lexicon, text: str, expected: set
) -> None:
    """ "for secondary prevention" is an aim, but "for secondary mitral regurgitation" is the
    disease the act treats: the word "secondary" alone does not make what follows "for" an
    aim."""
    assert expected <= roles(extract(lexicon, text))
