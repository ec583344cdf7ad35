"""Lists whose joining word says less than it seems: the items of "the following setting:"
all hold together; the states an exception lists are each left out ("except in A, B and
C"); "A or, alternatively, B" is "A or B". And a value's verb ("a QRS measuring 130–149 ms")
is no part of its name. Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "lead",
    ["in the following setting:", "when all of the following are present:"],
)
def test_the_items_of_one_setting_all_hold_together(lexicon, lead):
    # One setting described by three findings is met only when all three are: no OR group,
    # and the lead itself names nothing.
    result = extract(
        lexicon,
        f"Conduction-system pacing may be considered {lead} sinus rhythm, a QRS of 130–149 ms, "
        "and an LVEF of 35% or less.",
    )
    assert {"sinus rhythm", "left ventricular ejection fraction"} <= set(named(result)), result
    assert all(c.or_group is None for c in result.concepts), result
    assert not any(
        "following" in c.normalized or "present" in c.normalized for c in result.concepts
    )


@pytest.mark.parametrize(
    "text",
    [
        "A DOAC is preferred to warfarin, except in advanced liver disease, pregnancy and "
        "breastfeeding, or a mechanical valve.",
        "Routine genetic testing is not recommended, with the possible exception of Marfan "
        "syndrome and Loeys-Dietz syndrome.",
    ],
    ids=["except in", "with the exception of"],
)
def test_each_listed_exception_is_left_out_on_its_own(lexicon, text):
    # An exception list names cases each of which is left out, whatever word joins them:
    # NOT(OR(...)), every item negated and sharing one OR label.
    result = extract(lexicon, text)
    excepted = [c for c in result.concepts if c.negated]
    assert len(excepted) >= 2, result
    assert len({c.or_group for c in excepted}) == 1 and excepted[0].or_group, result


def test_an_excepted_group_of_patients_keeps_its_and(lexicon):
    # "except in patients with A and B" leaves out those who have both: their "and" stays.
    result = extract(
        lexicon, "A beta-blocker is recommended, except in patients with asthma and bradycardia."
    )
    negated = [c for c in result.concepts if c.negated]
    assert {c.normalized for c in negated} == {"asthma", "bradycardia"}, result
    assert all(c.or_group is None for c in negated), result


def test_or_alternatively_is_or(lexicon):
    # ", alternatively," after "or" repeats it: the two drugs are alternatives.
    result = extract(
        lexicon, "Extended therapy with apixaban or, alternatively, edoxaban should be considered."
    )
    drugs = [c for c in result.concepts if c.role == "Medication"]
    assert [d.normalized for d in drugs] == ["apixaban", "edoxaban"], result
    assert drugs[0].or_group and drugs[0].or_group == drugs[1].or_group, result


@pytest.mark.parametrize("verb", ["measuring", "measured at"])
def test_the_verb_before_a_value_is_no_part_of_its_name(lexicon, verb):
    # "a QRS measuring 150 ms or more" names the QRS; "measuring" only links it to its value.
    result = extract(
        lexicon, f"CRT is indicated in heart failure with a QRS {verb} 150 ms or more."
    )
    qrs = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert len(qrs) == 1 and verb not in qrs[0].normalized, result
    assert (qrs[0].operator, qrs[0].threshold) == (">=", 150.0), result
