"""The act named as the one to choose in other words ("remains the anticoagulant of choice",
"the recommended mode of intervention", "are favoured over"); a multiple of the normal value
written in words; a bound said as "from N upward"; a drug change said as "stepping down
from A to B"; a test's finding in a second clause joined by "and"; and the valve disease
"AS" never read as the word "as". Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text",
    [
        "In patients with rheumatic mitral stenosis, warfarin remains the anticoagulant of choice.",
        "In patients with rheumatic mitral stenosis, warfarin is the recommended mode of "
        "anticoagulation.",
        "In patients with rheumatic mitral stenosis, warfarin is favoured.",
    ],
    ids=["of choice", "mode of", "favoured"],
)
def test_the_act_named_as_the_one_to_choose(lexicon, text):
    # Naming a drug as the one to choose recommends it: the drug alone is the act, and the
    # words that choose it name nothing.
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == ["warfarin"], result
    assert named(result)["rheumatic mitral stenosis"].role == "Condition", result


@pytest.mark.parametrize(
    ("text", "threshold"),
    [
        ("Valve surgery is reasonable if BNP is more than three times the normal value.", 3.0),
        ("Stop the statin if ALT exceeds five times the upper limit of normal.", 5.0),
        ("Stop the statin if ALT exceeds four times the upper normal limit.", 4.0),
        ("Valve surgery is reasonable if BNP is above 2 times the normal range.", 2.0),
    ],
)
def test_a_multiple_of_the_normal_value_in_words(lexicon, text, threshold):
    # "three times the normal value" is the upper limit of normal taken three times: one
    # parameter with its multiple, in words or digits.
    params = [c for c in extract(lexicon, text).concepts if c.role == "ClinicalParameter"]
    assert [(p.operator, p.threshold, p.unit) for p in params] == [(">", threshold, "× ULN")]


def test_the_reference_of_a_normal_value_is_no_criterion(lexicon):
    # "corrected for age and sex" says how the normal value is set; age and sex are not
    # conditions of the patients.
    result = named(
        extract(
            lexicon,
            "Valve surgery is reasonable if BNP is more than three times the normal value "
            "corrected for age and sex.",
        )
    )
    assert not {"age", "sex"} & set(result), result


def test_a_bound_said_as_from_a_value_upward(lexicon):
    # "from 40 kg/m² upward" is 40 kg/m² and above; the words "from" and "upward" name
    # nothing, and ", meaning" restates the state by its criterion as "i.e." does.
    result = extract(
        lexicon,
        "Bariatric surgery may be considered in morbid obesity, meaning a BMI from 40 kg/m² "
        "upward.",
    )
    bmi = named(result)["body mass index"]
    assert (bmi.operator, bmi.threshold, bmi.unit) == (">=", 40.0, "kg/m²"), result
    assert not any("meaning" in c.normalized or "upward" in c.normalized for c in result.concepts)


@pytest.mark.parametrize("change", ["Stepping down", "De-escalating", "Escalating"])
def test_a_change_from_one_drug_to_another(lexicon, change):
    # "stepping down from A to B" is a switch: B is the act, A the drug the patients were on;
    # the verb is no part of either name.
    result = extract(
        lexicon, f"{change} from prasugrel to clopidogrel may be considered after one month."
    )
    assert [a.normalized for a in result.actions] == ["clopidogrel"], result
    assert named(result)["prasugrel"].role == "Medication", result


def test_a_test_finding_in_a_second_clause(lexicon):
    # "... when the EF stays low and the ECG shows LBBB": the second clause is a finding on
    # a test, read as it would be alone: LBBB the condition, the ECG the test.
    result = named(
        extract(
            lexicon,
            "CRT is recommended in heart failure when the ejection fraction stays at 30% or "
            "below and the ECG shows LBBB.",
        )
    )
    assert result["left bundle branch block"].role == "Condition", result
    assert "electrocardiogram shows left bundle branch block" not in result, result


def test_the_valve_disease_as_is_not_the_word_as(lexicon):
    # "for severe AS in patients with diabetes" names the stenosis; only the lower-case word
    # "as" opens a comparison ("as in patients without diabetes").
    result = named(
        extract(lexicon, "SAVR is recommended for severe AS in patients with heart failure.")
    )
    assert result["severe aortic stenosis"].role == "Condition", result
    assert result["heart failure"].role == "Condition", result


# --- guards from the session's code review: where the rules above must not reach


def test_a_dose_said_as_a_multiple_of_the_normal_is_no_value(lexicon):
    # "twice the normal dose" is how much drug, not a laboratory value above its normal.
    result = extract(lexicon, "Rivaroxaban at 2 times the normal dose is not recommended.")
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"], result


@pytest.mark.parametrize(
    "text",
    [
        "In patients facing a high risk of bleeding, a proton pump inhibitor is recommended.",
        "Where patients are awaiting test results, aspirin is reasonable.",
    ],
)
def test_facing_what_is_no_act_names_no_procedure(lexicon, text):
    # Only an act ahead of the patients (surgery, a transplant) is a Procedure: a risk or
    # results they face are not.
    result = extract(lexicon, text)
    assert all(
        c.role != "Procedure" or "risk" not in c.normalized and "result" not in c.normalized
        for c in result.concepts
    ), result


def test_moving_between_places_is_no_change_of_drug(lexicon):
    # "from the ICU to the ward" are places, not the drug the patients were on.
    result = extract(lexicon, "Moving from the ICU to the ward is recommended after stabilisation.")
    assert not [c for c in result.concepts if c.role == "Medication"], result


def test_the_time_of_choice_recommends_no_time(lexicon):
    # "the second trimester is the time of choice for intervention" says when, not what: the
    # trimester is no act.
    result = extract(
        lexicon,
        "In pregnant women with severe mitral stenosis, the second trimester is the time of "
        "choice for intervention.",
    )
    assert all(a.normalized != "second trimester" for a in result.actions), result


def test_a_team_made_up_of_people_leaves_the_patients_alone(lexicon):
    # The members of a team are no items of an act; the patients it sees keep their state.
    result = named(
        extract(
            lexicon,
            "A heart team made up of a cardiologist and a cardiac surgeon should assess patients "
            "with severe AS.",
        )
    )
    assert result["severe aortic stenosis"].role == "Condition", result


def test_a_course_from_day_one_onwards_is_no_threshold(lexicon):
    # "from day 1 onwards" says when a course starts: no value of the patients.
    result = extract(lexicon, "Aspirin is recommended from day 1 onwards after CABG.")
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"], result
