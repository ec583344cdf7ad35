"""A state that calls for an act, said with a verb other than "requires", and an act that "has
no place": each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "state", "act"),
    [
        # "X is an indication for Y", "X calls for / warrants / mandates Y": as with "X
        # requires Y", the state is whom the row is for and Y is the act recommended.
        (
            "Suspected tamponade is an indication for prompt pericardial drainage.",
            "suspected tamponade",
            "prompt pericardial drainage",
        ),
        (
            "Recurrent syncope with documented asystole calls for dual-chamber pacing.",
            "recurrent syncope",
            "dual-chamber pacing",
        ),
        (
            "Failure of two antiarrhythmic drugs warrants catheter ablation.",
            "failure of two antiarrhythmic drug",
            "catheter ablation",
        ),
        (
            "Organ damage mandates drug treatment of grade 1 hypertension.",
            "organ damage",
            "drug treatment",
        ),
    ],
)
def test_a_state_that_calls_for_an_act_names_both(lexicon, sentence, state, act):
    result = extract(lexicon, sentence)
    concepts = named(result)
    assert state in concepts and concepts[state].role == "Condition", concepts
    assert [a.normalized for a in result.actions] == [act], result.actions


def test_there_is_an_indication_stays_a_clause(lexicon):
    # "If there is an indication for X, Y is recommended": the row's act is Y (a guard).
    result = extract(
        lexicon, "If there is an indication for mitral surgery, LAA closure is recommended."
    )
    assert [a.normalized for a in result.actions] == ["left atrial appendage closure"]


def test_an_act_with_no_place_is_advised_against(lexicon):
    # "X has no place in the treatment of Y": like "has no role", X is not to be used, and Y
    # is the disease it would be for.
    result = extract(lexicon, "Statins have no place in the treatment of acute pericarditis.")
    assert [(a.normalized, a.polarity) for a in result.actions] == [("statin", "not recommended")]
    assert named(result)["acute pericarditis"].role == "Condition"


def test_in_the_treatment_of_names_the_disease(lexicon):
    # "considered in the treatment of X": what the act is for, read as "for the treatment of X".
    result = named(
        extract(lexicon, "CBT may be considered in the treatment of psychogenic pseudosyncope.")
    )
    assert "psychogenic pseudosyncope" in result, result
    assert not any(name.startswith("treatment of") for name in result), result


def test_a_second_framing_verb_names_nothing(lexicon):
    # "X has no place in Y and is not recommended": the second verb says the same again.
    result = named(
        extract(
            lexicon,
            "Beta-blockers have no place in the treatment of vasovagal syncope and are not "
            "recommended.",
        )
    )
    assert not any("recommended" in name for name in result), result


# A review's mends (each guard fails on a263f05, the version it mends).


@pytest.mark.parametrize(
    "sentence",
    [
        # A need hedged or denied recommends nothing: "rarely warrants", "seldom calls for",
        # "not sufficient to warrant", "does not by itself warrant", "warrants neither A nor B".
        "Mild pulmonary hypertension rarely warrants specific therapy.",
        "A small pericardial effusion seldom calls for pericardiocentesis.",
        "A single elevated blood pressure reading is not sufficient to warrant drug treatment.",
        "A positive troponin does not by itself warrant coronary angiography.",
        "Asymptomatic severe AS with LVEF <50% warrants neither watchful waiting nor delayed "
        "surgery.",
        # ... and what the act itself takes is no act: "increased caution", "experienced
        # operators".
        "Concomitant use of verapamil and beta-blockers warrants increased caution.",
        "Lead extraction calls for experienced operators and on-site cardiac surgery.",
    ],
)
def test_a_hedged_or_denied_need_recommends_no_act(lexicon, sentence):
    result = extract(lexicon, sentence)
    recommended = {a.normalized for a in result.actions if a.polarity == "recommended"}
    assert not recommended & {
        "specific therapy",
        "pericardiocentesis",
        "drug treatment",
        "coronary angiography",
        "delayed surgery",
        "increased caution",
        "operator",
        "experienced operator",
    }, result.actions


def test_an_act_that_no_longer_has_a_place_is_advised_against(lexicon):
    # "X no longer has a place in Y": as "has no place", advice against X.
    result = extract(
        lexicon, "Quinidine no longer has a place in the treatment of atrial fibrillation."
    )
    assert [(a.normalized, a.polarity) for a in result.actions] == [
        ("quinidine", "not recommended")
    ]


@pytest.mark.parametrize(
    ("sentence", "group"),
    [
        # "in / for the treatment of pregnant women with X": the women are the row's patients.
        (
            "Beta-blockers are recommended in the treatment of pregnant women with long QT "
            "syndrome.",
            "pregnant women",
        ),
        ("IVIG is recommended for the treatment of children with Kawasaki disease.", "children"),
    ],
)
def test_the_patients_treated_are_kept(lexicon, sentence, group):
    assert group in named(extract(lexicon, sentence))


def test_a_risk_justified_is_no_act(lexicon):
    # "the benefit justifies the bleeding risk": a weighing of the act, nothing recommended.
    result = extract(
        lexicon,
        "The expected benefit of anticoagulation justifies the bleeding risk in most patients.",
    )
    assert not any("risk" in a.normalized for a in result.actions), result.actions


# A third review's mends (each guard fails on 7b373a2, the version it mends).


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        # "X does not by itself warrant Y", "rarely calls for Y", "requires no Y": the need
        # denied is advice against Y for the state X.
        (
            "An isolated raised troponin does not by itself warrant coronary angiography.",
            "coronary angiography",
        ),
        (
            "Sinus bradycardia in athletes rarely calls for pacemaker implantation.",
            "pacemaker implantation",
        ),
        ("A small pericardial effusion requires no specific treatment.", "specific treatment"),
    ],
)
def test_a_need_denied_advises_against_the_act(lexicon, sentence, act):
    result = extract(lexicon, sentence)
    assert (act, "not recommended") in [(a.normalized, a.polarity) for a in result.actions]


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        # "risk stratification", "a risk-reducing ICD": acts, whatever the word "risk" in them.
        (
            "ACS in a patient with diabetes warrants risk stratification with the GRACE score.",
            "risk stratification",
        ),
        (
            "A family history of sudden death justifies risk-reducing ICD implantation.",
            "risk-reducing implantable cardioverter defibrillator implantation",
        ),
    ],
)
def test_an_act_named_with_risk_is_still_an_act(lexicon, sentence, act):
    result = extract(lexicon, sentence)
    assert act in [a.normalized for a in result.actions], result.actions


# A fourth review's mends (each guard fails on 784975c, the version it mends).


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        # A need denied inside a lead or relative clause, or beside a second need after
        # "but", is no advice against: the main clause's need is the row's.
        (
            "If the patient does not require oral anticoagulation, PCI with a drug-eluting stent "
            "requires 12 months of dual antiplatelet therapy.",
            "dual antiplatelet therapy",
        ),
        (
            "Chronic total occlusion does not require routine revascularization but requires "
            "optimal medical therapy.",
            "optimal medical therapy",
        ),
        (
            "Patients who underwent PCI for stable disease and do not require anticoagulation "
            "require 6 months of dual antiplatelet therapy.",
            "dual antiplatelet therapy",
        ),
    ],
)
def test_a_need_denied_elsewhere_leaves_the_main_need(lexicon, sentence, act):
    result = extract(lexicon, sentence)
    assert (act, "recommended") in [(a.normalized, a.polarity) for a in result.actions]


@pytest.mark.parametrize(
    "sentence",
    [
        # "requires no or minimal sedation", "the diagnosis requires no evidence of X": a
        # degree and a criterion, no act advised against.
        "TAVI under local anaesthesia requires no or minimal sedation.",
        "The diagnosis of takotsubo syndrome requires no evidence of obstructive coronary disease.",
    ],
)
def test_a_degree_or_a_criterion_is_no_act_advised_against(lexicon, sentence):
    result = extract(lexicon, sentence)
    assert not any(a.polarity == "not recommended" for a in result.actions), result.actions
