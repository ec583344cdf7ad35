"""Groups of people no one belongs to two of at once (a sex, a body-weight class, a stage of
pregnancy, a stage of life), named side by side with "and": the row applies to either group
(the contract, section 6: "and" meaning OR over patient groups); and a grade printed in a
bracket after a state, the state's place on its scale. Read by rule, in the team's own
sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        (
            "Routine risk scoring is not recommended in men <45 years of age and women "
            "<55 years of age without known risk factors.",
            "men",
            "women",
        ),
        (
            "Weight loss through diet and exercise is recommended for overweight and obese "
            "people to lower blood pressure.",
            "overweight",
            "obese",
        ),
        (
            "Beta-blockers are recommended during pregnancy and post-partum in women with "
            "Marfan syndrome.",
            "pregnancy",
            "post-partum",
        ),
    ],
)
def test_groups_one_at_a_time_joined_by_and_are_alternatives(  # type: ignore[no-untyped-def]
    lexicon, text: str, first: str, second: str
) -> None:
    """A man is never a woman, an overweight person never obese, and post-partum comes after
    the pregnancy: joined by "and", such groups are who the row is for, either of them, even
    with a value of the first group in between; before, both were required together."""
    found = named(extract(lexicon, text))
    assert_one_or_group(found[first], found[second])


def test_states_of_different_kinds_joined_by_and_stay_both_required(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Women who are obese and pregnant": a weight class and a stage of pregnancy are of
    different kinds, and one woman has both, so neither is an alternative of the other."""
    found = named(extract(lexicon, "Screening is recommended in women who are obese and pregnant."))
    assert found["obese"].or_group is None and found["pregnancy"].or_group is None, found


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            "Yearly screening for modifiable risk factors is recommended in adults who are "
            "childhood and adolescent CS treated with anthracyclines.",
            {"abbreviations": {"CS": "cancer survivors"}},
        ),
        (
            "Cardiac review is recommended in female childhood and adolescent CS before a "
            "planned pregnancy.",
            {"abbreviations": {"CS": "cancer survivors"}},
        ),
    ],
)
def test_two_stages_of_life_share_the_group_they_qualify(  # type: ignore[no-untyped-def]
    lexicon, text: str, fields: dict
) -> None:
    """ "childhood and adolescent cancer survivors" are survivors of cancer in childhood and
    survivors of cancer in adolescence: two groups sharing the noun, either of them; a sex
    printed before both is a group of its own. Before, "childhood" stood alone and the sex
    was glued to it."""
    found = named(extract(lexicon, text, **fields))
    assert_one_or_group(found["childhood cancer survivor"], found["adolescent cancer survivor"])
    if "female" in text:
        assert "female" in found, found


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold"),
    [
        (
            "In moderate aortic trauma (grade 3), open or endovascular repair is recommended.",
            "aortic trauma grade",
            "=",
            3,
        ),
        (
            "Medical treatment with close imaging follow-up should be considered in minimal "
            "aortic trauma (grades 1 or 2).",
            "aortic trauma grade",
            "between",
            [1, 2],
        ),
        (
            "Valve surgery is recommended in severe tricuspid regurgitation (grade IV).",
            "tricuspid regurgitation grade",
            "=",
            4,
        ),
    ],
)
def test_a_grade_in_a_bracket_after_a_state_is_its_grade(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: object
) -> None:
    """ "moderate aortic trauma (grade 3)": the bracket places the state on its grading
    scale, a criterion with a value, named after the state without the words of degree;
    before, "grade 3" was read as a condition of its own."""
    found = named(extract(lexicon, text))
    grade = found[name]
    assert grade.role == "ClinicalParameter", grade
    assert (grade.operator, grade.threshold) == (operator, threshold), grade
    assert not [n for n in found if n.startswith("grade")], found
