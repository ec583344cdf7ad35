"""A drug named after its class ("the cardiac myosin inhibitor mavacamten"), an exception
before the patients who are the subject ("Unless contraindicated, every patient with X should
receive Y"), "whether or not" anywhere, a state that "causes no symptoms", criteria "defined
by", where patients are managed, an act's standing among the choices ("as primary
treatment"), "one of which is", a purpose to suppress something, "X occurs with Y", and an
option of a named kind. Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("lead", "drugs"),
    [
        ("the cardiac myosin inhibitor mavacamten", {"mavacamten"}),
        (
            "the non-dihydropyridine calcium-channel blockers verapamil and diltiazem",
            {"verapamil", "diltiazem"},
        ),
    ],
)
def test_a_drug_named_after_its_class_is_the_drug(lexicon, lead, drugs):
    # The class before a drug's own name only says what the drug is: the drug is the concept,
    # and no concept keeps the class's words.
    result = extract(lexicon, f"In obstructive HCM, {lead} may be considered.")
    names = named(result)
    assert drugs <= set(names), result
    assert not any("inhibitor" in n or "blocker" in n for n in names), result


def test_a_class_before_a_generic_word_stays_the_class(lexicon):
    # "P2Y12 inhibitor therapy": "therapy" names no drug; the class is the concept.
    result = extract(lexicon, "P2Y12 inhibitor therapy is recommended after stenting.")
    assert any("p2y12 inhibitor" in c.normalized for c in result.concepts), result


def test_an_exception_before_the_patients_who_are_the_subject(lexicon):
    # "Unless contraindicated, every patient with X should receive Y": the exception is
    # denied, the patients are who the row is for, and no word of "every" is a concept.
    result = extract(
        lexicon,
        "Unless contraindicated, every patient with HFmrEF should receive a diuretic for "
        "congestion.",
    )
    names = named(result)
    assert names["contraindication"].negated, result
    assert names["diuretic"].role == "Medication", result
    assert not any(c.normalized in {"every", "every patient"} for c in result.concepts), result


@pytest.mark.parametrize(
    "tail",
    [
        "and whether or not diabetes is present",
        "whether or not they have diabetes",
    ],
)
def test_whether_or_not_holds_either_way_wherever_it_stands(lexicon, tail):
    # "whether or not X": the row holds either way, so X is no criterion of it.
    result = extract(lexicon, f"An SGLT2 inhibitor is recommended in HFrEF {tail}.")
    assert not any("diabetes" in c.normalized for c in result.concepts), result
    assert not any(c.normalized == "whether" for c in result.concepts), result


def test_a_schedule_said_of_two_drugs_leaves_no_verb(lexicon):
    # ", each given as 10 mg once a day": the dose and schedule go, and so does the verb.
    result = extract(
        lexicon,
        "An SGLT2 inhibitor (dapagliflozin or empagliflozin, each given as 10 mg once a day) is "
        "recommended in HFrEF.",
    )
    assert not any("given" in c.normalized for c in result.concepts), result


def test_a_state_that_causes_no_symptoms_is_without_them(lexicon):
    # "when bradycardia causes no symptoms": the bradycardia, the symptoms denied.
    result = named(
        extract(
            lexicon,
            "Pacing is not recommended when sinus bradycardia causes no symptoms.",
        )
    )
    assert result["sinus bradycardia"].negated is False, result
    assert result["symptom"].negated, result


def test_criteria_defined_by_values_are_named_without_the_verb(lexicon):
    # "severe stenosis, defined by an area ≤1.0 cm² or a velocity ≥4 m/s": the criteria
    # are the parameters; "defined" names nothing.
    result = extract(
        lexicon,
        "Intervention is recommended in severe aortic stenosis, defined by a valve area "
        "≤1.0 cm² or a peak velocity ≥4.0 m/s.",
    )
    assert not any("defined" in c.normalized for c in result.concepts), result
    assert any(c.operator == "<=" and c.threshold == 1.0 for c in result.concepts), result


def test_where_patients_are_managed_is_no_state_of_theirs(lexicon):
    # "inoperable patients managed at a valve centre": where they are cared for says
    # nothing about them.
    result = extract(
        lexicon,
        "Transcatheter repair may be considered in inoperable patients managed at an expert "
        "valve centre.",
    )
    assert not any("managed" in c.normalized for c in result.concepts), result


@pytest.mark.parametrize(
    "standing", ["as the mode of intervention", "as primary treatment", "as first-line therapy"]
)
def test_an_acts_standing_among_the_choices_is_no_concept(lexicon, standing):
    # "recommended as primary treatment for patients with X": the standing of the act; the
    # act and the patients are the concepts.
    result = extract(
        lexicon, f"Surgical myectomy is recommended {standing} for patients with obstructive HCM."
    )
    names = named(result)
    assert "surgical myectomy" in names, result
    assert not any(
        n in {"mode of intervention", "primary treatment", "first-line therapy"} for n in names
    ), result


def test_treatment_of_a_disease_is_kept(lexicon):
    # "as treatment of AVNRT" names the disease treated: the rule leaves it.
    result = extract(lexicon, "Slow-pathway ablation is advised as first-line therapy for AVNRT.")
    assert any("atrioventricular nodal" in c.normalized for c in result.concepts), result


def test_one_of_which_is_names_the_one(lexicon):
    # "three drugs, one of which is a diuretic": the diuretic is among them, named alone.
    result = named(
        extract(
            lexicon,
            "Eplerenone may be added when BP remains high on three drugs, one of which is a "
            "thiazide diuretic.",
        )
    )
    assert "thiazide diuretic" in result, result


def test_a_purpose_to_suppress_something_is_an_outcome(lexicon):
    # "to suppress lactation and improve recovery": both are what the act is for ("to stop
    # X" is not read so: "the need / a plan to stop warfarin" names a drug, not a goal).
    result = named(
        extract(
            lexicon,
            "Cabergoline may be considered in PPCM to suppress lactation and improve LV recovery.",
        )
    )
    assert result["lactation"].role == "Outcome", result
    assert result["peripartum cardiomyopathy"].role == "Condition", result


def test_a_state_that_occurs_with_another_names_both(lexicon):
    # "where AF occurs with pre-excitation": both states hold; "occurs" names nothing.
    result = named(
        extract(lexicon, "Where AF occurs with pre-excitation, adenosine must be avoided.")
    )
    assert {"atrial fibrillation", "pre-excitation"} <= set(result), result


def test_an_option_of_a_named_kind_is_still_the_recommending_verb(lexicon):
    # "X is a reasonable first-line rhythm-control option in Y": X is the act.
    result = extract(
        lexicon,
        "Cryoballoon ablation is a reasonable first-line rhythm-control option in patients "
        "with paroxysmal AF.",
    )
    assert [a.text for a in result.actions] == ["Cryoballoon ablation"], result


def test_what_the_choice_between_acts_weighs_is_no_criterion(lexicon):
    # ", with the choice guided by symptoms and comorbidity": how to choose among the acts,
    # not whom the row is for (a guard: with the act's standing, "as first-line therapy",
    # dropped, the clause must not be read as the patients').
    result = extract(
        lexicon,
        "A beta-blocker or digoxin is recommended as first-line therapy, with the choice guided "
        "by comorbidity and side effects.",
    )
    assert not any(
        "comorbidit" in c.normalized or "side effect" in c.normalized for c in result.concepts
    ), result


def test_a_dose_given_once_or_twice_daily_by_weight_leaves_nothing(lexicon):
    # "(0.5 mg once or twice daily, by body weight)": the dose, its schedule and how it is
    # chosen; none is a concept, and no parameter of weight is read from it.
    result = extract(
        lexicon,
        "Colchicine (0.5 mg once or twice daily, by body weight) is recommended in recurrent "
        "pericarditis.",
    )
    assert {c.normalized for c in result.concepts} == {"colchicine", "recurrent pericarditis"}, (
        result
    )


@pytest.mark.parametrize(
    "reason",
    [
        "because of their teratogenic potential",
        "because of the danger of severe hypotension",
        "because of the potential for bleeding",
    ],
)
def test_a_danger_given_as_the_reason_is_no_concept(lexicon, reason):
    # A harm the act might do, given as why it is advised against, is no goal and no state.
    result = extract(lexicon, f"Riociguat must not be given with nitrates {reason}.")
    assert {c.normalized for c in result.concepts} == {"riociguat", "nitrate"}, result


def test_a_drug_co_prescribed_with_another_names_both(lexicon):
    # "X must not be co-prescribed with Y": both drugs, no verb in either name.
    result = named(extract(lexicon, "Nitrates must not be co-prescribed with PDE5 inhibitors."))
    assert {"nitrate", "pde5 inhibitor"} <= set(result), result
    assert not any("prescribed" in n for n in result), result


@pytest.mark.parametrize("means", ["with a validated tool", "using a standardised questionnaire"])
def test_a_generic_instrument_of_an_assessment_is_no_concept(lexicon, means):
    # "assessed with a validated tool": how it is assessed; the instrument names nothing
    # (the examples after it, if any, would).
    result = extract(
        lexicon, f"Frailty assessment {means} is recommended in adults aged 75 years or more."
    )
    assert not any(
        "tool" in c.normalized or "questionnaire" in c.normalized for c in result.concepts
    ), result
    assert any("frailty" in c.normalized for c in result.concepts), result
