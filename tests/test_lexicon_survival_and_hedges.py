"""The survival an act presupposes, and hedges before a clause, read by rule in the team's own
sentences: "provided they are expected to live more than a year" is the parameter life
expectancy > 1 year (before, the time was dropped as a duration and "expected to live" stayed a
condition); "above all" and "in particular" before a clause or a group only stress it and name
nothing (before, "above all" was a condition).
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text,operator,threshold,unit",
    [
        (
            "A defibrillator is recommended in survivors of cardiac arrest, provided they are "
            "expected to live more than 1 year.",
            ">",
            1.0,
            "year",
        ),
        (
            "Valve replacement may be considered in frail patients, provided survival beyond "
            "2 years is anticipated.",
            ">",
            2.0,
            "year",
        ),
        (
            "Transcatheter repair may be considered when patients are expected to live at "
            "least 12 months.",
            ">=",
            12.0,
            "month",
        ),
    ],
)
def test_an_expected_survival_is_a_life_expectancy_parameter(
    lexicon, text: str, operator: str, threshold: float, unit: str
) -> None:  # type: ignore[no-untyped-def]
    found = named(extract(lexicon, text))
    life = found["life expectancy"]
    assert life.role == "ClinicalParameter", found
    assert (life.operator, life.threshold) == (operator, threshold), life
    assert life.unit.startswith(unit), life
    assert not any(name.startswith(("expected", "anticipated")) for name in found), found


def test_good_functional_status_stays_a_condition_beside_the_survival(lexicon) -> None:  # type: ignore[no-untyped-def]
    found = named(
        extract(
            lexicon,
            "An ICD is recommended in patients with dilated cardiomyopathy, provided they are "
            "expected to live more than 1 year with good functional status.",
        )
    )
    assert found["good functional status"].role == "Condition", found
    assert found["life expectancy"].threshold == 1.0, found


@pytest.mark.parametrize("hedge", ["above all", "in particular"])
def test_a_hedge_before_a_clause_names_nothing(lexicon, hedge: str) -> None:  # type: ignore[no-untyped-def]
    found = named(
        extract(
            lexicon,
            f"Bypass surgery is recommended in patients with three-vessel disease, {hedge} if "
            "the SYNTAX score is above 22.",
        )
    )
    assert hedge not in found, found
    assert found["syntax score"].threshold == 22.0, found
