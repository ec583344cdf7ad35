"""Guards from the review of the fifty-second session's rules: each sentence is one the first
version of a rule read worse than the code before it (a bare number taken for an age, a time
taken for how long an unrelated value held, a rewrite that split a word, a concession taken
for a time), in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "sentence",
    [
        # a bracketed bare value after a state bounds the state's measure, not an age
        "In patients with obesity (>30), weight reduction is recommended.",
        # a sign before a bare number may bound a score
        "In patients <24 on the MoCA, a cognitive assessment is recommended.",
    ],
)
def test_a_bare_number_in_symbols_is_no_age(lexicon, sentence):
    assert "age" not in named(extract(lexicon, sentence))


@pytest.mark.parametrize(
    ("sentence", "wrong"),
    [
        # the time is how long the episodes lasted, not the score
        (
            "Anticoagulation is recommended with CHA2DS2-VASc ≥2 and one or more AF episodes "
            "lasting >24 h.",
            "cha2ds2-vasc duration",
        ),
        # a QRS width said in ms lasting months is not a QRS duration in months
        (
            "CRT should be considered in patients with QRS ≥130 ms lasting more than 3 months.",
            "qrs duration",
        ),
        # "persisting 90 min after fibrinolysis" is a time since, no bound on how long
        (
            "Urgent angiography is recommended in patients with ST elevation ≥1 mm persisting "
            "90 min after fibrinolysis.",
            "st elevation duration",
        ),
    ],
)
def test_a_time_after_another_value_is_no_duration_of_it(lexicon, sentence, wrong):
    assert wrong not in named(extract(lexicon, sentence))


def test_a_verb_leading_into_a_target_stays_out_of_the_act(lexicon):
    result = extract(
        lexicon, "Drug therapy to bring BP to <140/90 mmHg is recommended in hypertension."
    )
    assert "drug therapy" in [a.normalized for a in result.actions], result.actions


@pytest.mark.parametrize(
    ("sentence", "kept", "never"),
    [
        # a manner of treatment, no drug: the patients' state stays
        (
            "In conservatively-treated patients with NSTE-ACS, a stress test is recommended.",
            "conservatively",
            "patients on",
        ),
        # a drug not given: the rewrite must not cut the word
        (
            "Annual renal tests are recommended in non-warfarin-treated patients with AF.",
            "non-warfarin",
            "non-patients",
        ),
        # a hyphenated drug name is taken whole
        (
            "Beta-blockers should be continued in beta-blocker-treated patients undergoing "
            "surgery.",
            "beta-blocker",
            "beta-patients",
        ),
    ],
)
def test_treated_patients_keep_the_whole_word(lexicon, sentence, kept, never):
    names = " | ".join(named(extract(lexicon, sentence)))
    assert kept in names and never not in names, names


def test_a_concession_is_no_time_the_row_holds_in(lexicon):
    # "While statins are first-line, …" grants a point; it sets no condition of the patients.
    result = named(
        extract(
            lexicon,
            "While statins are the first-line therapy, ezetimibe should be considered in "
            "patients intolerant of statins.",
        )
    )
    assert not any("first-line" in name for name in result), result


def test_a_velocity_a_year_after_an_event_is_no_yearly_rate(lexicon):
    result = extract(
        lexicon, "Surgery may be considered if Vmax exceeds 5.5 m/s a year after diagnosis."
    )
    assert [c.unit for c in result.concepts if c.threshold == 5.5] == ["m/s"], result.concepts


def test_a_normal_maintenance_rate_is_no_multiple_of_normal(lexicon):
    result = extract(
        lexicon,
        "Normal saline at 2 × normal maintenance rate is recommended in patients at risk of "
        "contrast nephropathy.",
    )
    assert not any(c.unit == "× ULN" for c in result.concepts), result.concepts


def test_of_any_age_group_goes_whole(lexicon):
    result = named(
        extract(
            lexicon, "In patients of any age group with symptomatic severe AS, TAVI is recommended."
        )
    )
    assert "group" not in result, result


@pytest.mark.parametrize(
    ("sentence", "act", "polarity"),
    [
        # "not a suitable option" inside the patients' clause is their state
        (
            "In patients for whom surgery is not a suitable option, TAVI is recommended.",
            "transcatheter aortic valve implantation",
            "recommended",
        ),
        # ... and "the recommended default" inside it no verb of the row
        (
            "In patients for whom radial access is the recommended default, ulnar access "
            "should not be used.",
            "ulnar access",
            "not recommended",
        ),
    ],
)
def test_a_choice_said_in_the_patients_clause_is_not_the_rows_verb(
    lexicon, sentence, act, polarity
):
    result = extract(lexicon, sentence)
    assert [(a.normalized, a.polarity) for a in result.actions] == [(act, polarity)], result


def test_what_the_place_of_care_has_is_no_criterion(lexicon):
    # "in centres with expertise in cardiomyopathy": which place, not a state of the patients
    result = named(
        extract(
            lexicon,
            "Patients with HCM should be followed in centres with expertise in cardiomyopathy.",
        )
    )
    assert not any(name.startswith("expertise") for name in result), result


def test_a_concession_opening_the_row_names_nothing(lexicon):
    # "While several X are effective for Y, it is recommended that Z": the concession grants
    # a point about other acts; only Z is the row's.
    result = extract(
        lexicon,
        "While several walking programmes are effective for fitness, it is recommended that "
        "a supervised programme is maintained over time.",
    )
    names = [c.normalized for c in result.concepts]
    assert not any("walking" in name or "fitness" in name for name in names), names


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        # "while" with a criterion after it is no concession: the therapy the patients are on,
        # the value that holds, stay (a third review's guards)
        (
            "While patients are on OAC, concomitant NSAIDs should be avoided.",
            "oral anticoagulant",
        ),
        (
            "While LVEF remains ≤35%, a wearable cardioverter defibrillator may be considered.",
            "left ventricular ejection fraction",
        ),
        # a concession whose list goes on past its first comma is left whole
        (
            "While statins are recommended for AF, HF and CKD, in patients with ACS "
            "high-intensity statins are recommended.",
            "atrial fibrillation",
        ),
    ],
)
def test_a_while_clause_that_names_a_criterion_stays(lexicon, sentence, kept):
    assert kept in named(extract(lexicon, sentence))


def test_the_choice_as_the_rows_subject_keeps_its_verb(lexicon):
    # "the decision between PCI and CABG should be based on X": the decision is the row's
    # act, not a weighing said beside it.
    result = extract(
        lexicon,
        "In patients with multivessel CAD, the decision between PCI and CABG should be based "
        "on the SYNTAX score.",
    )
    assert result.actions, result.concepts


@pytest.mark.parametrize(
    ("sentence", "never"),
    [
        (
            "Patients with HCM should be followed in expert centres, especially those with LVOT "
            "obstruction.",
            "especially",
        ),
        (
            "Patients with ACHD should be followed in specialist centres by cardiologists with "
            "experience in ACHD.",
            "cardiologist",
        ),
    ],
)
def test_what_follows_the_place_of_care_is_no_act(lexicon, sentence, never):
    result = extract(lexicon, sentence)
    assert not any(never in c.normalized for c in result.concepts), result.concepts
