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


def test_a_bare_second_value_for_the_other_sex_is_a_parameter_of_the_same_score(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an ABC-risk score of ≥4 in men or ≥5 in women": before, the second value was lost and
    the sexes were two plain conditions."""
    result = extract(
        lexicon,
        "For atrial flutter with a CHA2DS2-VASc of ≥4 in men or ≥5 in women, oral "
        "anticoagulation is recommended.",
    )
    scores = _values(result, "cha2ds2-vasc")
    assert sorted(c.threshold for c in scores) == [4.0, 5.0], result.concepts
    assert all(c.operator == ">=" for c in scores), scores
    assert_one_or_group(*scores)
    found = named(result)
    assert found["men"].or_group is None and found["women"].or_group is None, found


def test_two_named_values_per_sex_share_a_label_and_the_sexes_none(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a diameter of 52 mm or more in men or 48 mm or more in women": before, the sexes
    were the alternatives and the two diameters had no label."""
    result = extract(
        lexicon,
        "Repair should be considered when the aneurysm diameter is 52 mm or more in men or "
        "48 mm or more in women.",
    )
    diameters = _values(result, "aneurysm diameter")
    assert sorted(c.threshold for c in diameters) == [48.0, 52.0], result.concepts
    assert all(c.unit == "mm" for c in diameters), diameters
    assert_one_or_group(*diameters)
    found = named(result)
    assert found["men"].or_group is None and found["women"].or_group is None, found


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


@pytest.mark.parametrize(
    "text",
    [
        # one value and one sex: nothing to pair
        "Screening is recommended in men aged 65 years or more with a diameter of 30 mm.",
        # values of two quantities, each with its own name, for the whole group
        "Statins are recommended in men or women with LDL-C ≥4.9 mmol/L.",
    ],
)
def test_no_pair_of_values_per_sex_reads_as_none(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """Guard: without two values each followed by its sex, no value is added and no label
    moves."""
    before = [(c.normalized, c.threshold) for c in extract(lexicon, text).concepts]
    params = [c for c in extract(lexicon, text).concepts if c.role == "ClinicalParameter"]
    assert len(params) <= 2, before
    assert all(c.or_group is None for c in params), params
