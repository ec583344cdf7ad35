"""Two measured quantities joined by "or" before one value ("eGFR or creatinine clearance
below 30 mL/min"): the value is each one's, so both are parameters with it, in one OR group.
A patient group named before "or" ("HFrEF or an LVEF below 35%") keeps no value; how long a
state "has lasted" is its duration, as "lasting" is; a value "scored on" a named score is
that score's. Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


@pytest.mark.parametrize(
    ("text", "first", "second", "value"),
    [
        (
            "Valve replacement is advised in people at raised operative risk "
            "(STS-PROM or EuroSCORE II above 6%).",
            "society of thoracic surgeons predicted risk of mortality",
            "euroscore ii",
            (">", 6.0, "%"),
        ),
        (
            "A lower dose is advised in patients with eGFR or creatinine clearance below "
            "30 mL/min.",
            "estimated glomerular filtration rate",
            "creatinine clearance",
            ("<", 30.0, "mL/min"),
        ),
    ],
    ids=["two scores", "two kidney measures"],
)
def test_two_quantities_before_one_value_both_take_it(lexicon, text, first, second, value):
    # A row that gives one cut-off after two measures means either measure past it: the
    # first measure is a parameter with the same value, not a bare finding.
    result = named(extract(lexicon, text))
    for name in (first, second):
        concept = result[name]
        assert concept.role == "ClinicalParameter", result
        assert (concept.operator, concept.threshold, concept.unit) == value, result
    assert_one_or_group(result[first], result[second])


@pytest.mark.parametrize(
    ("text", "group"),
    [
        (
            "A device is advised in HFrEF or an LVEF below 35%.",
            "heart failure with reduced ejection fraction",
        ),
        ("Screening is advised in T2DM or an HbA1c above 6.5%.", "type 2 diabetes mellitus"),
    ],
    ids=["heart failure class", "diabetes"],
)
def test_a_patient_group_before_or_takes_no_value(lexicon, text, group):
    # Heart failure with a reduced fraction or diabetes is something the patient has, not a
    # measure: the value after "or" is the second measure's alone.
    result = named(extract(lexicon, text))
    assert result[group].role == "Condition", result
    assert result[group].threshold is None, result


def test_a_surgical_risk_score_is_named_in_full(lexicon):
    # The surgeons' society score is written as its letters; its name is spelled out so the
    # terminology search and the golds read the same words.
    result = named(extract(lexicon, "The STS score should be calculated before cardiac surgery."))
    assert "society of thoracic surgeons score" in result, result


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Rate control is advised with high blood pressure or heart rate >80 bpm.",
            "high blood pressure",
        ),
        ("Surgery is advised in COPD or STS score >8%.", "copd"),
        (
            "Statins are advised in patients with serum creatinine or eGFR <30 mL/min.",
            "serum creatinine",
        ),
    ],
    ids=["graded state", "disease beside a score", "word inside a name"],
)
def test_only_a_whole_quantity_name_takes_the_shared_value(lexicon, text, state):
    # A state graded in words, a disease, or the last word of a longer name is not a second
    # measure of the value: "pressure" or "creatinine" alone names nothing measured here.
    result = named(extract(lexicon, text))
    assert state in result, result
    assert result[state].threshold is None, result


@pytest.mark.parametrize(
    "text",
    [
        "If flutter has lasted longer than 36 hours, anticoagulation should precede cardioversion.",
        "Cardioversion is not advised in patients whose flutter has lasted more than 36 h.",
    ],
    ids=["if", "whose"],
)
def test_how_long_a_state_has_lasted_is_its_duration(lexicon, text):
    # "has lasted longer than 36 hours" says what "lasting >36 h" says: the state, and its
    # duration as a parameter, not one long finding with the clause's words in it.
    result = named(extract(lexicon, text))
    assert result["flutter"].role == "Condition", result
    duration = result["flutter duration"]
    assert (duration.operator, duration.threshold, duration.unit) == (">", 36.0, "h"), result


def test_a_value_scored_on_a_named_score_is_that_score(lexicon):
    # "men scoring 3 or more on HAS-BLED and women scoring 4" set the score's values: two
    # parameters of the score (the second named before), the groups conditions of their own.
    result = extract(
        lexicon,
        "Closer review is advised for men scoring 3 or more on HAS-BLED and women scoring 4 "
        "or more.",
    )
    scores = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.normalized, c.threshold) for c in scores] == [
        ("has-bled score", 3.0),
        ("has-bled score", 4.0),
    ], result.concepts
    assert {"men", "women"} <= set(named(result)), result.concepts


def test_a_lower_case_quantity_before_or_takes_the_value_and_an_article_does_not(lexicon):
    # "creatinine clearance or eGFR <30 mL/min": the clearance is measured against 30 too;
    # "with an STS-PROM or ..." names the STS-PROM, without its article.
    first = named(
        extract(lexicon, "A lower dose is advised with creatinine clearance or eGFR <30 mL/min.")
    )
    assert first["creatinine clearance"].threshold == 30.0, first
    second = extract(lexicon, "Surgery is advised with an STS-PROM or EuroSCORE II <4%.")
    assert not [c for c in second.concepts if c.normalized.startswith("an ")], second.concepts
