"""The measurement grammar shared by extraction, grounding and patient values.

Each case is a sentence the team wrote to reproduce a way guideline tables write a criterion.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.measurements import canonical_unit, find_measurements, parse_value


def _one(text: str):
    (m,) = find_measurements(text)
    return m.span(text), m.name, m.operator, m.threshold, m.unit


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # symbols, name and value as one span
        ("Pacing is advised when LVEF ≤35% persists", ("LVEF ≤35%", "LVEF", "<=", 35.0, "%")),
        # words before the value
        (
            "a sodium of at least 135 mmol/L",
            ("sodium of at least 135 mmol/L", "sodium", ">=", 135.0, "mmol/L"),
        ),
        ("a QRS exceeding 150 ms", ("QRS exceeding 150 ms", "QRS", ">", 150.0, "ms")),
        # "at or above" / "at or below": the bound included (before, "above" / "below" alone
        # was read, > / <, and "at or" went into the name)
        (
            "while the clinic pressure stays at or above 150/95 mmHg",
            (
                "clinic pressure stays at or above 150/95 mmHg",
                "clinic pressure",
                ">=",
                "150/95",
                "mmHg",
            ),
        ),
        (
            "an ejection fraction at or below 30%",
            ("ejection fraction at or below 30%", "ejection fraction", "<=", 30.0, "%"),
        ),
        (
            "a heart rate under 50 b.p.m. at rest",
            ("heart rate under 50 b.p.m.", "heart rate", "<", 50.0, "bpm"),
        ),
        # words after the value
        (
            "an ejection fraction of 40% or less",
            ("ejection fraction of 40% or less", "ejection fraction", "<=", 40.0, "%"),
        ),
        (
            "a ferritin of 100 ng/mL or more",
            ("ferritin of 100 ng/mL or more", "ferritin", ">=", 100.0, "ng/mL"),
        ),
        # ranges: any dash, "to", "between ... and", an operator before a range
        (
            "an ejection fraction of 41–49%",
            ("ejection fraction of 41–49%", "ejection fraction", "between", [41.0, 49.0], "%"),
        ),
        (
            "a gradient between 20 and 40 mmHg",
            ("gradient between 20 and 40 mmHg", "gradient", "between", [20.0, 40.0], "mmHg"),
        ),
        ("a risk of 5 to 10%", ("risk of 5 to 10%", "risk", "between", [5.0, 10.0], "%")),
        (
            "an estimated risk > 5%–15%",
            ("estimated risk > 5%–15%", "estimated risk", "between", [5.0, 15.0], "%"),
        ),
        # paired blood pressure: one threshold
        (
            "an office pressure of 140/90 mmHg or higher",
            ("office pressure of 140/90 mmHg or higher", "office pressure", ">=", "140/90", "mmHg"),
        ),
        # units guideline tables use
        (
            "an eGFR <30 mL/min/1.73 m2",
            ("eGFR <30 mL/min/1.73 m2", "eGFR", "<", 30.0, "mL/min/1.73 m²"),
        ),
        ("a BMI ≥40 kg/m2", ("BMI ≥40 kg/m2", "BMI", ">=", 40.0, "kg/m²")),
        ("a peak velocity ≥4 m/s", ("peak velocity ≥4 m/s", "peak velocity", ">=", 4.0, "m/s")),
        (
            "an aortic valve area <1 cm2",
            ("aortic valve area <1 cm2", "aortic valve area", "<", 1.0, "cm²"),
        ),
        ("transaminases >3 × ULN", ("transaminases >3 × ULN", "transaminases", ">", 3.0, "× ULN")),
        # heparin activity is measured in IU per millilitre
        (
            "a trough anti-Xa level below 0.5 IU/mL",
            ("trough anti-Xa level below 0.5 IU/mL", "trough anti-Xa", "<", 0.5, "IU/mL"),
        ),
        # a multiple of the patient's own reference value is the unit, not a separate thing
        (
            "a clotting time ≥1.5× control",
            ("clotting time ≥1.5× control", "clotting time", ">=", 1.5, "× control"),
        ),
        (
            "a troponin level >2 times baseline",
            ("troponin level >2 times baseline", "troponin", ">", 2.0, "× baseline"),
        ),
        (
            "a platelet count <50 000/µL",
            ("platelet count <50 000/µL", "platelet count", "<", 50000.0, "/µL"),
        ),
        ("troponin above 52 ng/L", ("troponin above 52 ng/L", "troponin", ">", 52.0, "ng/L")),
        ("an NT-proBNP >125 pg/mL", ("NT-proBNP >125 pg/mL", "NT-proBNP", ">", 125.0, "pg/mL")),
        ("a resistance ≥3 Wood units", ("resistance ≥3 Wood units", "resistance", ">=", 3.0, "WU")),
        # a size indexed to height (per metre) is not one indexed to body surface (per m²)
        (
            "a height index >30 mm/m, and",
            ("height index >30 mm/m", "height index", ">", 30.0, "mm/m"),
        ),
        (
            "a size index >30 mm/m2, and",
            ("size index >30 mm/m2", "size index", ">", 30.0, "mm/m²"),
        ),
        # volumes and masses indexed to body surface (imaging indices), not a drug exposure
        (
            "an end-diastolic volume index ≥150 mL/m², and",
            (
                "end-diastolic volume index ≥150 mL/m²",
                "end-diastolic volume index",
                ">=",
                150.0,
                "mL/m²",
            ),
        ),
        (
            "a mass index above 115 g/m2, and",
            ("mass index above 115 g/m2", "mass index", ">", 115.0, "g/m²"),
        ),
        # tissue Doppler velocities and radiation received are criteria with units of their own
        ("an e' velocity <8 cm/s, and", ("e' velocity <8 cm/s", "e' velocity", "<", 8.0, "cm/s")),
        (
            "a mean heart dose of ≥25 Gy, and",
            ("mean heart dose of ≥25 Gy", "mean heart dose", ">=", 25.0, "Gy"),
        ),
    ],
)
def test_one_measurement(text: str, expected: tuple) -> None:
    assert _one(text) == expected


@pytest.mark.parametrize(
    ("text", "operator"),
    [
        ("an ejection fraction no higher than 40%, and", "<="),
        ("a potassium not greater than 5.0 mmol/L, and", "<="),
        ("a haemoglobin no lower than 10 g/dL, and", ">="),
        ("a ferritin no fewer than 100 ng/mL, and", ">="),
        ("a heart rate not higher than 60 b.p.m., and", "<="),
        ("a triglyceride level beneath 2.3 mmol/L, and", "<"),
        ("a sodium not below 135 mmol/L, and", ">="),
        ("a platelet count not under 50 000/µL, and", ">="),
        ("a QTc not above 480 ms, and", "<="),
        ("a heart rate not over 110 b.p.m., and", "<="),
    ],
)
def test_a_bound_said_by_denying_the_other_side(text: str, operator: str) -> None:
    # "no higher than 40%" allows 40% itself: the denied comparison is an inclusive bound of
    # the other side; "beneath" is "below"
    assert _one(text)[2] == operator


def test_a_bound_said_before_its_unit_keeps_the_unit() -> None:
    """ "an eGFR of 30 or more mL/min/1.73 m²": the bound words may come between the value
    and its unit; the unit is still the value's."""
    (m,) = find_measurements("Start the drug with an eGFR of 30 or more mL/min/1.73 m² only.")
    assert (m.name, m.operator, m.threshold, m.unit) == (
        "eGFR",
        ">=",
        30.0,
        "mL/min/1.73 m²",
    )
    assert m.span("Start the drug with an eGFR of 30 or more mL/min/1.73 m² only.").endswith("m²")


