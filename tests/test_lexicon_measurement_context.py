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


@pytest.mark.parametrize("joined", ["or", "and/or"])
def test_a_sign_seen_at_rest_or_on_exercise_is_the_sign(lexicon, joined: str) -> None:  # type: ignore[no-untyped-def]
    """ "cyanosis at rest or during exercise": either way it is the one sign; before, the
    exercise became a Procedure grouped with the sign as alternatives."""
    found = named(
        extract(
            lexicon,
            "Closure of the residual shunt is recommended in patients with cyanosis at rest "
            f"{joined} during exercise.",
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
    """The same in a whole row: the class, and no "symptom" Condition beside it."""
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


def test_a_value_said_again_after_a_comma_or_is_its_second_unit() -> None:
    """ "above 180 mg/dL, or 430 nmol/L": the same value converted, one parameter with an
    alternative value; before, the second number was read as a value of its own."""
    (m,) = find_measurements("a very high level (above 180 mg/dL, or 430 nmol/L)")
    assert (m.operator, m.threshold, m.unit) == (">", 180.0, "mg/dL")
    assert m.alt_values == [{"threshold": 430.0, "unit": "nmol/L"}]
    # a second value in the same unit is another value
    assert len(find_measurements("LDL-C <1.4 mmol/L, or <1.8 mmol/L in others")) == 2


def test_a_thing_or_a_state_older_than_a_number_keeps_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Only a bare number after "older than" is the patients' age: "a bioprosthesis older
    than 10 years" is the prosthesis's, and "heart failure patients older than 65 years"
    keep their heart failure."""
    found = named(
        extract(lexicon, "Drug X is recommended in heart failure patients older than 65 years.")
    )
    assert found["heart failure"].role == "Condition", found
    assert found["age"].text == "older than 65 years", found
    found = named(
        extract(
            lexicon, "Yearly echocardiography is advised for a bioprosthesis older than 10 years."
        )
    )
    assert "age" not in found, found


def test_older_than_a_number_is_an_age(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "people older than 40": older says the number is an age, counted in years though no
    unit is written (the golds' reading since written12); before, "older than 40" was read as
    a Condition."""
    found = named(
        extract(
            lexicon,
            "For people older than 45 with frequent fainting, a loop recorder should be "
            "considered.",
        )
    )
    age = found["age"]
    assert (age.role, age.operator, age.threshold, age.unit) == (
        "ClinicalParameter",
        ">",
        45.0,
        "years",
    )


@pytest.mark.parametrize(
    ("text", "state", "value"),
    [
        (
            "Weight reduction is recommended in patients with obesity (≥30 kg/m2).",
            "obesity",
            "≥30 kg/m2",
        ),
        (
            "Apheresis may be considered in patients with very high lipoprotein(a) levels "
            "(above 180 mg/dL, or 430 nmol/L).",
            "very high lipoprotein(a) level",
            "above 180 mg/dL, or 430 nmol/L",
        ),
    ],
)
def test_a_bound_in_brackets_after_a_state_is_a_parameter(  # type: ignore[no-untyped-def]
    lexicon, text: str, state: str, value: str
) -> None:
    """ "obesity (≥30 kg/m2)": the bracket bounds the quantity the state is defined by, a
    criterion (a ClinicalParameter, named by the state without its grade); the state stays
    a Condition. Before, the value alone was read as a Condition named "≥30 kg/m2"."""
    result = extract(lexicon, text)
    found = named(result)
    assert found[state].role == "Condition", found
    (parameter,) = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert parameter.text == value
    assert not [c for c in result.concepts if c.role == "Condition" and c.text == value]


def test_a_letter_glued_to_a_name_is_part_of_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Lp(a)" is lipoprotein(a): the bracketed letter is part of the name, not a dosing
    note, an aside or a note of the abbreviation list to drop (before, the concept came out
    as "lipoprotein"), and a value after it is lipoprotein(a)'s."""
    found = named(
        extract(
            lexicon, "Measuring Lp(a) once should be considered in adults with a family history."
        )
    )
    assert any("lipoprotein(a)" in name for name in found), found
    found = named(extract(lexicon, "Apheresis may be considered in patients with Lp(a) >60 mg/dL."))
    value = found["lipoprotein(a)"]
    assert (value.role, value.operator, value.threshold) == ("ClinicalParameter", ">", 60.0)


def test_a_percentage_after_a_comma_or_is_another_quantity() -> None:
    """ "heart rate >100 bpm, or 30% above baseline": a percentage is no second unit of a
    rate, so it is not read as the same value converted."""
    first = find_measurements("a heart rate >100 bpm, or 30% above baseline")[0]
    assert first.alt_values == []


@pytest.mark.parametrize(
    ("text", "event"),
    [
        (
            "A defibrillator vest may be considered within 40 days of an MI.",
            "myocardial infarction",
        ),
        (
            "Anticoagulation should be withheld in the first 14 days after a large stroke.",
            "large stroke",
        ),
        ("Antibiotic cover is advised within 1 h of skin incision.", None),
        ("Primary PCI is advised within 12 h of symptom onset.", None),
    ],
)
def test_a_window_counted_from_a_disease_names_the_disease(  # type: ignore[no-untyped-def]
    lexicon, text: str, event: str | None
) -> None:
    """ "within 40 days of an MI": the time since the MI is the criterion, and the MI the
    patients had is a condition of its own (as "5 days after MI" already kept it); a window
    counted from an act or a moment ("skin incision", "symptom onset") names only the time."""
    found = named(extract(lexicon, text))
    windows = [c for c in found.values() if c.normalized.startswith("time since")]
    assert len(windows) == 1, found
    conditions = [name for name, c in found.items() if c.role == "Condition"]
    assert conditions == ([event] if event else []), found


@pytest.mark.parametrize(
    "text,name",
    [
        (
            "Carotid stenting may be considered provided the procedural risk of stroke or death "
            "is below 4%.",
            "procedural risk of stroke or death",
        ),
        (
            "Surgery is recommended where the 30-day rate of death or MI stays under 2%.",
            "30-day rate of death or myocardial infarction",
        ),
    ],
)
def test_a_rate_of_either_of_two_events_is_one_quantity(lexicon, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """ "the risk of stroke or death is below 4%": one rate of either event, one parameter;
    before, the "or" split it into a condition "risk of stroke" and a parameter "death"."""
    found = named(extract(lexicon, text))
    assert found[name].role == "ClinicalParameter" and found[name].operator == "<", found
    assert "death" not in found or found["death"].role != "ClinicalParameter", found


def test_a_risk_of_an_event_or_a_measured_quantity_stays_two_criteria(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "a high risk of bleeding or an LVEF below 30%": the LVEF is a quantity of its
    own, no second event of one rate."""
    found = named(
        extract(lexicon, "An ICD is advised for people with a high risk of bleeding or LVEF <30%.")
    )
    assert found["left ventricular ejection fraction"].threshold == 30.0, found
