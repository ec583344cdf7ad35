"""Words around the act that guideline tables use and the rules did not read: "in place of"
(a comparator, like "instead of"), "ahead of" (when, like "before"), a comparator followed by
what the act is for ("in preference to X for Y", read as a cohort), "unless no suitable
alternative drug is available" (no state of the patient), "WHO" in capitals inside a cohort
(a class's name, never the pronoun "who"), a sentence opening "Ahead of / In advance of X,"
and clinicians as the subject of "that … adopt".

In the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_in_place_of_names_a_comparator(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A in place of B" prefers A to B, as "instead of B" does: B is the comparator, not a
    place or a state of the patients."""
    result = extract(
        lexicon, "A leadless pacemaker should be considered in place of a transvenous pacemaker."
    )
    found = named(result)
    assert "transvenous pacemaker" in found, found
    assert "transvenous pacemaker" not in {a.normalized for a in result.actions}, result.actions
    assert not [n for n in found if n.startswith("place")], found


def test_ahead_of_says_when_like_before(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ahead of each infusion" is when the act is given, as "before each infusion" is: the
    marker words are no part of any concept."""
    found = named(
        extract(lexicon, "Premedication is advised ahead of each infusion in adults with lymphoma.")
    )
    assert not [n for n in found if "ahead" in n], found
    assert "lymphoma" in found, found


@pytest.mark.parametrize(
    ("text", "comparator", "condition"),
    [
        (
            "Endovascular repair is advised in preference to open repair for acute aortic"
            " dissection with malperfusion.",
            "open repair",
            "acute aortic dissection",
        ),
        (
            "Drug-eluting stents are advised over bare-metal stents for any coronary"
            " intervention in adults with diabetes.",
            "bare-metal stent",
            "diabetes mellitus",
        ),
    ],
)
def test_a_comparator_ends_where_what_the_act_is_for_begins(  # type: ignore[no-untyped-def]
    lexicon, text: str, comparator: str, condition: str
) -> None:
    """ "A in preference to B for Y": B is what A is preferred to, and "for Y" says what both
    are for; Y is no part of the comparator's name."""
    result = extract(lexicon, text)
    found = named(result)
    assert comparator in found, found
    assert comparator not in {a.normalized for a in result.actions}, result.actions
    assert any(n.startswith(condition) for n in found), found


def test_what_a_comparator_is_for_reads_as_a_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A in preference to B for Y complicated by C, D or E": whom the act is for is read as
    a cohort is, so the complications are alternatives of each other, beside the disease and
    not in its OR group (before, the disease joined them)."""
    result = extract(
        lexicon,
        "Stent grafting is advised in preference to open repair for acute aortic dissection"
        " complicated by malperfusion, rupture or refractory pain.",
    )
    found = named(result)
    assert found["acute aortic dissection"].or_group is None, result.concepts
    groups = {found[n].or_group for n in ("malperfusion", "rupture", "refractory pain")}
    assert len(groups) == 1 and None not in groups, result.concepts


def test_a_comparator_keeps_a_duration_after_for(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "over a VKA for 3 months": how long, not what the act is for; no condition made."""
    found = named(extract(lexicon, "A DOAC is advised over a VKA for 3 months in adults with PE."))
    assert "vitamin k antagonist" in found, found
    assert not [n for n in found if "month" in n], found


@pytest.mark.parametrize(
    "clause",
    [
        "unless no suitable alternative drug is available",
        "unless no alternative exists",
        "unless there is no other alternative",
    ],
)
def test_unless_no_alternative_is_no_state_of_the_patients(lexicon, clause: str) -> None:  # type: ignore[no-untyped-def]
    """Only when nothing else is at hand: the clause limits the act, it names no state, and
    none of its words may join the condition before it."""
    found = named(
        extract(lexicon, f"Quinolones are not advised in adults with an aortic aneurysm, {clause}.")
    )
    assert "aortic aneurysm" in found, found
    assert not [n for n in found if "available" in n or "alternative" in n], found


def test_who_in_capitals_inside_a_cohort_is_a_class_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "women with modified WHO class III": the capitals name the World Health Organization
    risk class; read as the pronoun "who" they cut the class from its name."""
    found = named(
        extract(lexicon, "Pregnancy is not advised in women with modified WHO class III disease.")
    )
    risk = found.get("modified world health organization class")
    assert risk is not None and risk.threshold == 3, found
    assert "modified" not in found, found


@pytest.mark.parametrize("lead", ["Ahead of", "In advance of", "Before"])
def test_a_sentence_opening_with_when_keeps_its_act(lexicon, lead: str) -> None:  # type: ignore[no-untyped-def]
    """ "Ahead of TAVI, CT angiography is advised": an opening that says when, like
    "Before TAVI,", leaves the act after the comma the recommended one."""
    result = extract(lexicon, f"{lead} TAVI, CT angiography is advised in all adults.")
    assert [a.normalized for a in result.actions] == ["computed tomography angiography"], result
    assert not [c for c in result.concepts if "advance" in c.normalized or "ahead" in c.normalized]


def test_clinicians_who_adopt_an_approach_are_no_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "that clinicians adopt shared decision-making with patients with AF": the clinicians
    give the care; the patients the row is for are those with AF."""
    found = named(
        extract(
            lexicon,
            "It is recommended that clinicians adopt a shared decision-making approach with"
            " patients with AF.",
        )
    )
    assert not [n for n in found if "clinician" in n], found
    assert any("atrial fibrillation" in n for n in found), found