def test_a_value_said_again_after_which_corresponds_to_is_its_second_unit() -> None:
    """ ", which corresponds to 70 mg/dL": the same value converted, not a second criterion."""
    (m,) = find_measurements("Aim for LDL-C below 1.8 mmol/L, which corresponds to 70 mg/dL.")
    assert (m.operator, m.threshold, m.unit) == ("<", 1.8, "mmol/L")
    assert m.alt_values == [{"threshold": 70.0, "unit": "mg/dL"}]


def test_a_range_whose_upper_end_is_left_out_is_the_range() -> None:
    """ "a sac of 40–<45 mm": the upper end is excluded as printed; read as the range (the
    contract writes every range inclusive), not as "40–" named and "<45"."""
    (m,) = find_measurements("Imaging is advised for a sac of 40–<45 mm.")
    assert (m.name, m.operator, m.threshold, m.unit) == ("sac", "between", [40.0, 45.0], "mm")


def test_time_window_is_at_most() -> None:
    """ "Within 48 h" and "in the first 7 days" bound a time: <=."""
    for text, value, unit in [
        ("Surgery is advised within 48 h of onset.", 48.0, "h"),
        ("Review is advised in the first 7 days.", 7.0, "days"),
    ]:
        (m,) = find_measurements(text)
        assert (m.operator, m.threshold, m.unit, m.kind) == ("<=", value, unit, "window")


