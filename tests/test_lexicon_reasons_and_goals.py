"""Clauses that give a reason or say either way, and goals named as a noun: read by rule,
in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_act_and_no_word, extract, named


@pytest.mark.parametrize(
    ("text", "act", "word"),
    [
        (
            "Statin therapy should be considered in kidney transplant recipients, as usual "
            "risk charts underestimate their risk.",
            "statin",
            "charts",
        ),
        (
            "Cardiac rehabilitation is recommended after valve surgery, as exercise capacity "
            "does not recover without training.",
            "cardiac rehabilitation",
            "capacity",
        ),
    ],
)
def test_as_opening_a_clause_of_its_own_gives_a_reason(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str, word: str
) -> None:
    """ "…, as <something> <verb> …" to the sentence's end says why the act is advised, not
    whom it is for: no concept (before, the whole clause was read as a condition)."""
    assert_one_act_and_no_word(lexicon, text, act, word)


def test_as_without_a_clause_is_not_a_reason(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "as in X" and "as indicated by X" open no clause: X stays a concept of the row."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation, as in atrial fibrillation, is recommended in patients with "
            "atrial flutter.",
        )
    )
    assert "atrial fibrillation" in found, found


def test_whether_a_or_b_says_either_way(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ ", whether A or B": the row holds in both cases, like "regardless of"; neither case is
    a condition, and the clause ends at its comma (the main clause after it stays)."""
    result = extract(
        lexicon,
        "In confirmed pacemaker pocket infection, whether the generator is exposed or "
        "covered, complete system extraction is recommended.",
    )
    found = named(result)
    assert [a.normalized for a in result.actions] == ["complete system extraction"], found
    assert not any("generator" in c.text or "covered" in c.text for c in result.concepts)


