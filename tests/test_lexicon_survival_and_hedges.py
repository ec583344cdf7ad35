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
    """ "expected to live more than 1 year with good functional status": the status the
    survival is hoped with is a condition of its own (before, "expected to live with good
    functional status" was one condition and the year was lost)."""
    found = named(
        extract(
            lexicon,
            "An ICD is recommended in patients with dilated cardiomyopathy, provided they are "
            "expected to live more than 1 year with good functional status.",
        )
    )
    assert found["good functional status"].role == "Condition", found
    assert found["life expectancy"].threshold == 1.0, found


def test_a_survival_not_expected_turns_the_bound_round(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients not expected to live more than a year" have a life expectancy of a year or
    less; the "not" must not be lost with the words it stood before."""
    found = named(
        extract(
            lexicon,
            "Palliative care should be discussed with patients not expected to live more than "
            "a year.",
        )
    )
    life = found["life expectancy"]
    assert (life.operator, life.threshold) == ("<=", 1.0), life


@pytest.mark.parametrize(
    "text,hedge",
    [
        (
            "Bypass surgery is recommended in patients with three-vessel disease, above all if "
            "the SYNTAX score is above 22.",
            "above all",
        ),
        (
            "Beta-blockers are recommended in particular in patients with stable angina.",
            "particular",
        ),
    ],
)
def test_a_hedge_before_a_clause_or_a_group_names_nothing(lexicon, text: str, hedge: str) -> None:  # type: ignore[no-untyped-def]
    """ "…, above all if X", "recommended in particular in patients with Y": the hedge only
    stresses the clause or the group (before, "above all" and "particular" were conditions)."""
    found = named(extract(lexicon, text))
    assert not any(hedge in name for name in found), found