def test_a_time_window_of_a_range_is_a_window_between_its_ends() -> None:
    """ "within 1–2 weeks of discharge" bounds a time on both sides: a window, between its
    ends (the contract writes every range inclusive), whichever dash or "to" joins them."""
    for text in ("A review within 1–2 weeks of discharge.", "A review within 1 to 2 weeks of it."):
        (m,) = find_measurements(text)
        assert (m.operator, m.threshold, m.unit, m.kind) == (
            "between",
            [1.0, 2.0],
            "weeks",
            "window",
        )


def test_the_same_value_in_two_units_is_one_measurement() -> None:
    """A lipid target printed in mmol/L and in mg/dL is one criterion, not an OR."""
    for text in (
        "an LDL-C goal of <1.8 mmol/L (70 mg/dL)",
        "a fasting glucose ≥7.0 mmol/L or ≥126 mg/dL",
    ):
        (m,) = find_measurements(text)
        assert m.unit == "mmol/L"
        assert m.alt_values and m.alt_values[0]["unit"] == "mg/dL"


def test_a_range_in_two_units_is_one_measurement_with_a_range_alt_value() -> None:
    """ "LDL-C 1.8–4.9 mmol/L (70–189 mg/dL)": the bracketed range is the same range in
    mg/dL (the contract's dual units), never a criterion of its own; a bracket that is no
    value in another unit ("(stage 3)") is left alone."""
    (m,) = find_measurements("an LDL-C of 1.8–4.9 mmol/L (70–189 mg/dL)")
    assert (m.operator, m.threshold, m.unit) == ("between", [1.8, 4.9], "mmol/L")
    assert m.alt_values == [{"threshold": [70.0, 189.0], "unit": "mg/dL"}]
    (m,) = find_measurements("an eGFR of 30–59 mL/min/1.73 m2 (stage 3)")
    assert m.alt_values == []


@pytest.mark.parametrize(
    ("text", "operator", "threshold"),
    [
        ("NYHA class II or higher", ">=", 2.0),
        ("modified WHO class II or higher", ">=", 2.0),
        ("mWHO class ≥III", ">=", 3.0),
        ("NYHA class I or II", "between", [1.0, 2.0]),
    ],
)
def test_a_class_with_a_bound_is_a_bound(text: str, operator: str, threshold: object) -> None:
    """ "class II or higher", "class ≥III": every class from that one up, not the class
    alone (women in class III–IV would be silently left out)."""
    (m,) = find_measurements(text)
    assert (m.operator, m.threshold) == (operator, threshold)
    assert m.span(text) == text


