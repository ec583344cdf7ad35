"""When a state comes about, said with it: in a posture ("collapse while standing up", "an
episode when lying flat") or with effort ("breathlessness during exertion"). The words name
the state the patient has, they are no separate finding and no time of the act. Read by rule,
in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Tilt testing is recommended when fainting happens while standing still.",
            "fainting while standing still",
        ),
        (
            "Admission is advised for patients whose collapse occurred while lying flat.",
            "collapse while lying flat",
        ),
        (
            "Ambulatory monitoring is recommended for palpitations when supine.",
            "palpitations when supine",
        ),
        (
            "Tilt testing is recommended for dizziness when standing upright.",
            "dizziness when standing upright",
        ),
        (
            "Tilt testing should be considered for syncope that occurs while standing up.",
            "syncope while standing up",
        ),
    ],
    ids=["while standing", "occurred while lying", "when supine", "upright", "that occurs"],
)
def test_a_posture_a_state_comes_in_stays_in_its_name(lexicon, text, state):
    # A faint that happens while standing is a different finding from a faint: the posture
    # says which episode the row means, so the words stay with the state and no "standing"
    # or "lying flat" is left as a condition of its own; the verb that only says the state
    # came about is no part of the name.
    result = named(extract(lexicon, text))
    conditions = {n for n, c in result.items() if c.role == "Condition"}
    assert state in conditions, result
    assert not conditions & {"standing still", "lying flat", "supine", "standing"}, result


def test_an_activity_done_in_a_posture_is_one_act(lexicon):
    # Exercising on one's back is the act the row advises against, not exercise and a
    # separate state of lying down.
    result = named(
        extract(lexicon, "Exercising while lying on the back is not recommended in late pregnancy.")
    )
    assert "exercising while lying on the back" in result, result
    assert result["exercising while lying on the back"].role == "Procedure", result


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Bedtime dosing of antihypertensives should be considered when supine hypertension "
            "is present.",
            "supine hypertension",
        ),
        (
            "Fludrocortisone may be considered in orthostatic hypotension while supine "
            "hypertension is absent.",
            "supine hypertension",
        ),
    ],
    ids=["when", "while, negated"],
)
def test_a_posture_word_that_names_a_state_still_opens_a_case(lexicon, text, state):
    # "supine hypertension" is a state of its own: the case opens as before, and its state
    # is named without "when" or "while" (and negated when the clause says it is absent).
    result = named(extract(lexicon, text))
    assert state in result, result
    assert result[state].negated == ("absent" in text), result


def test_an_activity_the_patient_is_busy_with_still_opens_its_own_case(lexicon):
    # "while driving" is no posture: the row names the palpitations and, apart, when they
    # come, as before.
    result = named(
        extract(lexicon, "Beta-blockers are recommended when palpitations develop while driving.")
    )
    assert "palpitation" in result, result
    assert not [n for n in result if "while" in n], result


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Admission is recommended for patients with collapse during exertion.", "collapse"),
        ("Beta-blockers are recommended in patients with angina during exercise.", "angina"),
        ("Urgent review is advised for chest tightness during effort.", "chest tightness"),
        ("Nitrates are recommended for angina occurring during exertion.", "angina"),
    ],
    ids=["exertion", "exercise", "effort", "occurring"],
)
def test_a_state_that_comes_with_effort_keeps_it_in_its_name(lexicon, text, state):
    # Angina that comes on during exercise is the finding the row is about; the effort is not
    # a second condition ("exercise" is no state of the patient, nor an act the row advises).
    result = named(extract(lexicon, text))
    assert f"{state} during {text.split(' during ')[1].rstrip('.')}" in result, result
    assert not {"exercise", "exertion", "effort"} & set(result), result


@pytest.mark.parametrize(
    "ability",
    ["the ability to raise EF by 10% during exercise", "the ability to raise EF during exercise"],
    ids=["with a value", "without a value"],
)
def test_an_aim_reached_during_exercise_keeps_its_own_reading(lexicon, ability):
    # After anything but a symptom, "during exercise" says when (here when EF is raised);
    # the items listed after it are still states of the patients, not aims.
    result = named(
        extract(
            lexicon,
            "Sport may be considered in athletes who fulfil all of the following: (i) normal LV "
            f"size; (ii) {ability}; and (iii) no sign of a risky genotype (lamin A/C or "
            "filamin C).",
        )
    )
    assert result["lamin a/c"].role == "Condition", result
    assert result["sign of a risky genotype"].role == "Condition", result


@pytest.mark.parametrize(
    "text",
    [
        "Beta-blockers are recommended to control heart rate during exercise.",
        "Cooling vests may be considered to prevent overheating during exertion.",
    ],
)
def test_an_aim_reached_during_exercise_names_no_act(lexicon, text):
    # When the aim is reached is no second act: no "exercise" or "exertion" of its own.
    result = named(extract(lexicon, text))
    assert not {"exercise", "exertion"} & set(result), result


def test_a_relative_clause_before_another_time_word_is_left_as_it_was(lexicon):
    # "that occurs" joins the state only before "during / while / when"; before "on" the
    # relative word stays a clause boundary, and no "that on" is left inside a name.
    result = named(extract(lexicon, "Pacing is recommended in AV block that occurs on exertion."))
    assert not [n for n in result if " that " in f" {n} "], result
