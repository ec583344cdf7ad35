"""Values said in other ways: a risk that "reaches" a value, a list of NYHA classes, a
footnote letter glued to "or more", and a preference said after the drug ("by preference"):
each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "name", "threshold"),
    [
        # "reaches N": that value or more
        (
            "An ICD should be considered once the estimated 5-year risk of sudden death "
            "reaches 8%.",
            "5-year risk of sudden death",
            8.0,
        ),
        # "has reached N": the same bound
        (
            "Elective repair is recommended when the aortic root diameter has reached 50 mm.",
            "aortic root diameter",
            50.0,
        ),
    ],
)
def test_a_value_reached_is_that_value_or_more(lexicon, sentence, name, threshold):
    result = named(extract(lexicon, sentence))
    param = result[name]
    assert (param.operator, param.threshold) == (">=", threshold), param
    # ("estimated" says how the risk is known: no state of its own)
    assert "estimated" not in result, result


@pytest.mark.parametrize(
    ("sentence", "low", "high"),
    [
        # "NYHA class II, III or ambulatory IV": the classes listed span one range
        ("CRT should be considered in NYHA class II, III or ambulatory IV with LBBB.", 2.0, 4.0),
        ("An LVAD may be considered in NYHA class III, or IV despite optimal therapy.", 3.0, 4.0),
    ],
)
def test_a_list_of_nyha_classes_is_the_range_it_spans(lexicon, sentence, low, high):
    result = named(extract(lexicon, sentence))
    nyha = result["new york heart association class"]
    assert (nyha.operator, nyha.threshold) == ("between", [low, high]), nyha
    assert not {"iii", "iv", "ambulatory iv"} & set(result), result


def test_one_nyha_class_before_other_criteria_stays_one_class(lexicon):
    # "NYHA class II, LBBB and …": the comma ends the class; the next item is another
    # criterion (a guard).
    nyha = named(extract(lexicon, "CRT is recommended in NYHA class II, LBBB and QRS ≥150 ms."))[
        "new york heart association class"
    ]
    assert (nyha.operator, nyha.threshold) == ("=", 2.0), nyha


def test_a_footnote_letter_glued_to_or_more_is_left_out(lexicon):
    # "a score of 2 or moreb": the letter points at a footnote; the bound is "or more".
    result = named(
        extract(
            lexicon, "Anticoagulation is recommended in AF with a CHA2DS2-VA score of 3 or moreb."
        )
    )
    assert "moreb" not in result, result
    assert result["cha2ds2-va score"].operator == ">=", result


def test_a_preference_said_after_the_drug_is_no_part_of_its_name(lexicon):
    # "nadolol or propranolol by preference": which comes first, not a kind of propranolol.
    result = named(
        extract(
            lexicon,
            "Patients with LQTS should take a beta-blocker—nadolol or propranolol by "
            "preference—to lower arrhythmic risk.",
        )
    )
    assert "propranolol" in result, result
    assert not any("preference" in name for name in result), result


def test_in_preference_to_still_names_the_comparator(lexicon):
    # "in preference to X": what the act is chosen over stays (a guard).
    result = named(extract(lexicon, "Colchicine is recommended in preference to corticosteroids."))
    assert "corticosteroid" in result, result


def test_a_bound_said_again_after_the_value_is_part_of_it(lexicon):
    # "reaches 50 mm or more": the "or more" repeats the bound; it names no state.
    result = named(
        extract(
            lexicon,
            "In Loeys-Dietz syndrome, root replacement is indicated once the diameter reaches "
            "45 mm or more.",
        )
    )
    assert not any("or more" in name for name in result), result
    assert (result["diameter"].operator, result["diameter"].threshold) == (">=", 45.0), result


def test_two_bounds_joined_by_or_stay_two_values(lexicon):
    # "above 50% or below 30%": a second value after "or", never a repeated bound (a guard).
    result = extract(lexicon, "Surgery is recommended if LVEF is above 60% or below 30%.")
    values = sorted(c.threshold for c in result.concepts if c.role == "ClinicalParameter")
    assert values == [30.0, 60.0], result.concepts


# A review's guards (each fails on d320188 or reads as it did before it)


def test_a_second_bound_after_or_less_than_stays_its_own_value(lexicon):
    # "≤35% or less than 40%": "or less" leads a second bound ("than 40%"), never repeats
    # the first.
    result = extract(lexicon, "An ICD is recommended if LVEF is ≤30% or less than 35% with NSVT.")
    bounds = sorted((c.operator, c.threshold) for c in result.concepts if c.threshold)
    assert bounds == [("<", 35.0), ("<=", 30.0)], result.concepts


def test_or_above_a_named_reference_is_no_repeated_bound(lexicon):
    # "above 4.9 mmol/L or above the 95th percentile": a second criterion follows.
    result = named(
        extract(
            lexicon,
            "Statins are recommended if LDL-C is above 4.9 mmol/L or above the 95th centile.",
        )
    )
    ldl = result["low density lipoprotein cholesterol"]
    assert ldl.text.endswith("mmol/L"), ldl


@pytest.mark.parametrize(
    ("sentence", "threshold"),
    [
        # "the eGFR reaches 20 or below": the words after the value bound it from above
        ("Dialysis planning is recommended once the eGFR reaches 20 or below.", 20.0),
        # "has reached 15 or below": the same, after "has reached"
        ("Dialysis planning is recommended once the eGFR has reached 15 or below.", 15.0),
    ],
)
def test_the_words_after_a_reached_value_say_which_side(lexicon, sentence, threshold):
    egfr = named(extract(lexicon, sentence))["estimated glomerular filtration rate"]
    assert (egfr.operator, egfr.threshold) == ("<=", threshold), egfr


def test_a_value_not_yet_reached_is_no_lower_bound(lexicon):
    # "has not yet reached 55 mm": below it, never "55 mm or more".
    result = extract(
        lexicon, "Surveillance is advised while the diameter has not yet reached 55 mm."
    )
    assert not any(c.operator == ">=" for c in result.concepts), result.concepts


def test_by_preference_before_the_drug_keeps_the_drugs_apart(lexicon):
    # "non-selective beta-blockers, by preference nadolol": two drugs, never one name.
    result = named(
        extract(
            lexicon, "Non-selective beta-blockers, by preference nadolol, are recommended in LQTS."
        )
    )
    assert {"non-selective beta-blocker", "nadolol"} <= set(result), result


def test_nyha_classes_joined_by_and_span_one_range(lexicon):
    nyha = named(extract(lexicon, "CRT is recommended in NYHA class II and III with LBBB."))[
        "new york heart association class"
    ]
    assert (nyha.operator, nyha.threshold) == ("between", [2.0, 3.0]), nyha


@pytest.mark.parametrize(
    ("sentence", "threshold"),
    [
        # "smokers older than 45": the state, and the age of the patients who have it
        ("Screening is recommended in smokers older than 45.", 45.0),
        # ... with its unit too
        ("Screening is recommended in smokers older than 55 years.", 55.0),
    ],
)
def test_older_than_after_a_state_is_the_age_of_those_with_it(lexicon, sentence, threshold):
    result = named(extract(lexicon, sentence))
    assert "smoker" in result and result["age"].threshold == threshold, result


def test_a_footnote_letter_glued_to_or_fewer_is_left_out(lexicon):
    result = named(
        extract(lexicon, "Aspirin is advised in AF with a bleeding score of 2 or fewerb.")
    )
    assert not any(name.endswith("fewerb") for name in result), result


# A second review's guards (each fails on a532dd4)


def test_by_preference_right_after_the_drug_is_dropped(lexicon):
    # "A or B by preference is recommended": the preference names no drug.
    result = named(extract(lexicon, "Nadolol or propranolol by preference is recommended in LQTS."))
    assert {"nadolol", "propranolol"} <= set(result), result


def test_a_repeated_bound_before_by_the_test_is_part_of_the_value(lexicon):
    # "reaches 50 mm or more by CT": the bound, then the test it is measured by.
    result = named(
        extract(
            lexicon, "Repair is indicated once the aortic diameter reaches 52 mm or more by CT."
        )
    )
    assert not any(name.startswith("or more") for name in result), result
    assert result["aortic diameter"].operator == ">=", result


def test_a_bound_word_of_any_kind_after_an_operator_is_part_of_the_value(lexicon):
    # "aged ≥65 years or older": "or older" repeats the bound, no state of its own.
    result = named(extract(lexicon, "Screening is recommended in adults aged ≥70 years or older."))
    assert "older" not in result and result["age"].operator == ">=", result
