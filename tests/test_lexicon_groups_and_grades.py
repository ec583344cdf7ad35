"""Groups of people no one belongs to two of at once (a sex, a body-weight class, a stage of
pregnancy, a stage of life), named side by side with "and": the row applies to either group
(the contract, section 6: "and" meaning OR over patient groups); a grade printed in a
bracket after a state, the state's place on its scale; and how long a state or a therapy has
gone on, a criterion of the patients. Read by rule, in the team's own sentences.
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
            "In women with Marfan syndrome, a beta-blocker should be continued during pregnancy "
            "and post-partum.",
            "pregnancy",
            "post-partum",
        ),
        (
            "After an acute coronary syndrome, men <50 years and women <60 years should have "
            "their lipids measured.",
            "men",
            "women",
        ),
        (
            "Weight loss is recommended in people with severe obesity and overweight patients "
            "with diabetes.",
            "severe obesity",
            "overweight",
        ),
        (
            "In women with a mechanical valve planning pregnancy, LMWH is recommended during "
            "pregnancy and post-partum.",
            "pregnancy",
            "post-partum",
        ),
    ],
    ids=[
        "sexes with ages",
        "weight classes",
        "stages of pregnancy",
        "after an opening phrase",
        "a class before a people word",
        "a word printed earlier",
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


_CANCER_SURVIVORS = {"abbreviations": {"CS": "cancer survivors"}}


@pytest.mark.parametrize(
    "text",
    [
        "Yearly screening for modifiable risk factors is recommended in adults who survived "
        "cancer as children or adolescents, that is in childhood and adolescent CS treated "
        "with anthracyclines.",
        "Cardiac review is recommended in childhood and adolescent CS before a planned pregnancy.",
    ],
    ids=["after who survived", "cohort"],
)
def test_two_stages_of_life_share_the_group_they_qualify(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "childhood and adolescent cancer survivors" are survivors of cancer in childhood and
    survivors of cancer in adolescence: two groups sharing the noun, either of them. Before,
    "childhood" stood alone, a condition of its own."""
    found = named(extract(lexicon, text, **_CANCER_SURVIVORS))
    assert_one_or_group(found["childhood cancer survivor"], found["adolescent cancer survivor"])


def test_a_sex_before_two_groups_is_a_group_of_its_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "female childhood and adolescent CS": the sex is said of both groups, so it is a
    group of its own beside them, not a word of the first."""
    found = named(
        extract(
            lexicon,
            "A cardiology visit before a planned pregnancy is advised in female childhood and "
            "adolescent CS.",
            **_CANCER_SURVIVORS,
        )
    )
    assert found["female"].or_group is None, found
    assert_one_or_group(found["childhood cancer survivor"], found["adolescent cancer survivor"])
    assert not [name for name in found if name.startswith("female ")], found


def test_a_stage_of_life_borrows_no_head_from_something_else(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A stage of life lends itself a noun only from another stage of life: "childhood and
    heart failure clinics" are no "childhood clinics"."""
    found = named(
        extract(
            lexicon,
            "Shared care is recommended in childhood and heart failure clinics.",
        )
    )
    assert not [name for name in found if name.startswith("childhood ")], found


def test_the_last_two_of_a_longer_list_stay_as_the_list_reads(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "hypertension, diabetes, overweight and obesity": one list, its last two items no
    pair of their own; only two groups standing alone are alternatives."""
    found = named(
        extract(
            lexicon,
            "Screening is recommended in people with hypertension, diabetes, overweight and "
            "obesity.",
        )
    )
    assert found["overweight"].or_group is None or found["overweight"].or_group == (
        found["hypertension"].or_group
    ), found


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
    ids=["grade", "two grades", "roman grade"],
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


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold", "unit"),
    [
        (
            "Permanent pacing should be considered for sinus node dysfunction persisting for "
            ">4 weeks after valve surgery.",
            "sinus node dysfunction duration",
            ">",
            4,
            "weeks",
        ),
        (
            "A permanent pacemaker is advised for people with complete or high-degree AV block that "
            "persists for 24–48 h after valve surgery.",
            "av block duration",
            "between",
            [24, 48],
            "h",
        ),
    ],
    ids=["persisting for", "that persists for"],
)
def test_how_long_a_state_has_persisted_is_its_duration(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: object, unit: str
) -> None:
    """ "a state persisting for >4 weeks", "that persists for 24–48 h": how long the state has
    lasted is a criterion of the patients, named after the state whatever its grade, as
    "persisting >4 weeks" already was; before, the "for" made it read as how long a therapy is
    given, and it went."""
    found = named(extract(lexicon, text))
    lasted = found[name]
    assert lasted.role == "ClinicalParameter", lasted
    assert (lasted.operator, lasted.threshold, lasted.unit) == (operator, threshold, unit)


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold"),
    [
        (
            "Pericardial stripping is recommended if the patient is not improving after 6–10 "
            "weeks of antibiotic therapy.",
            "duration of antibiotic therapy",
            "between",
            [6, 10],
        ),
        (
            "After 3 years of imaging stability, imaging may be spaced out further for people "
            "at low risk with a treated aortic ulcer.",
            "duration of imaging stability",
            ">=",
            3,
        ),
    ],
    ids=["therapy given so far", "stability so far"],
)
def test_how_long_something_has_gone_on_after_which_is_a_criterion(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: object
) -> None:
    """ "after 6–10 weeks of antibiotic therapy": how long the patients have been given a
    therapy, or a state has held, by the time the row applies is a criterion (at least that
    long, for one value), not how long the recommended act goes on; before, the value went
    with the durations of acts and the criterion was lost."""
    found = named(extract(lexicon, text))
    lasted = found[name]
    assert lasted.role == "ClinicalParameter", lasted
    assert (lasted.operator, lasted.threshold) == (operator, threshold), lasted


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        (
            "In aortic trauma (grades 1 or 3), open repair is recommended.",
            "aortic trauma grade",
        ),
        (
            "Aspirin may be stopped after 1 month of DAPT in patients at high bleeding risk.",
            "duration",
        ),
        (
            "Echocardiographic screening is recommended after 6 months of age in children with "
            "a family history of cardiomyopathy.",
            "duration",
        ),
    ],
    ids=["two grades apart", "a time the act comes", "an age"],
)
def test_no_grade_or_duration_where_the_text_gives_none(  # type: ignore[no-untyped-def]
    lexicon, text: str, absent: str
) -> None:
    """Two grades apart ("grades 1 or 3") are no range between them; "stopped after 1 month of
    DAPT" says when the act comes, and "after 6 months of age" is an age: none of them is a
    grade or a duration of what the patients had."""
    found = named(extract(lexicon, text))
    assert not [name for name in found if absent in name], found


def test_a_grade_is_named_after_the_state_without_its_degree(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "moderate to severe aortic trauma (grade 3)": the range of degree is not the state."""
    found = named(
        extract(lexicon, "In moderate to severe aortic trauma (grade 3), repair is recommended.")
    )
    assert found["aortic trauma grade"].threshold == 3, found


def test_a_state_that_persists_for_a_time_at_the_end_of_the_row(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "AV block that persists for 24–48 h." with nothing after it: the duration is read
    all the same (the "for" no longer goes with the durations of acts)."""
    found = named(
        extract(
            lexicon,
            "Permanent pacing is recommended in patients with AV block that persists for 24–48 h.",
        )
    )
    assert found["av block duration"].threshold == [24, 48], found
