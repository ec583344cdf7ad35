"""When and how a value or a sign is taken, read by rule in the team's own sentences: the
circumstance of a measurement ("at rest", "during exercise") and the symptoms a functional
class grades are part of what is measured, not states of their own.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.measurements import find_measurements
from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "parameter"),
    [
        (
            "Right heart catheterisation is recommended to confirm a raised pulmonary "
            "pressure (mean pulmonary arterial pressure >20 mmHg at rest).",
            "mean pulmonary arterial pressure",
        ),
        (
            "Septal reduction should be considered in patients whose outflow gradient "
            "reaches 50 mmHg or more during exercise despite drug therapy.",
            "outflow gradient",
        ),
    ],
)
def test_the_circumstance_of_a_value_is_no_state(  # type: ignore[no-untyped-def]
    lexicon, text: str, parameter: str
) -> None:
    """ "X >20 mmHg at rest": "at rest" says when the value is taken. Before, it was read as a
    Condition of its own ("at rest") beside the parameter."""
    found = named(extract(lexicon, text))
    assert found[parameter].role == "ClinicalParameter", found
    assert not [n for n in found if "rest" in n.split() or n == "exercise"], found


def test_a_sign_seen_at_rest_or_on_exercise_is_the_sign(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "cyanosis at rest or during exercise": either way it is the one sign; before, the
    exercise became a Procedure grouped with the sign as alternatives."""
    found = named(
        extract(
            lexicon,
            "Closure of the residual shunt is recommended in patients with cyanosis at rest "
            "or during exercise.",
        )
    )
    assert found["cyanosis"].role == "Condition" and found["cyanosis"].or_group is None, found
    assert "exercise" not in found, found


def test_a_test_done_during_exercise_keeps_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The circumstance goes only after a value or in "at rest or during exercise": a test
    named by when it is done ("echocardiography during exercise") is still that test."""
    found = named(
        extract(
            lexicon,
            "Echocardiography during exercise is recommended in patients with exertional "
            "breathlessness and a normal resting study.",
        )
    )
    assert found["echocardiography during exercise"].role == "Procedure", found


def test_the_symptoms_a_functional_class_grades_are_the_class() -> None:
    """ "NYHA class II–III symptoms": the class is the grade of the symptoms, so the span runs
    over the word and no separate "symptoms" state is left beside it."""
    text = "in patients with heart failure and NYHA class II–III symptoms despite therapy"
    (m,) = find_measurements(text)
    assert (m.operator, m.threshold) == ("between", [2.0, 3.0])
    assert text[m.start : m.end].endswith("symptoms")


def test_no_symptom_state_is_left_beside_a_graded_class(lexicon) -> None:  # type: ignore[no-untyped-def]
    found = named(
        extract(
            lexicon,
            "An aldosterone antagonist is recommended in patients with heart failure and NYHA "
            "class II–III symptoms to reduce mortality.",
        )
    )
    assert found["new york heart association class"].role == "ClinicalParameter", found
    assert "symptom" not in found, found


@pytest.mark.parametrize(
    ("text", "state", "with_it"),
    [
        (
            "Electrical cardioversion is recommended in atrial flutter with haemodynamic "
            "compromise.",
            "atrial flutter",
            "haemodynamic compromise",
        ),
        (
            "Valve repair should be considered in heart failure with moderate or severe "
            "tricuspid regurgitation.",
            "heart failure",
            "moderate or severe tricuspid regurgitation",
        ),
    ],
)
def test_a_state_with_another_after_in_is_two_conditions(  # type: ignore[no-untyped-def]
    lexicon, text: str, state: str, with_it: str
) -> None:
    """ "in X with Y" after the act names the patients as "for X with Y" and "in patients
    with X and Y" do: two conditions, and a grade range after "with" stays one. Before, the
    whole was one condition, or the range was cut in two ("heart failure with moderate")."""
    found = named(extract(lexicon, text))
    assert found[state].role == "Condition", found
    assert found[with_it].role == "Condition", found
    assert found[with_it].or_group is None


def test_a_named_kind_of_a_disease_keeps_its_with(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "HF with reduced ejection fraction" is one disease: its "with" names its kind."""
    found = named(
        extract(lexicon, "Drug Z is recommended in heart failure with reduced ejection fraction.")
    )
    assert "heart failure with reduced ejection fraction" in found, found
