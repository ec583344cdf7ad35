"""Words that say what a more usual word says ("ought to" for "should", "on condition that"
for "provided"), clauses that say the advice holds either way (", smokers or not,", "no
matter the X"), and a sentence after the advice that tells what the act does ("; it lowers
X"). None of them names a criterion. And a result said after its test ("ultrasound is
negative", "troponin has normalised"), named with the result first; "the exceptions being"
read as "except"; "each" before a dose. Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_ought_to_recommends_as_should_does(lexicon):
    # "ought to" is a modal like "should": the patients before it are whom the act is for,
    # not part of a drug's name.
    result = named(extract(lexicon, "Patients with stable angina ought to receive a statin."))
    assert result["stable angina"].role == "Condition", result
    assert result["statin"].role == "Medication", result
    refused = extract(lexicon, "Aspirin ought not to be given in late pregnancy.")
    assert [a.normalized for a in refused.actions] == ["aspirin"], refused
    assert named(refused)["late pregnancy"].role == "Condition", refused


def test_on_condition_that_is_a_proviso(lexicon):
    # The proviso's value is a criterion; the word "condition" in its lead names nothing.
    result = named(
        extract(
            lexicon,
            "Renal denervation may be offered for resistant hypertension, on condition that "
            "eGFR exceeds 40 mL/min.",
        )
    )
    assert "condition" not in result, result
    assert result["estimated glomerular filtration rate"].threshold == 40.0, result


@pytest.mark.parametrize(
    "text",
    [
        "A statin should be started, diabetic or not, in patients with stable angina.",
        "A statin is recommended, no matter the cholesterol level or the other drugs in use, "
        "in stable angina.",
    ],
    ids=["or not", "no matter"],
)
def test_what_does_not_matter_is_no_criterion(lexicon, text):
    # Advice that holds whatever the patients' diabetes or cholesterol says nothing of them:
    # the clause adds no condition and leaves nothing negated.
    result = named(extract(lexicon, text))
    assert set(result) == {"statin", "stable angina"}, result
    assert not result["stable angina"].negated, result


def test_what_the_act_does_told_after_a_semicolon_is_no_criterion(lexicon):
    # "; they ease symptoms and raise exercise capacity" says why the drug is advised, as
    # "as they ease ..." would; the effects are no conditions of the patients.
    result = named(
        extract(
            lexicon,
            "Beta-blockers are advised in stable angina; they reduce symptoms and improve "
            "exercise capacity.",
        )
    )
    assert set(result) == {"beta-blocker", "stable angina"}, result


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "LAA occlusion may be considered in AF; it lowers stroke risk only in patients "
            "with a CHA2DS2-VASc score of 2 or more.",
            "cha2ds2-vasc score",
        ),
        (
            "Colchicine may be considered after MI; it reduces events but should be avoided "
            "in patients with eGFR <30 mL/min.",
            "estimated glomerular filtration rate",
        ),
    ],
    ids=["only in", "but should"],
)
def test_a_remark_that_goes_on_to_name_patients_is_kept(lexicon, text, kept):
    # A sentence after the semicolon that says whom the advice holds for, or advises more,
    # is no bare remark: its criterion stays.
    assert kept in named(extract(lexicon, text))


def test_a_condition_named_as_a_noun_is_no_proviso(lexicon):
    # "the condition that caused the shock" names a state; only a clause's lead is a proviso.
    result = named(
        extract(lexicon, "Treatment should be based on the condition that caused the shock.")
    )
    assert "condition that caused the shock" in result, result


@pytest.mark.parametrize(
    ("text", "state", "negated"),
    [
        (
            "If leg ultrasound is negative, venography should be considered.",
            "negative leg ultrasound",
            False,
        ),
        (
            "Calcium antagonists are not advised unless vasoreactivity testing has been positive.",
            "positive vasoreactivity testing",
            True,
        ),
        (
            "Return to sport is reasonable once troponin has normalised.",
            "normalised troponin",
            False,
        ),
    ],
    ids=["is negative", "has been positive", "has normalised"],
)
def test_a_result_said_after_its_test_names_the_state(lexicon, text, state, negated):
    # "ultrasound is negative" is a negative ultrasound, "troponin has normalised" a
    # normalised troponin: the state named as the golds name it, the result first.
    result = named(extract(lexicon, text))
    assert result[state].role == "Condition", result
    assert result[state].negated is negated, result


def test_the_size_of_an_effect_is_part_of_the_remark(lexicon):
    # "; it reduces mortality by 30%" is still a remark: the number sizes the effect.
    result = named(
        extract(
            lexicon,
            "Spironolactone is recommended in patients with HFrEF; it reduces mortality by 30%.",
        )
    )
    assert not [n for n in result if "mortality" in n], result


def test_on_condition_that_without_a_comma_is_a_proviso(lexicon):
    result = extract(
        lexicon, "Anticoagulation may be resumed on condition that bleeding has stopped."
    )
    assert [a.normalized for a in result.actions] == ["anticoagulation"], result.actions


def test_a_comparator_of_no_treatment_names_nothing_negated(lexicon):
    # "compared with no treatment": the comparison is with nothing given; no state is lacked.
    result = extract(lexicon, "An ARNI is recommended compared with no treatment in HFrEF.")
    assert not [c for c in result.concepts if c.negated or c.normalized == "compared"], (
        result.concepts
    )


def test_the_exceptions_being_is_except(lexicon):
    # ", the exceptions being patients with X or Y" says what "except in patients with X or
    # Y" says: X and Y negated, one OR label, no concept of the words themselves.
    result = named(
        extract(
            lexicon,
            "Catheter ablation should be offered in flutter, the exceptions being patients with "
            "a left atrial thrombus or with severe frailty.",
        )
    )
    assert result["left atrial thrombus"].negated and result["severe frailty"].negated, result
    assert not [n for n in result if "exception" in n], result


def test_each_before_a_dose_names_no_drug(lexicon):
    # "(each 10 mg once daily)": the dose of each drug named before; "each" names nothing.
    result = named(
        extract(
            lexicon,
            "Dapagliflozin or empagliflozin (each 10 mg once daily) is recommended in HFrEF.",
        )
    )
    assert "each" not in result, result
