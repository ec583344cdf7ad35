"""Guards from the fiftieth session's second and third code reviews: where its rules (a state presenting
with another, an event on a therapy, listed exceptions, multiples of the normal value, "from
N upward", "free of", drug changes, acts ahead of the patients) must not reach. Each case is
the team's own sentence and failed on the version its review read (6ee2bad, e85a40e).
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "clause",
    [
        "If AF occurs on the first postoperative day",
        "If angina occurs on minimal exertion",
    ],
)
def test_an_event_on_a_day_or_an_effort_names_no_drug(lexicon, clause):
    # "on the first postoperative day", "on minimal exertion" say when the event comes, not
    # a therapy the patients take.
    result = extract(lexicon, f"{clause}, a beta-blocker is recommended.")
    drugs = {c.normalized for c in result.concepts if c.role == "Medication"}
    assert drugs == {"beta-blocker"}, result


def test_an_excluded_range_keeps_its_two_ends(lexicon):
    # "between 120 and 150 ms" is one range: its "and" is no list of exceptions.
    result = extract(
        lexicon,
        "CRT is recommended in heart failure, excluding a QRS duration between 120 and 150 ms.",
    )
    qrs = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(q.operator, q.threshold) for q in qrs] == [("between", [120.0, 150.0])], result


@pytest.mark.parametrize(
    "exception",
    [
        "except when asthma and bradycardia coexist",
        "except in elderly patients with asthma and bradycardia",
    ],
)
def test_exceptions_that_go_together_keep_their_and(lexicon, exception):
    # States said to coexist, or a group of patients who have both, are left out together:
    # no OR between them.
    result = extract(lexicon, f"A beta-blocker is recommended, {exception}.")
    assert all(c.or_group is None for c in result.concepts if c.negated), result


@pytest.mark.parametrize(
    ("text", "threshold"),
    [
        ("The statin should be stopped if CK rises above 10 times normal.", 10.0),
        ("The statin should be stopped if ALT exceeds 3 times the normal upper limit.", 3.0),
        ("The statin should be stopped if ALT exceeds three times the normal level.", 3.0),
    ],
)
def test_a_multiple_of_normal_said_plainly_is_still_the_upper_limit(lexicon, text, threshold):
    # "10 times normal", "the normal upper limit", "the normal level": the upper limit of
    # normal, however it is said.
    params = [c for c in extract(lexicon, text).concepts if c.role == "ClinicalParameter"]
    assert [(p.threshold, p.unit) for p in params] == [(threshold, "× ULN")]


def test_not_meeting_the_criteria_is_not_having_the_disease(lexicon):
    # "who do not meet the diagnostic criteria for HCM" do not have HCM: never read as HCM.
    result = extract(
        lexicon,
        "ICD implantation is not recommended in patients who do not meet the diagnostic "
        "criteria for HCM.",
    )
    assert not any(
        c.normalized == "hypertrophic cardiomyopathy" and not c.negated for c in result.concepts
    ), result
    assert not any(c.normalized == "do not" for c in result.concepts), result


@pytest.mark.parametrize(
    ("text", "threshold"),
    [
        ("Anticoagulation is indicated from a CHA2DS2-VASc score of 2 onwards.", 2.0),
        ("Screening is advised from 65 years onwards.", 65.0),
    ],
)
def test_from_a_value_onwards_is_the_value_and_above(lexicon, text, threshold):
    # "onwards" bounds a value as "upward" does; nothing of "from ... onwards" is left over.
    result = extract(lexicon, text)
    params = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(p.operator, p.threshold) for p in params] == [(">=", threshold)], result
    assert not any("from" in c.normalized for c in result.concepts), result


def test_a_course_started_from_a_week_leaves_no_pieces(lexicon):
    # "from week 12 upward" says when aspirin starts: neither a value nor a condition.
    result = named(
        extract(
            lexicon, "Aspirin is recommended from week 12 upward in women at risk of pre-eclampsia."
        )
    )
    assert not any("from" in name or "week" in name for name in result), result


def test_a_diet_free_of_a_food_keeps_its_words(lexicon):
    # "free of" said of a diet is no absence in the patients: the span stays as written.
    result = extract(lexicon, "A diet free of trans fats is recommended.")
    assert not any("without" in c.text for c in result.concepts), result


def test_presenting_after_a_preposition_keeps_its_verb(lexicon):
    # "within 10 min of presenting with chest pain": the time runs from the presentation; no
    # "of with" is made.
    result = extract(lexicon, "An ECG is recommended within 10 min of presenting with chest pain.")
    assert not any("of with" in c.text for c in result.concepts), result


@pytest.mark.parametrize(
    "text",
    [
        "Transitioning from intravenous heparin to a VKA is recommended after 5 days.",
        "Moving from DAPT to single antiplatelet therapy is recommended after 12 months.",
    ],
)
def test_a_change_between_two_drugs_said_as_moving(lexicon, text):
    # Moving or transitioning from one drug to another is a switch: the second is the act.
    result = extract(lexicon, text)
    assert len(result.actions) == 1 and not result.actions[0].normalized.startswith(
        ("moving", "transitioning")
    ), result


def test_patients_awaiting_an_abbreviated_act(lexicon):
    # "awaiting HTx": the act ahead of them, named by its abbreviation alone.
    result = extract(lexicon, "In patients awaiting HTx, an LVAD should be considered.")
    assert not any("awaiting" in c.text for c in result.concepts), result


# --- the third review's guards (each failed on e85a40e)


def test_a_schedule_takes_its_comparator_with_it(lexicon):
    # "at least three times a week" is how often, all of it: no "at least" is left on the act.
    result = extract(
        lexicon, "Exercise at least three times a week is recommended in chronic coronary syndrome."
    )
    assert [a.normalized for a in result.actions] == ["exercise"], result


@pytest.mark.parametrize("therapy", ["CRT", "OMT"])
def test_an_event_on_an_abbreviated_therapy(lexicon, therapy):
    # "if VT recurs on CRT": the arrhythmia, and the therapy named by its abbreviation.
    result = extract(lexicon, f"Catheter ablation should be considered if VT recurs on {therapy}.")
    assert named(result)["ventricular tachycardia"].role == "Condition", result


@pytest.mark.parametrize(
    "exception",
    [
        "except in cases of mechanical heart valves and moderate-to-severe mitral stenosis",
        "except in severe renal impairment and pregnant women",
    ],
)
def test_an_exception_list_naming_people_or_cases_late_is_still_a_list(lexicon, exception):
    # "cases of A and B", "A and pregnant women": each is left out on its own (one OR label).
    result = extract(lexicon, f"A DOAC is preferred to warfarin, {exception}.")
    excepted = [c for c in result.concepts if c.negated]
    assert len(excepted) == 2 and excepted[0].or_group, result
    assert excepted[0].or_group == excepted[1].or_group, result


def test_people_of_an_age_free_of_a_disease(lexicon):
    # "those aged 40–75 years free of CVD" are without CVD.
    result = named(
        extract(lexicon, "Statins are recommended in those aged 40–75 years free of CVD.")
    )
    assert result["cardiovascular disease"].negated, result


def test_a_dose_a_few_words_after_normal_is_still_a_dose(lexicon):
    # "2 times normal oral doses" is how much drug, not a value above normal.
    result = extract(lexicon, "Loop diuretics at 2 times normal oral doses should be considered.")
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"], result


def test_facing_device_shocks_is_no_act_ahead(lexicon):
    # "patients facing ICD shocks" live with the shocks; no implantation is ahead of them.
    result = extract(lexicon, "Beta-blockers are recommended in patients facing ICD shocks.")
    assert not [c for c in result.concepts if c.role == "Procedure"], result