def test_a_bridge_to_recovery_or_decision_is_what_the_act_is_for(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "as a bridge to recovery" names no act to come, unlike "a bridge to transplantation":
    it is the act's stated goal, an Outcome."""
    found = named(
        extract(
            lexicon,
            "In refractory cardiogenic shock, extracorporeal life support may be considered "
            "as a bridge to recovery.",
        )
    )
    assert found["bridge to recovery"].role == "Outcome", found
    found = named(
        extract(
            lexicon,
            "A left ventricular assist device should be considered as a bridge to "
            "transplantation in eligible patients.",
        )
    )
    assert found["transplantation"].role == "Procedure", found


def test_an_organ_protection_after_for_is_a_goal(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for cardioprotection", "for renoprotection": the organ joined to "protection" is a
    goal like "for stomach protection", an Outcome rather than a condition."""
    found = named(
        extract(
            lexicon,
            "An ACE inhibitor may be considered for cardioprotection in women receiving "
            "trastuzumab.",
        )
    )
    assert found["cardioprotection"].role == "Outcome", found


@pytest.mark.parametrize(
    ("text", "finding"),
    [
        (
            "Exercise testing should be considered in the work-up of suspected vasospastic angina.",
            "suspected vasospastic angina",
        ),
        (
            "Cardiac MRI is recommended for the assessment of myocardial fibrosis in "
            "patients with aortic stenosis.",
            "myocardial fibrosis",
        ),
    ],
)
def test_in_the_assessment_of_x_names_x(lexicon, text: str, finding: str) -> None:  # type: ignore[no-untyped-def]
    """ "in / for the assessment (evaluation, work-up) of X": X is what the test looks into,
    a finding of its own; "assessment of X" is no second act (before, it was read as one)."""
    result = extract(lexicon, text)
    found = named(result)
    assert found[finding].role == "Condition", found
    assert not any("assessment" in n or "work-up" in n for n in found), found


def test_in_the_evaluation_of_patients_is_still_a_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in the evaluation of patients with X": the patients are the cohort, X their state."""
    found = named(
        extract(
            lexicon,
            "Prolonged rhythm recording is advised in the evaluation of patients with "
            "suspected sinus node disease.",
        )
    )
    assert "suspected sinus node disease" in found, found


def test_what_the_patients_lack_after_an_aim_is_theirs(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… in the work-up of X without Y": X is what the work-up is of, and Y is absent in the
    patients (negated), not a part of what is looked into."""
    found = named(
        extract(
            lexicon,
            "A loop recorder is recommended in the work-up of unexplained palpitations "
            "without structural heart disease.",
        )
    )
    assert found["unexplained palpitation"].role == "Condition", found
    assert found["structural heart disease"].negated, found


@pytest.mark.parametrize(
    ("text", "act", "word"),
    [
        (
            "Aspirin is not recommended for primary prevention in people without diabetes, as "
            "the risk of major bleeding is high.",
            "aspirin",
            "bleeding",
        ),
        (
            "Exercise training is recommended in stable heart failure, as regular training "
            "reduces hospital admissions.",
            "exercise training",
            "admission",
        ),
    ],
)
def test_as_with_a_clause_of_state_or_effect_gives_a_reason(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str, word: str
) -> None:
    """ "…, as <subject> is high / reduces X": a clause with a verb of its own to the end of
    the sentence is why the act is advised; its words name no patients (before, "high risk of
    bleeding" became a condition of the row, negated with the "without" group before it)."""
    assert_one_act_and_no_word(lexicon, text, act, word)


def test_whether_a_or_b_opening_the_sentence_says_either_way(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Whether symptomatic or not, patients with X should undergo Y": the patients with X
    are the cohort, Y the act; neither case opening the sentence is a concept."""
    result = extract(
        lexicon,
        "Whether symptomatic or not, patients with a dilated ascending aorta above 55 mm "
        "should undergo surgery.",
    )
    assert [a.normalized for a in result.actions] == ["surgery"], result.actions
    assert not any("symptomatic" in c.text for c in result.concepts), result.concepts


def test_an_aims_own_without_stays_in_the_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to detect AF without symptoms": silent AF is what the test looks for, not a lack the
    patients must have (only a work-up's "without" is said of the patients)."""
    result = extract(
        lexicon,
        "Prolonged ECG monitoring is recommended to detect atrial fibrillation without "
        "symptoms in patients with a cryptogenic stroke.",
    )
    assert not any(c.negated for c in result.concepts), result.concepts
    assert any("atrial fibrillation" in c.normalized for c in result.concepts), result.concepts


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Aspirin may be considered, as adjunctive therapy to reduce the risk of stroke.",
            "stroke",
        ),
        (
            "Statins are recommended, as primary prevention in patients who are at high risk "
            "of CVD.",
            "high risk of cardiovascular disease",
        ),
        (
            "Ezetimibe is recommended in patients with diabetes, as LDL-C may remain above "
            "1.8 mmol/L on a statin.",
            "diabetes mellitus",
        ),
    ],
)
def test_as_without_a_clause_of_its_own_keeps_its_concepts(  # type: ignore[no-untyped-def]
    lexicon, text: str, kept: str
) -> None:
    """ "as adjunctive therapy to reduce X", "as primary prevention in patients who …" name
    no reason: what they say stays; a decimal in a reason does not end it early."""
    found = named(extract(lexicon, text))
    assert kept in found, found
    assert not any(".8" in name for name in found), found


def test_whether_covers_a_list_of_cases_but_not_a_choice_of_acts(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "whether paroxysmal, persistent or permanent" lists cases, either way; "whether to use
    CT or MRI" is a choice between acts, and the acts stay."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is recommended in atrial fibrillation, whether paroxysmal, "
            "persistent or permanent.",
        )
    )
    assert not any("paroxysmal" in name or "persistent" in name for name in found), found
    found = named(
        extract(
            lexicon,
            "Imaging of the aorta is recommended, whether to use CT or MRI being decided locally.",
        )
    )
    assert "computed tomography" in found, found


def test_allowing_x_after_the_act_is_its_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ ", allowing X": what the act makes possible, an Outcome as after "to allow"; "allowing
    for X" (taking X into account) is no aim."""
    found = named(
        extract(
            lexicon,
            "Radial access is recommended for coronary angiography, allowing earlier mobilisation.",
        )
    )
    assert found["earlier mobilisation"].role == "Outcome", found


def test_a_time_in_brackets_after_the_act_is_how_soon_it_is_done(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "emergency coronary angiography (<2 h)": the bracket holds only how soon the act is
    done, a target named "time to <act>"; a dose in brackets stays no parameter."""
    found = named(
        extract(
            lexicon,
            "Emergency coronary angiography (<2 h) is recommended in patients with refractory "
            "angina.",
        )
    )
    timing = found["time to emergency coronary angiography"]
    assert (timing.role, timing.operator, timing.threshold, timing.unit) == (
        "ClinicalParameter",
        "<",
        2.0,
        "h",
    ), timing
    found = named(extract(lexicon, "Aspirin (75 mg) is recommended in stable angina."))
    assert not any(c.role == "ClinicalParameter" for c in found.values()), found