def test_a_value_in_brackets_after_a_quantity_is_that_quantitys() -> None:
    """Rows name a quantity and put its threshold in brackets ("an elevated heart rate (>110
    bpm)"): the value belongs to the quantity named before the bracket, one span from the
    name to the closing bracket (with the grade word before the name, which only restates the
    value). A condition defined by a value ("obesity (≥30 kg/m2)") is no quantity and stays
    without the name."""
    assert _one("in patients with an elevated heart rate (>110 bpm) at rest") == (
        "elevated heart rate (>110 bpm)",
        "heart rate",
        ">",
        110.0,
        "bpm",
    )
    (m,) = find_measurements("in patients with obesity (≥30 kg/m2)")
    assert m.name == "" and m.span("in patients with obesity (≥30 kg/m2)") == "≥30 kg/m2"


def test_nyha_classes_are_numbers() -> None:
    (m,) = find_measurements("in patients in NYHA class II–III despite therapy")
    assert (m.operator, m.threshold, m.kind) == ("between", [2.0, 3.0], "class")
    (m,) = find_measurements("symptoms of NYHA class IV")
    assert (m.operator, m.threshold) == ("=", 4.0)


def test_who_classes_are_graded_like_nyha_each_under_its_own_name() -> None:
    """Pulmonary hypertension's WHO functional class is written like NYHA's ("WHO-FC III",
    "WHO functional class II–III") and read the same way; "(m)WHO class III" grades a
    pregnancy's maternal risk, another scale, read as numbers too (the contract's classes)
    under its own name, never as the functional class."""
    (m,) = find_measurements("adults in WHO functional class II–III")
    assert (m.kind, m.operator, m.threshold) == ("class", "between", [2.0, 3.0])
    (m,) = find_measurements("adults in WHO-FC III")
    assert (m.kind, m.threshold) == ("class", 3.0)
    (m,) = find_measurements("women in modified WHO class III")
    assert (m.kind, m.threshold, m.name) == ("class", 3.0, "modified WHO class")
    (m,) = find_measurements("women in mWHO class II–III")
    assert (m.kind, m.operator, m.threshold, m.name) == (
        "class",
        "between",
        [2.0, 3.0],
        "mWHO class",
    )


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold"),
    [
        ("when the LVEF falls to 55% or less", "LVEF", "<=", 55.0),
        ("if the eGFR declines to <30 mL/min/1.73 m2", "eGFR", "<", 30.0),
        ("when the jet velocity increases by 0.5 m/s or more", "jet velocity increases", ">=", 0.5),
    ],
)
def test_a_quantity_that_changes_to_or_by_a_value(text, name, operator, threshold) -> None:  # type: ignore[no-untyped-def]
    """ "falls to 55%": the level the quantity reaches is its value, the verb no part of its
    name; "increases by 0.5 m/s": the change is what is measured, so the verb names it."""
    (m,) = find_measurements(text)
    assert (m.name, m.operator, m.threshold) == (name, operator, threshold)


def test_a_test_showing_a_value_is_no_part_of_its_name() -> None:
    """ "right heart catheterisation showing mPAP >20 mmHg": the quantity is the mPAP, the
    test that shows it is no part of its name."""
    (m,) = find_measurements("by catheterisation showing mPAP >20 mmHg")
    assert (m.name, m.operator, m.threshold) == ("mPAP", ">", 20.0)


def test_doses_are_never_measurements() -> None:
    """A dose fixes what to give, not whom: "75 mg daily", "a 300 mg loading dose",
    "0.5 mg/kg" and "2 g twice daily" are no criteria."""
    for text in (
        "Aspirin 75 mg daily is advised.",
        "A 300 mg loading dose is given.",
        "Heparin 0.5 mg/kg is given.",
        "Omega-3 acids (2 g twice daily) are considered.",
        "Aspirin 75–100 mg o.d. is advised.",
    ):
        assert find_measurements(text) == [], text


def test_age_and_leading_verbs() -> None:
    (m,) = find_measurements("in patients aged ≥75 years")
    assert (m.operator, m.threshold, m.unit) == (">=", 75.0, "years")
    (m,) = find_measurements("it is advised to control the pressure at <130/80 mmHg")
    assert m.name == "the pressure" or m.name == "pressure"
    assert m.threshold == "130/80"


