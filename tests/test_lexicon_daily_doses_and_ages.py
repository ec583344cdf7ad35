"""A daily dose bound as a criterion, a daily dose given, and an age written without its unit.
Every sentence here is the team's own; each names the phrasing it stands for.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.measurements import find_measurements
from tests.lexicon_fixtures import extract, named


def test_a_bound_on_a_daily_dose_is_a_criterion_in_mg_per_day(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "on a coumarin >3 mg/day": how much of a drug the patient needs each day tells who the
    row is for (a measure with a bound), unlike the dose the row gives."""
    found = named(
        extract(lexicon, "Genotyping may be considered in adults on phenprocoumon >3 mg/day.")
    )
    (param,) = [c for c in found.values() if c.role == "ClinicalParameter"]
    assert (param.operator, param.threshold, param.unit) == (">", 3.0, "mg/day")
    assert [m.unit for m in find_measurements("a daily dose below 2 mg/day")] == ["mg/day"]


@pytest.mark.parametrize(
    "text",
    [
        "Aspirin 75 mg/day is advised in adults with angina.",
        "Aspirin 75–100 mg/day is advised in adults with angina.",
    ],
)
def test_a_daily_dose_given_is_no_concept(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """A daily amount with no bound is the dose given: no parameter, and not part of the
    drug's name (the contract: doses are never concepts)."""
    found = named(extract(lexicon, text))
    assert found["aspirin"].role == "Medication"
    assert not [c for c in found.values() if c.role == "ClinicalParameter"]
    assert find_measurements(text) == []


@pytest.mark.parametrize(
    ("text", "operator"),
    [
        ("Screening is advised in smokers aged ≥60 with a cough.", ">="),
        ("Screening is advised in smokers with age under 60.", "<"),
    ],
)
def test_an_age_written_without_years_is_in_years(lexicon, text: str, operator: str) -> None:  # type: ignore[no-untyped-def]
    """ "aged ≥60", "age under 60": an age is counted in years whether or not the row says
    so; the parameter is the patients' age with that unit."""
    found = named(extract(lexicon, text))
    assert (found["age"].operator, found["age"].threshold, found["age"].unit) == (
        operator,
        60.0,
        "years",
    )


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Statins are advised in adults with gout aged ≥55 years.", "gout"),
        ("Screening is advised in smokers aged 55 years or more.", "smoker"),
    ],
)
def test_an_age_after_a_state_is_the_age_and_the_state_stays(  # type: ignore[no-untyped-def]
    lexicon, text: str, state: str
) -> None:
    """ "adults with gout aged ≥55 years": the age is the patients'; the state before
    "aged" is a condition of its own, never the name of the age parameter."""
    found = named(extract(lexicon, text))
    assert (found["age"].operator, found["age"].threshold, found["age"].unit) == (
        ">=",
        55.0,
        "years",
    ), found
    assert found[state].role == "Condition", found
    assert not [n for n in found if "aged" in n], found


@pytest.mark.parametrize(
    "text",
    [
        "Simvastatin doses above 40 mg/day are not advised in adults on amlodipine.",
        "Prednisone up to 10 mg/day may be considered in adults with pericarditis.",
        "Hydroxychloroquine >5 mg/kg/day is not advised in adults with lupus.",
    ],
)
def test_a_daily_amount_after_a_bound_in_words_stays_in_the_text(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "doses above 40 mg/day", "up to 10 mg/day", ">5 mg/kg/day": a bound, in symbols or
    words, makes the amount a measure the row sets; it is never cut out as a dose given,
    which would leave a bare "above" or "up to" in a name."""
    result = extract(lexicon, text)
    kept = " ".join(c.text for c in result.concepts)
    assert "/day" in kept
    assert not any(
        c.text.rstrip().endswith((" above", " up to", ">", "<")) for c in result.concepts
    )


def test_a_second_age_bound_after_or_is_an_age_too(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "aged >75 or <18": both bounds are ages in years, either one enough."""
    result = extract(
        lexicon, "Anticoagulation is not advised in adults aged >75 or <18 with flutter."
    )
    ages = [c for c in result.concepts if c.normalized == "age"]
    assert sorted((c.operator, c.threshold, c.unit) for c in ages) == [
        ("<", 18.0, "years"),
        (">", 75.0, "years"),
    ]
    assert ages[0].or_group is not None and ages[0].or_group == ages[1].or_group


def test_patients_weighing_a_value_are_a_body_weight(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults weighing less than 60 kg": the value measures the patients' body weight,
    named so (as "aged ≥75" is an age), never a parameter called "weighing"."""
    result = extract(lexicon, "Edoxaban 30 mg is advised in adults weighing less than 60 kg.")
    params = [
        (c.normalized, c.operator, c.threshold, c.unit)
        for c in result.concepts
        if c.role == "ClinicalParameter"
    ]
    assert params == [("body weight", "<", 60.0, "kg")], result.concepts


def test_an_age_said_with_at_is_an_age_parameter(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in all men at 65 years of age": an age, the same as "aged 65 years" (before, the time
    was read as a point of a schedule and dropped, leaving a bare "age")."""
    found = named(
        extract(
            lexicon,
            "A single ultrasound scan of the aorta is recommended in all men at 65 years of age.",
        )
    )
    age = found["age"]
    assert age.role == "ClinicalParameter", found
    assert (age.operator, age.threshold) == ("=", 65.0), age
