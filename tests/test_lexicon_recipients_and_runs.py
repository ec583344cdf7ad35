"""Whom an act is given to, named after "to" with the words that qualify them ("offered to
DVT patients who …"), and a run of words before one noun that an "and" follows ("recurrent,
unpredictable reflex syncope and a long pause"). Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "conditions"),
    [
        (
            "Compression stockings should be offered to DVT patients who cannot walk.",
            {"deep vein thrombosis", "cannot walk"},
        ),
        (
            "Influenza vaccination should be offered to all HF patients at discharge.",
            {"heart failure"},
        ),
        (
            "Aspirin should not be given in place of anticoagulation to AF patients who "
            "refuse a DOAC.",
            {"atrial fibrillation", "direct oral anticoagulant not desired"},
        ),
    ],
    ids=["an abbreviation and a clause", "all of a disease's patients", "after an alternative"],
)
def test_patients_an_act_is_given_to_are_the_cohort(lexicon, text, conditions):
    # The patients after "to" are whom the act is for, qualified by the disease they have
    # ("AF patients"); what they are named with is no part of the act.
    result = named(extract(lexicon, text))
    assert conditions <= {n for n, c in result.items() if c.role == "Condition"}, result
    assert not [n for n in result if "patient" in n], result


@pytest.mark.parametrize(
    "text",
    [
        "Anticoagulation is recommended in patients with atrial flutter similarly to AF patients.",
        "Anticoagulation is recommended in atrial flutter, in contrast to AF.",
        "Anticoagulation is recommended in atrial flutter as compared to AF patients.",
    ],
)
def test_a_group_the_act_is_compared_with_is_no_cohort(lexicon, text):
    # "similarly to AF patients", "in contrast to AF": the patients the row is likened to or
    # set against are others; the row's own patients keep their name
    result = named(extract(lexicon, text))
    assert "atrial flutter" in result, result
    assert not [n for n in result if "atrial fibrillation" in n], result


def test_a_run_of_course_words_before_an_and_names_one_state(lexicon):
    # The words before the noun describe one syncope; the "and" after it adds a finding of
    # its own, it does not make the first word an item of a list.
    result = named(
        extract(
            lexicon,
            "Pacing may be considered in people older than 45 years with recurrent, "
            "unpredictable reflex syncope and a long documented pause.",
        )
    )
    assert "recurrent unpredictable reflex syncope" in result, result
    assert "recurrent" not in result, result


def test_a_run_before_a_noun_ending_in_ed_stays_one_state(lexicon):
    # "bleed" ends like a participle but is the noun the run describes
    result = named(
        extract(
            lexicon,
            "Pacing should be considered in patients with recurrent, severe gastrointestinal "
            "bleed and anaemia.",
        )
    )
    assert "recurrent severe gastrointestinal bleed" in result, result


def test_a_list_of_states_after_who_are_stays_a_list(lexicon):
    # "asymptomatic, haemodynamically stable and …": each word of state is an item of the
    # list, not a modifier of the next
    result = named(
        extract(
            lexicon,
            "Early discharge may be considered in PE patients who are asymptomatic, "
            "haemodynamically stable and have a normal troponin.",
        )
    )
    assert {"asymptomatic", "haemodynamically stable"} <= set(result), result


def test_a_target_kept_beneath_a_value_is_below_it(lexicon):
    # "kept beneath N" sets the same target as "kept below N"
    result = named(extract(lexicon, "Diastolic blood pressure should be kept beneath 85 mmHg."))
    target = result["diastolic blood pressure"]
    assert (target.operator, target.threshold, target.unit) == ("<", 85.0, "mmHg"), target


@pytest.mark.parametrize(
    "text",
    [
        "In women with HCM, beta-blockers should be continued in those who took them before "
        "pregnancy.",
        "Carotid massage should be tried first; if they fail, intravenous adenosine is "
        "recommended.",
        "Bleeding scores should not be used on their own to decide whether to start "
        "anticoagulation.",
    ],
)
def test_a_short_piece_about_a_pronoun_is_no_concept(lexicon, text):
    # "took them", "if they fail", "on their own": the pronoun stands for something the row
    # names elsewhere; the piece around it names nothing of its own
    result = extract(lexicon, text)
    assert not [c.text for c in result.concepts if c.text.split()[-1] in {"them", "fail", "own"}]


def test_a_drug_taken_as_tolerated_names_no_criterion(lexicon):
    # "if it is tolerated": how the dose is raised, no state of the patients
    result = extract(
        lexicon, "Ramipril should be up-titrated to the target dose if it is tolerated."
    )
    assert not [c for c in result.concepts if "tolerated" in c.text], result.concepts


def test_a_drug_the_patients_cannot_take_stays_a_criterion(lexicon):
    # "who cannot tolerate them": intolerance is a criterion, whatever "them" stands for
    result = extract(
        lexicon,
        "Ivabradine should be considered in patients on beta-blockers who cannot tolerate them.",
    )
    assert [c for c in result.concepts if "tolerate" in c.text], result.concepts


def test_a_group_named_with_a_possessive_keeps_the_group(lexicon):
    # "their relatives": the relatives, whoever they belong to
    result = named(extract(lexicon, "Patients and their relatives should be offered counselling."))
    assert "relative" in result or "relatives" in result, result


@pytest.mark.parametrize(
    ("text", "therapy", "months"),
    [
        (
            "CRT is recommended in patients whose LVEF is ≤35% despite ≥3 months of "
            "guideline-directed medical therapy.",
            "guideline-directed medical therapy",
            3.0,
        ),
        (
            "Ablation should be considered for AF that keeps recurring despite at least 2 months "
            "of amiodarone.",
            "amiodarone",
            2.0,
        ),
        (
            "An ICD is indicated for an LVEF ≤30% persisting after 6 months or more of "
            "beta-blocker therapy.",
            "beta-blocker therapy",
            6.0,
        ),
        (
            "CRT should be considered in patients remaining symptomatic after 3 months of "
            "optimal medical therapy.",
            "optimal medical therapy",
            3.0,
        ),
    ],
    ids=["despite a symbol", "despite at least", "a state persisting", "remaining"],
)
def test_how_long_a_state_held_on_through_a_therapy(lexicon, text, therapy, months):
    # "despite ≥3 months of X": the state held on through X given that long; how long X was
    # given is a criterion of the patients, like "after 4–8 weeks of X" when a state persists
    result = named(extract(lexicon, text))
    lasted = result[f"duration of {therapy}"]
    assert (lasted.operator, lasted.threshold, lasted.unit) == (">=", months, "months"), lasted


def test_a_dotted_route_is_part_of_what_a_time_is_of(lexicon):
    # "i.v. treatment": the full stops of an abbreviation end no phrase
    result = named(
        extract(
            lexicon, "Oral antibiotics may follow after ≥10 days of i.v. treatment when stable."
        )
    )
    assert not [n for n in result if n.startswith("duration of i")], result