def test_units_and_values() -> None:
    assert canonical_unit("mm Hg") == "mmHg"
    assert canonical_unit("beats per minute") == "bpm"
    assert canonical_unit("mg/dl") == "mg/dL"
    assert parse_value("≤ 35%") == ("<=", 35.0, "%")
    assert parse_value("140/90 mmHg") == ("=", "140/90", "mmHg")


def test_a_risk_of_an_event_names_the_measured_quantity() -> None:
    """ "A 10-year risk of stroke of 4%": the value measures the risk of the event over the
    horizon written before it, not the event itself."""
    (m,) = find_measurements("Those with a 10-year risk of stroke of 4% or more are treated.")
    assert (m.name, m.operator, m.threshold, m.unit) == ("10-year risk of stroke", ">=", 4.0, "%")
    (m,) = find_measurements("an estimated risk of bleeding >3%")
    assert m.name == "estimated risk of bleeding"
    (m,) = find_measurements("in adults with an LDL-C of 3 mmol/L or more")
    assert m.name == "LDL-C"


def test_a_bound_after_the_second_unit_bounds_both_values() -> None:
    """ "1.8 mmol/L (70 mg/dL) or more": the words after the bracket bound the value in both
    units, one parameter."""
    (m,) = find_measurements("in adults with an LDL-C of 3.0 mmol/L (116 mg/dL) or more")
    assert (m.operator, m.threshold, m.unit) == (">=", 3.0, "mmol/L")
    assert m.alt_values == [{"threshold": 116.0, "unit": "mg/dL"}]
    assert m.span("in adults with an LDL-C of 3.0 mmol/L (116 mg/dL) or more").endswith("or more")


def test_and_or_between_two_measurements_belongs_to_neither_name() -> None:
    """ "LVESD ≥40 mm and/or LVEF ≤60%": two measurements, the second named LVEF alone."""
    first, second = find_measurements("with LVESD ≥45 mm and/or LVEF ≤55%")
    assert (first.name, second.name) == ("LVESD", "LVEF")


def test_a_probability_in_brackets_is_the_probabilitys() -> None:
    """ "A high pre-test probability (>85%)": the bracketed value measures the probability."""
    (m,) = find_measurements("patients with a high pre-test probability (>80%) of disease")
    assert (m.name, m.operator, m.threshold, m.unit) == ("pre-test probability", ">", 80.0, "%")


def test_a_percentage_before_the_narrowing_it_measures_is_named_by_it() -> None:
    """ "A 70–99% carotid stenosis": the narrowing is named after its percentage."""
    (m,) = find_measurements("in patients with a 60–99% renal stenosis")
    assert (m.name, m.operator, m.threshold, m.unit) == (
        "renal stenosis",
        "between",
        [60.0, 99.0],
        "%",
    )


@pytest.mark.parametrize(
    ("text", "operator", "threshold"),
    [
        ("in patients with a risk score 0 - 12", "between", [0.0, 12.0]),
        ("in patients with a risk score of 13-20", "between", [13.0, 20.0]),
        ("in men with a bleeding score of 3", "=", 3.0),
        ("in women with a bleeding score of 2 or more", ">=", 2.0),
    ],
)
def test_a_score_takes_a_bare_range_or_an_of_value(text: str, operator: str, threshold) -> None:  # type: ignore[no-untyped-def]
    """A score has no unit, so a bare number after it is read only when it is plainly the
    score's value: a range right after the name, or a value after "of" (with "or more"
    bounding it)."""
    (m,) = find_measurements(text)
    assert m.name.endswith("score") and (m.operator, m.threshold, m.unit) == (
        operator,
        threshold,
        None,
    )


def test_a_number_after_a_name_that_is_no_score_is_not_read_without_a_unit() -> None:
    """ "in trials 12-15": a bare range after a word that is not a unitless scale is no
    measurement (reference numbers, counts)."""
    assert find_measurements("as shown in trials 12-15") == []


