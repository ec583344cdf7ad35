"""A reason put before the act, which dose in words, a drug said to be in use, a kidney's
clearance, and who lacks or ever had something: read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_a_reason_put_first_is_no_concept_and_the_act_keeps_its_role(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Because of X, Y is not recommended": the fronted clause says why; before, it made
    the reason and the act after it Outcomes and the row had no action."""
    found = named(
        extract(
            lexicon,
            "Because of the harm to the fetus, statins are contraindicated throughout pregnancy.",
        )
    )
    assert found["statin"].role == "Medication", found
    assert not any("fetus" in name for name in found), found


@pytest.mark.parametrize(
    "text",
    [
        "Low-dose aspirin should be kept unless a vitamin K antagonist is already being taken "
        "for another reason.",
        "Colchicine may be considered provided no strong CYP3A4 inhibitor is being used.",
    ],
)
def test_a_drug_said_to_be_in_use_is_the_drug(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "unless X is already being taken", "provided no X is being used": the condition is
    the drug the patient is on (negated), not a name that runs on into the verb."""
    found = named(extract(lexicon, text))
    drugs = [c for c in found.values() if c.negated]
    assert len(drugs) == 1 and drugs[0].role == "Medication", found
    assert not any(word in drugs[0].normalized for word in ("taken", "used", "being")), found


@pytest.mark.parametrize(
    ("text", "operator", "threshold", "unit"),
    [
        (
            "A longer interruption is advised for dabigatran if creatinine clearance is below "
            "50 mL/min.",
            "<",
            50.0,
            "mL/min",
        ),
        (
            "Finerenone is advised in kidney disease with an eGFR of at least 25 mL/min per "
            "1.73 m².",
            ">=",
            25.0,
            "mL/min/1.73 m²",
        ),
    ],
)
def test_a_clearance_in_ml_per_minute_is_a_measure_not_a_dose(  # type: ignore[no-untyped-def]
    lexicon, text: str, operator: str, threshold: float, unit: str
) -> None:
    """ "50 mL/min" is how much a kidney clears, a criterion; before, the dose rule took it
    for an infusion rate and removed it, leaving "clearance is below" as a condition. The
    body surface said in words ("per 1.73 m²") is the usual eGFR unit."""
    found = named(extract(lexicon, text))
    measures = [c for c in found.values() if c.role == "ClinicalParameter"]
    assert [(m.operator, m.threshold, m.unit) for m in measures] == [(operator, threshold, unit)], (
        found
    )


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "Adding edoxaban at a low vascular-protection dose to aspirin may be considered in "
            "leg ischaemia.",
            "edoxaban",
        ),
        (
            "A beta-blocker, uptitrated to the maximum tolerated dose, is advised in heart "
            "failure with reduced ejection fraction.",
            "beta-blocker",
        ),
    ],
)
def test_which_dose_in_words_is_no_part_of_the_drug(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """ "at a low vascular-protection dose", "uptitrated to the maximum tolerated dose": how
    much of the drug is given (the contract's doses are no concepts), not its name."""
    found = named(extract(lexicon, text))
    assert drug in found, found
    assert not any("dose" in name or "uptitrated" in name for name in found), found


def test_patients_who_lack_something_are_without_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who lack high-risk features" says the features are absent, as "without" does."""
    found = named(
        extract(
            lexicon,
            "An implantable loop recorder is advised in recurrent fainting of unclear cause "
            "in patients who lack high-risk features.",
        )
    )
    assert found["high-risk feature"].negated, found


def test_ever_had_only_says_at_any_time_before(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who have ever had a stroke or a TIA": the conditions are the stroke and the TIA;
    "ever had" led the first one's name before."""
    found = named(
        extract(
            lexicon,
            "Prasugrel should be avoided in patients who have ever had a stroke or a TIA.",
        )
    )
    assert "stroke" in found and "transient ischemic attack" in found, found
    assert found["stroke"].or_group == found["transient ischemic attack"].or_group, found


@pytest.mark.parametrize(
    "text",
    [
        "Twelve months of dual antiplatelet therapy is advised after an acute coronary syndrome.",
        "12 months of DAPT is advised after an acute coronary syndrome.",
    ],
)
def test_how_long_a_therapy_is_given_is_no_part_of_it(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "12 months of DAPT": the months are how long the therapy lasts (a duration, no
    concept); before, a number first took the therapy with it and the row had no action."""
    found = named(extract(lexicon, text))
    assert "dual antiplatelet therapy" in found, found
    assert found["dual antiplatelet therapy"].role == "Medication", found
    assert not any("month" in name for name in found), found


def test_a_window_from_a_diagnosis_is_kept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "within 12 months of diagnosis" is a window counted from an event, a criterion, not
    how long a therapy is given."""
    found = named(
        extract(lexicon, "Early rhythm control is advised within 12 months of diagnosis.")
    )
    window = found["time since diagnosis"]
    assert (window.operator, window.threshold) == ("<=", 12.0), found


def test_a_combination_named_with_its_parts_gives_the_parts(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "DAPT combining aspirin with a P2Y12 inhibitor" is DAPT with aspirin and the P2Y12
    inhibitor: the parts are the acts, as for "DAPT with A and B"."""
    found = named(
        extract(
            lexicon,
            "DAPT combining aspirin with a P2Y12 inhibitor is advised after stenting.",
        )
    )
    assert "aspirin" in found and "p2y12 inhibitor" in found, found
    assert not any("combining" in name for name in found), found


def test_co_administration_of_a_drug_is_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Co-administration of X with Y is contraindicated": X is the act, as after "use of"
    or "administration of"."""
    found = named(
        extract(
            lexicon,
            "Co-administration of an ACE inhibitor with sacubitril/valsartan must be avoided.",
        )
    )
    assert not any("administration" in name for name in found), found
    assert any(c.role == "Medication" and "inhibitor" in name for name, c in found.items()), found


def test_a_bound_said_after_a_score_is_its_operator(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "whose risk score is 2 or higher": "or higher" bounds the score (>= 2); before, the
    score was read as exactly 2 and "or higher" was left over as part of a condition."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is advised in atrial fibrillation when the stroke risk score is 2 "
            "or higher.",
        )
    )
    score = found["stroke risk score"]
    assert (score.operator, score.threshold) == (">=", 2.0), found


def test_an_aim_put_first_then_the_patients_as_subject(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "To prevent stroke, patients with X should receive Y": the aim is the outcome, the
    patients the cohort and Y the act (before, Y was no action: only a lead of time or
    condition was read before such a subject)."""
    result = extract(
        lexicon,
        "To prevent stroke, patients with atrial fibrillation should receive an oral "
        "anticoagulant.",
    )
    found = named(result)
    assert found["stroke"].role == "Outcome", found
    assert found["atrial fibrillation"].role == "Condition", found
    assert [a.normalized for a in result.actions] == ["oral anticoagulant"], result.actions


# The review's cases: look-alikes each rule above must leave alone, and the edges it must keep.


def test_a_reason_put_first_keeps_the_patients_it_names(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Because of the risk of X in patients with Y, …": the reason goes, the patients it
    names are still whom the row is for; a bracket inside the reason does not stop it."""
    found = named(
        extract(
            lexicon,
            "Because of the high risk of sudden death in patients with amyloidosis, an ICD "
            "may be considered.",
        )
    )
    assert found["amyloidosis"].role == "Condition", found
    bracketed = named(
        extract(
            lexicon,
            "Because of harm to the fetus (teratogenicity), statins are contraindicated in "
            "pregnancy.",
        )
    )
    assert bracketed["statin"].role == "Medication", bracketed


def test_what_follows_a_drug_in_use_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "unless X is already being taken or the patient has active bleeding": only the verb
    of use goes; the second case after "or" is kept."""
    found = named(
        extract(
            lexicon,
            "Aspirin should be continued unless an anticoagulant is already being taken or the "
            "patient has active bleeding.",
        )
    )
    assert any("bleeding" in name for name in found), found


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Retinal screening is advised in adults with ≥10 years of type 1 diabetes.", "age"),
        ("At least 12 months of DAPT is advised after an acute coronary syndrome.", None),
    ],
)
def test_only_a_therapy_loses_how_long_it_is_given(lexicon, text: str, kept: str | None) -> None:  # type: ignore[no-untyped-def]
    """How long a disease has lasted is a criterion and keeps its value; "at least" goes
    with the therapy's duration it bounds (before, "At least DAPT" was left)."""
    found = named(extract(lexicon, text))
    if kept:
        assert found[kept].operator == ">=", found
    else:
        assert "dual antiplatelet therapy" in found and len(found) == 2, found


def test_a_negated_or_alternative_window_gives_its_disease_the_same(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A window the row excludes, or one offered as an alternative, never makes its disease
    a plain condition every patient must have: the disease is negated with it, or offered
    under its OR label."""
    excluded = named(extract(lexicon, "An ICD is advised unless within 40 days of an MI."))
    assert excluded["myocardial infarction"].negated, excluded
    offered = named(
        extract(
            lexicon,
            "A wearable vest may be considered in heart failure, or within 40 days of an MI.",
        )
    )
    window = offered["time since myocardial infarction"]
    assert window.or_group, offered
    assert offered["myocardial infarction"].or_group == window.or_group, offered


def test_combining_without_with_is_left_as_written(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Combining antiplatelet drugs is not recommended in patients with X": no "with" of
    the combination follows, so nothing is rewritten across the verb."""
    found = named(
        extract(
            lexicon,
            "Combining antiplatelet drugs is not recommended in patients with AF on an oral "
            "anticoagulant.",
        )
    )
    assert "atrial fibrillation" in found, found


def test_an_oxygen_uptake_per_kilogram_is_a_measure(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "peak VO2 <12 mL/kg/min" is a measure like a clearance, never a dose."""
    found = named(
        extract(lexicon, "Transplant listing should be considered when peak VO2 is <12 mL/kg/min.")
    )
    measures = [c for c in found.values() if c.role == "ClinicalParameter"]
    assert [(m.operator, m.threshold) for m in measures] == [("<", 12.0)], found


def test_a_cohort_before_an_abbreviated_quantity_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In patients with diabetes HbA1c should be kept below 7%": with no comma, the
    quantity is still only "HbA1c" and diabetes stays a condition."""
    found = named(extract(lexicon, "In patients with diabetes HbA1c should be kept below 7%."))
    assert found["diabetes mellitus"].role == "Condition", found
    assert found["hemoglobin a1c"].operator == "<", found


@pytest.mark.parametrize(
    ("text", "threshold", "alt"),
    [
        ("Statins are advised if LDL-C is above 190 mg/dL, i.e. 4.9 mmol/L.", 190.0, 4.9),
        (
            "Icosapent ethyl may be considered in raised triglycerides (135–499 mg/dL, i.e. "
            "1.5–5.6 mmol/L).",
            [135.0, 499.0],
            [1.5, 5.6],
        ),
    ],
)
def test_a_value_said_again_in_another_unit_after_ie(  # type: ignore[no-untyped-def]
    lexicon, text: str, threshold: float | list[float], alt: float | list[float]
) -> None:
    """ ", i.e. 4.9 mmol/L" after "190 mg/dL" is the same value in a second unit (one
    parameter with alt_values), as ", or 4.9 mmol/L" and "(4.9 mmol/L)" are; before, the
    second value was a condition named by its number."""
    found = named(extract(lexicon, text))
    (measure,) = [c for c in found.values() if c.role == "ClinicalParameter"]
    assert measure.threshold == threshold, found
    assert [a.threshold for a in measure.alt_values] == [alt], found
    assert not any(c.role == "Condition" and "mmol" in name for name, c in found.items()), found


def test_a_span_of_pregnancy_weeks_said_with_ordinals(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "nightly from the 12th to the 36th week of pregnancy": how often is no concept, and
    the weeks are the gestational age the drug is for (as "between weeks 12 and 36" is)."""
    found = named(
        extract(
            lexicon,
            "Women at risk of pre-eclampsia should take low-dose aspirin nightly from the 12th "
            "to the 36th week of pregnancy.",
        )
    )
    age = found["gestational age"]
    assert (age.operator, age.threshold) == ("between", [12.0, 36.0]), found
    assert not any("nightly" in name or "week" in name for name in found), found


def test_what_is_brought_on_names_the_role(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ventricular arrhythmia induced by exercise" is a finding (a Condition), whatever
    brings it on; before, the exercise made it a Procedure."""
    found = named(
        extract(
            lexicon,
            "Competitive sport is not advised in patients with ventricular ectopy induced by "
            "exercise.",
        )
    )
    (finding,) = [c for name, c in found.items() if "ectopy" in name]
    assert finding.role == "Condition", found


def test_what_is_said_after_ie_must_be_the_same_quantity() -> None:
    """The review's look-alikes: a percentage after a value in another unit is another
    quantity (HbA1c's mmol/mol excepted), and a bracket "i.e." opens inside is the outer one's
    to close."""
    from cardio_assets.logic.measurements import find_measurements

    def alts(text: str) -> list:
        return [[a["threshold"] for a in m.alt_values] for m in find_measurements(text)]

    assert alts("LDL-C 100–190 mg/dL, i.e. 30–50% above the goal")[0] == []
    assert alts("Metformin is advised if HbA1c is above 7%, i.e. 53 mmol/mol.") == [[53.0]]
    (diameter,) = find_measurements("in a large aortic diameter (≥55 mm, i.e. ≥5.5 cm).")
    assert diameter.name == "large aortic diameter" and diameter.alt_values, diameter


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Cardiac rehabilitation is advised from the 2nd to the 6th week after an MI.", None),
        ("Patients with nightly angina should undergo coronary angiography.", "nightly angina"),
    ],
)
def test_weeks_and_nightly_outside_a_schedule_of_pregnancy(lexicon, text: str, kept) -> None:  # type: ignore[no-untyped-def]
    """Weeks counted from another event are no gestational age; "nightly" before a finding
    names the finding ("nightly angina"), no schedule."""
    found = named(extract(lexicon, text))
    assert "gestational age" not in found, found
    if kept:
        assert kept in found, found


def test_as_long_as_opens_a_condition_like_provided(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, as long as serum sodium stays above 130 mmol/L": a condition of the row, read as
    "provided" is; before, "long" was left over as a concept (and the clause was read as a
    group of patients)."""
    result = extract(
        lexicon,
        "Tolvaptan may be considered in hyponatraemic HF, as long as serum sodium stays above "
        "120 mmol/L.",
    )
    assert not [c for c in result.concepts if "long" in c.text.lower()], result.concepts
    sodium = named(result)["serum sodium"]
    assert (sodium.operator, sodium.threshold) == (">", 120.0), sodium


def test_alone_or_in_combination_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "alone or in combination" says how the drugs named may be taken; before, "alone" and
    "combination" were two more drugs of the list."""
    result = extract(
        lexicon,
        "Do not use ticagrelor or prasugrel, alone or in combination, as a replacement for "
        "warfarin in patients with a mechanical valve.",
    )
    assert not [c for c in result.concepts if c.normalized in ("alone", "combination")], result
    assert {a.normalized for a in result.actions} == {"ticagrelor", "prasugrel"}, result.actions
