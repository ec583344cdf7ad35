"""Patients kept somewhere, examples of a state said with "such as in", a lead of "while",
values that must hold for a time, and rates and multiples the units grammar did not read:
each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        # A care verb whose patients are its subject, with only where it happens after it:
        # the care there is the act, and the women stay the patients.
        (
            "Women carrying a mechanical prosthesis should be followed in an expert centre "
            "throughout pregnancy.",
            "follow-up in an expert centre",
        ),
        (
            "Pregnant women with a Fontan circulation should be cared for in a specialised unit.",
            "care in a specialised unit",
        ),
        (
            "Patients with a systemic right ventricle should be managed in an expert centre.",
            "management in an expert centre",
        ),
    ],
)
def test_care_with_only_a_place_after_it_is_the_act(lexicon, sentence, act):
    result = extract(lexicon, sentence)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert all(c.role != "Procedure" or "women" not in c.normalized for c in result.concepts)


def test_monitored_with_an_object_stays_the_object(lexicon):
    # With a thing to monitor with, the thing is the act, as before (a guard).
    result = extract(
        lexicon, "Patients with a dilated aortic root should be monitored with imaging."
    )
    assert [a.normalized for a in result.actions] == ["imaging"], result.actions


def test_such_as_in_patients_lists_examples_of_the_state(lexicon):
    # "such as in patients on X or with Y" gives examples of the state before it; it is no
    # comparison with another group of patients.
    result = named(
        extract(
            lexicon,
            "A leadless pacemaker should be considered when the risk of pocket infection is "
            "high, such as in patients on haemodialysis or with an earlier device infection.",
        )
    )
    assert "haemodialysis" in result and "earlier device infection" in result, result
    assert not any(name.startswith("such") for name in result), result


def test_a_while_clause_leads_the_sentence_and_the_patients_follow(lexicon):
    # "While X, patients with Y should …": the clause is a condition, and the subject after
    # its comma is the patients, not part of the clause.
    result = named(
        extract(
            lexicon,
            "While the pericardial inflammation is active, athletes with pericarditis should "
            "not take part in competitive sport.",
        )
    )
    assert "pericarditis" in result, result
    assert not any(name.startswith("athletes with") for name in result), result


def test_a_value_that_must_hold_for_a_time_has_a_duration(lexicon):
    # "below 90 mmHg lasting at least 15 minutes": how long the low pressure held is a
    # duration of it, a criterion, not a state named "lasting …".
    result = extract(
        lexicon,
        "Systemic thrombolysis is recommended in PE with a systolic BP below 90 mmHg lasting "
        "at least 15 minutes.",
    )
    durations = [c for c in result.concepts if c.normalized.endswith("duration")]
    assert len(durations) == 1, result.concepts
    assert durations[0].role == "ClinicalParameter"
    assert (durations[0].operator, durations[0].threshold, durations[0].unit) == (
        ">=",
        15.0,
        "min",
    )
    assert not any(c.normalized.startswith("lasting") for c in result.concepts)


def test_a_complex_lasting_so_many_milliseconds_is_its_duration(lexicon):
    result = named(
        extract(lexicon, "CRT is recommended in HF with LBBB and a QRS lasting at least 150 ms.")
    )
    assert "qrs duration" in result, result
    assert result["qrs duration"].threshold == 150.0


def test_a_velocity_rising_each_year_is_one_rate(lexicon):
    # "0.3 m/s per year or more": a yearly rise of a velocity, one value with its unit; the
    # "per year or more" is no state of its own.
    result = extract(
        lexicon,
        "Early valve replacement may be considered in severe AS with heavy calcification and "
        "a rise in peak velocity of 0.3 m/s per year or more.",
    )
    rates = [c for c in result.concepts if c.unit == "m/s/year"]
    assert len(rates) == 1 and rates[0].operator == ">=", result.concepts
    assert not any("per year" in c.normalized for c in result.concepts), result.concepts


def test_a_multiple_of_normal_written_with_the_sign(lexicon):
    # "3× normal for age and sex" is a multiple of the upper limit of normal, as "three
    # times normal" is.
    result = extract(
        lexicon,
        "Intervention may be considered in severe AS when BNP exceeds 3× normal for age and sex.",
    )
    peptide = [c for c in result.concepts if c.unit == "× ULN"]
    assert len(peptide) == 1 and peptide[0].threshold == 3.0, result.concepts
    assert not any(c.normalized.startswith("×") for c in result.concepts), result.concepts