@pytest.mark.parametrize(
    ("text", "operator", "threshold", "name"),
    [
        ("in patients with three or more cardiac risk factors", ">=", 3.0, "cardiac risk factors"),
        ("in patients with ≥2 high-risk features on imaging", ">=", 2.0, "high-risk features"),
        (
            "in patients with one bleeding-related risk factor",
            "=",
            1.0,
            "bleeding-related risk factor",
        ),
        ("after at least 2 episodes of palpitations", ">=", 2.0, "episodes of palpitations"),
        # risk factors written short, as guidelines' abbreviation lists have them
        ("in patients with two or more CVRFs", ">=", 2.0, "CVRFs"),
    ],
)
def test_how_many_of_something_a_patient_has_is_a_count(  # type: ignore[no-untyped-def]
    text: str, operator: str, threshold: float, name: str
) -> None:
    """ "two or more risk factors" is a criterion on how many risk factors the patient has:
    a count, named by what is counted, with its bound in words or symbols."""
    (m,) = find_measurements(text)
    assert (m.kind, m.operator, m.threshold, m.unit, m.name) == (
        "count",
        operator,
        threshold,
        None,
        name,
    )


@pytest.mark.parametrize(
    "text", ["in two-vessel disease", "in one of the following", "at least 2 of these criteria"]
)
def test_a_number_that_counts_nothing_named_is_no_count(text: str) -> None:
    """ "two-vessel disease" names a disease, "one of the following" counts nothing it names."""
    assert not [m for m in find_measurements(text) if m.kind == "count"]


def test_a_state_before_a_measured_quantity_is_not_part_of_its_name() -> None:
    """ "an asymptomatic QTc ≥500 ms": the patient is asymptomatic and the QTc is above
    the bound; the quantity is the QTc, not an "asymptomatic QTc"."""
    (m,) = find_measurements("in patients who develop an asymptomatic QTc ≥500 ms")
    assert (m.name, m.operator, m.threshold, m.unit) == ("QTc", ">=", 500.0, "ms")


@pytest.mark.parametrize(
    ("text", "name", "span"),
    [
        (
            "aim for a ≥30% reduction in non-HDL-C from baseline.",
            "reduction in non-HDL-C from baseline",
            "≥30% reduction in non-HDL-C from baseline",
        ),
        (
            "a triglyceride reduction of >40% versus baseline values",
            "triglyceride reduction",
            "triglyceride reduction of >40% versus baseline values",
        ),
    ],
)
def test_a_change_is_measured_with_its_baseline(text: str, name: str, span: str) -> None:
    """ "a ≥30% reduction in X from baseline": the size is written before the change it
    measures, and "from / versus baseline" says what the change is counted from; both are
    one measured quantity."""
    (found,) = find_measurements(text)
    assert found.name == name
    assert text[found.start : found.end] == span
    assert found.operator in (">=", ">")


def test_a_score_takes_a_bare_number_and_a_stage_does_not() -> None:
    """ "a HAS-BLED score 3": a score has no unit, so the bare number after its name is its
    value; "CKD stage 4" names a stage, not a measured value."""
    (found,) = find_measurements("adults with a HAS-BLED score 3 in the past year")
    assert (found.name, found.operator, found.threshold) == ("HAS-BLED score", "=", 3.0)
    assert find_measurements("adults with CKD stage 4") == []


def test_a_percentage_in_brackets_after_a_heart_failure_class_bounds_the_ejection_fraction() -> (
    None
):
    """ "HFmrEF (41-49%)", "HFrEF (<40%)": the class of heart failure is named by the
    ejection fraction, so the bracketed value is the LVEF's."""
    text = "adults with HFrEF (<35%) and AF"
    (found,) = find_measurements(text)
    assert (found.name, found.operator, found.threshold) == ("LVEF", "<", 35.0)
    assert text[found.start : found.end] == "(<35%)"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("an outflow gradient at rest >50 mmHg", "outflow gradient at rest"),
        ("systolic BP on standing <90 mmHg", "systolic BP on standing"),
        ("in patients at rest >50 mmHg", "rest"),
    ],
)
def test_when_a_quantity_was_measured_stays_in_its_name(text: str, name: str) -> None:
    """ "gradient at rest", "BP on standing": the circumstance of the measurement is part of
    what is measured; with no quantity named before it, it is all that is left, without
    its "at"."""
    assert [m.name for m in find_measurements(text)] == [name]


