"""Thresholds given per sex, read by rule in the team's own sentences: "a score of ≥2 in men
or ≥3 in women" is one quantity with two values, a patient meeting the one for their sex, so
the two values are the alternatives and the sexes are who each is for (no OR label of their
own); a second value printed without its name is a parameter of the quantity named first.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


def _values(result, name: str) -> list:  # type: ignore[no-untyped-def]
    return [c for c in result.concepts if c.normalized == name and c.role == "ClinicalParameter"]


def test_a_per_sex_value_joins_the_alternatives_before_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a BMI of 31 or more, or a waist above 85 cm for women or above 99 cm for men": the
    second waist value is one more alternative beside the BMI; before, it was read as a
    condition named "above 99 cm for males"."""
    result = extract(
        lexicon,
        "In people with central obesity (BMI ≥31 kg/m2 or a waist circumference >85 cm for "
        "females or >99 cm for males) supervised exercise is recommended.",
    )
    waists = _values(result, "waist circumference")
    assert sorted(c.threshold for c in waists) == [85.0, 99.0], result.concepts
    bmi = named(result)["body mass index"]
    assert_one_or_group(bmi, waists[0])
    assert_one_or_group(bmi, waists[1])
    found = named(result)
    assert found["female"].or_group is None and found["male"].or_group is None, found
    assert not [c for c in result.concepts if "cm for" in c.text], result.concepts


def test_one_value_for_one_sex_pairs_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: one value and one sex: no value is added and no label set."""
    result = extract(
        lexicon, "Yearly imaging is advised in men aged 65 years or more with a diameter of 30 mm."
    )
    assert len([c for c in result.concepts if c.role == "ClinicalParameter"]) == 2, result
    assert all(c.or_group is None for c in result.concepts), result.concepts


def test_sexes_named_as_a_group_keep_their_label(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "men or women with LDL-C ≥4.9 mmol/L": one value for both sexes, who stay
    alternatives of each other; the value keeps no label."""
    found = named(
        extract(lexicon, "Statins are recommended in men or women with LDL-C ≥4.9 mmol/L.")
    )
    assert_one_or_group(found["men"], found["women"])
    ldl = [c for n, c in found.items() if c.role == "ClinicalParameter"]
    assert len(ldl) == 1 and ldl[0].or_group is None, found


@pytest.mark.parametrize(
    "text,name,values,operator",
    [
        # a bare second value: before, it was lost and the sexes were two plain conditions
        (
            "For atrial flutter with a CHA2DS2-VASc of ≥4 in men or ≥5 in women, oral "
            "anticoagulation is recommended.",
            "cha2ds2-vasc",
            [4.0, 5.0],
            ">=",
        ),
        # two named values: before, the sexes were the alternatives, the values unlabelled
        (
            "Repair should be considered when the aneurysm diameter is 52 mm or more in men or "
            "48 mm or more in women.",
            "aneurysm diameter",
            [48.0, 52.0],
            ">=",
        ),
        # the second value in words: before, "at least 4" was a condition of its own
        (
            "Oral anticoagulation is advised with a CHA2DS2-VASc score of at least 3 in men or "
            "at least 4 in women.",
            "cha2ds2-vasc score",
            [3.0, 4.0],
            ">=",
        ),
        # a second value without an operator takes the first one's ("exceeding")
        (
            "Early angiography is recommended with hs-cTnT exceeding 40 ng/L in males or "
            "20 ng/L in females.",
            "hs-ctnt",
            [20.0, 40.0],
            ">",
        ),
        # "male patients" / "female patients"
        (
            "Anticoagulation is recommended with a CHA2DS2-VASc score ≥3 in male patients or "
            "≥4 in female patients.",
            "cha2ds2-vasc score",
            [3.0, 4.0],
            ">=",
        ),
        # ranges per sex
        (
            "Surveillance imaging every year is recommended with an aortic diameter of "
            "46–50 mm in men or 41–45 mm in women.",
            "aortic diameter",
            [[41.0, 45.0], [46.0, 50.0]],
            "between",
        ),
        # "and" between the pairs: no one is of both sexes, so still one or the other
        (
            "Repair should be considered with an aortic diameter ≥49 mm in women and ≥54 mm "
            "in men.",
            "aortic diameter",
            [49.0, 54.0],
            ">=",
        ),
    ],
)
def test_per_sex_values_are_alternatives_of_one_quantity(
    lexicon, text: str, name: str, values: list, operator: str
) -> None:  # type: ignore[no-untyped-def]
    """Two values of one quantity, one per sex, written in the ways rows write them (the
    rule review's probe sentences found the last five missing from the first version): the
    values share one OR label, no sex carries one."""
    result = extract(lexicon, text)
    found = _values(result, name)
    assert sorted(c.threshold for c in found) == values, result.concepts
    assert all(c.operator == operator for c in found), found
    assert_one_or_group(*found)
    assert not [c for c in result.concepts if c.role == "Condition" and c.or_group], result


def test_an_alternative_after_the_per_sex_values_joins_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "≥52 mm in men or ≥47 mm in women, or rapid growth": the growth is one more way to
    qualify (before, it carried no label)."""
    result = extract(
        lexicon,
        "Repair is recommended with an aortic diameter ≥52 mm in men or ≥47 mm in women, or "
        "rapid growth.",
    )
    growth = named(result)["rapid growth"]
    for value in _values(result, "aortic diameter"):
        assert_one_or_group(growth, value)


def test_a_second_value_that_is_a_range_keeps_its_own_bounds(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "≥52 mm in men or 46–50 mm in women": the second value is a range of its own; before,
    it took the first value's "≥" and became "≥ [46, 50]", a value no patient can have."""
    result = extract(
        lexicon,
        "Repair should be considered when the ascending aorta measures ≥52 mm in men or "
        "46–50 mm in women.",
    )
    values = {
        (c.operator, tuple(c.threshold) if isinstance(c.threshold, list) else c.threshold)
        for c in result.concepts
        if c.role == "ClinicalParameter"
    }
    assert values == {(">=", 52.0), ("between", (46.0, 50.0))}, result.concepts