@pytest.mark.parametrize(
    "text",
    [
        "a fall in diastolic BP from baseline ≥15 mmHg",
        "a fall in diastolic BP from baseline value ≥15 mmHg",
        "a fall in mean diastolic BP from baseline value ≥15 mmHg",
    ],
)
def test_a_change_measured_from_baseline_is_named_by_the_change(text: str) -> None:
    """ "a fall in diastolic BP from baseline (value) ≥15 mmHg": what is measured is the fall
    from baseline, not "baseline"; the change and what changes are its name."""
    name = text.removeprefix("a ").split(" value")[0].split(" ≥")[0]
    assert [m.name for m in find_measurements(text)] == [name]


def test_a_growth_rate_in_millimetres_per_year() -> None:
    """ "growth of the aorta ≥3 mm/year": a rate is a unit of its own, not millimetres
    followed by a stray word."""
    from cardio_assets.logic.measurements import canonical_unit, find_measurements

    (found,) = find_measurements("aortic growth ≥3 mm/year")
    assert (found.operator, found.threshold, canonical_unit(found.unit)) == (">=", 3.0, "mm/year")
    assert canonical_unit("mm per year") == "mm/year"


def test_a_change_felt_or_not_keeps_its_state_in_its_name() -> None:
    """ "an asymptomatic drop in diastolic BP from baseline ≥15 mmHg": whether the drop is felt
    is said of the fall, so it stays in the measurement's name; a state before a plain
    quantity ("asymptomatic patients with QTc ≥500 ms") stays the patient's own."""
    from cardio_assets.logic.measurements import find_measurements

    (fall,) = find_measurements("an asymptomatic drop in diastolic BP from baseline ≥15 mmHg")
    assert fall.name.lower().startswith("asymptomatic drop in diastolic bp")
    (qtc,) = find_measurements("asymptomatic patients with QTc ≥500 ms")
    assert qtc.name == "QTc"


def test_a_ratio_takes_a_range_without_a_unit() -> None:
    """ "an INR of 2.0–3.0": a ratio has no unit, like a score, so its bare range is its value."""
    from cardio_assets.logic.measurements import find_measurements

    (inr,) = find_measurements("a target INR of 2.0–3.0")
    assert (inr.operator, inr.threshold, inr.unit) == ("between", [2.0, 3.0], None)


def test_a_range_the_quantity_is_brought_to() -> None:
    """ "SBP to 130–139 mmHg": the range the quantity is brought to, named by the quantity
    ("from 120 to 140" is a change, not this)."""
    from cardio_assets.logic.measurements import canonical_unit, find_measurements

    (sbp,) = find_measurements("target SBP to 130–139 mmHg")
    assert sbp.name == "SBP" and sbp.threshold == [130.0, 139.0]
    (spaced,) = find_measurements("target SBP to 130 – 139 mmHg")
    assert spaced.name == "SBP"
    (anti_xa,) = find_measurements("anti-Xa activity at 0.8–1.2 U/mL")
    assert canonical_unit(anti_xa.unit) == "U/mL"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Endarterectomy of symptomatic 50–69% carotid stenosis is advised.", "carotid stenosis"),
        (
            "Stenting in adults with bilateral 70–99% carotid stenosis.",
            "bilateral carotid stenosis",
        ),
        ("Stenting in adults with a diameter stenosis >70%.", "diameter stenosis"),
    ],
)
def test_a_percentage_before_a_narrowing_measures_it_whatever_word_precedes(
    text: str, name: str
) -> None:
    """ "symptomatic 50-69% carotid stenosis": the percentage measures the stenosis named
    after it, not the patient state before it (that stays a condition of its own); the side
    of a narrowing ("bilateral") belongs to its name; a quantity named before the value
    ("diameter stenosis >70%") keeps its name."""
    (found,) = find_measurements(text)
    assert found.name == name
    assert found.unit == "%"


@pytest.mark.parametrize(
    ("text", "span"),
    [
        (
            "Two-vessel disease with intermediate or high Duke score (>10): stenting",
            "intermediate or high Duke score (>10)",
        ),
        (
            "adults with a low-to-intermediate frailty score (2 - 4)",
            "low-to-intermediate frailty score (2 - 4)",
        ),
        ("in patients with a high bleeding score (≥3)", "high bleeding score (≥3)"),
    ],
)
def test_grade_words_before_a_valued_name_stay_in_its_span(text: str, span: str) -> None:
    """A grade written before a score whose value follows ("an intermediate or high score
    (>10)") only says in words how high the value is: it stays in the parameter's span, so
    no grade is left over as a concept of its own, and it stays out of the name."""
    (found,) = find_measurements(text)
    assert text[found.start : found.end] == span
    assert found.name.split()[0] not in {"intermediate", "low", "high", "low-to-intermediate"}


def test_a_grade_left_beside_a_score_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The grades before a valued score ("intermediate or high score (>10)") are part of the
    parameter, not a condition of their own."""
    from tests.lexicon_fixtures import extract

    result = extract(
        lexicon, "Two-vessel disease with intermediate or high Duke score (>10): stenting"
    )
    assert {c.normalized for c in result.concepts} == {
        "two-vessel disease",
        "duke score",
        "stenting",
    }


def test_a_percentage_before_the_change_it_sizes_names_the_change() -> None:
    """ "a ≥40% triglyceride reduction": the percentage sizes the reduction named after it
    (as "a ≥40% reduction in triglycerides" does), whatever words came before the value."""
    (found,) = find_measurements(
        "fibrate therapy, eventually targeting a ≥40% triglyceride reduction"
    )
    assert (found.name, found.operator, found.threshold, found.unit) == (
        "triglyceride reduction",
        ">=",
        40.0,
        "%",
    )


def test_a_verb_before_a_quantity_ends_its_name() -> None:
    """ "rate control targeting a heart rate <80 b.p.m.": the verb before the quantity says
    what the act aims at; the name is the quantity alone."""
    (found,) = find_measurements("early rate control targeting heart rate <80 b.p.m.")
    assert found.name == "heart rate"


def test_a_rounded_conversion_in_brackets_is_the_same_value() -> None:
    """ "above 150 mg/dL (about 350 nmol/L)": the bracket converts the value, rounded; one
    parameter with the second unit as an alternative value, not a second parameter."""
    found = find_measurements("lipoprotein(a) above 150 mg/dL (about 350 nmol/L) in adults")
    assert len(found) == 1, found
    assert (found[0].operator, found[0].threshold, found[0].unit) == (">", 150.0, "mg/dL")
    assert found[0].alt_values == [{"threshold": 350.0, "unit": "nmol/L"}]


@pytest.mark.parametrize(
    "text,alt",
    [
        (
            "an LDL-C below 1.8 mmol/L (equivalent to 70 mg/dL)",
            {"threshold": 70.0, "unit": "mg/dL"},
        ),
        ("Lp(a) above 50 mg/dL, roughly 105 nmol/L", {"threshold": 105.0, "unit": "nmol/L"}),
        (
            "glucose of 7.0 mmol/L or more (that is, 126 mg/dL)",
            {"threshold": 126.0, "unit": "mg/dL"},
        ),
        (
            "triglycerides of 2.3–5.6 mmol/L (that is, 200–499 mg/dL)",
            {"threshold": [200.0, 499.0], "unit": "mg/dL"},
        ),
    ],
)
def test_the_same_value_in_a_second_unit_after_a_word_that_says_so(text: str, alt: dict) -> None:
    """ "(equivalent to 70 mg/dL)", ", roughly 105 nmol/L", "(that is, 126 mg/dL)": the value
    again in another unit, one parameter with alt_values; before, the words left the second
    value as a condition of its own ("equivalent to 70 mg/dl")."""
    found = find_measurements(text)
    assert len(found) == 1 and found[0].alt_values == [alt], found
