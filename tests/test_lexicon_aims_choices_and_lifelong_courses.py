"""What an act brings told by a participle after the advice ("X is recommended in Y,
reducing symptoms"), an act named as the kind to choose ("X is the recommended
antithrombotic regimen"), a course given for life or with no end date ("aspirin for life"),
what a state comes with no sign of ("a bleed with no reversible cause"), and what a state
requires ("X requires emergency repair"). Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "aims"),
    [
        (
            "Tafamidis is recommended in amyloid cardiomyopathy, reducing symptoms, "
            "admissions and death.",
            {"symptom", "admission", "death"},
        ),
        ("Bisoprolol is indicated in stable angina, relieving chest pain.", {"chest pain"}),
    ],
    ids=["reducing", "relieving"],
)
def test_a_participle_after_the_advice_is_its_aim(lexicon, text, aims):
    # ", reducing X" after the advice says what the act is given for, as ", to reduce X"
    # does: outcomes, not states of the patients.
    result = named(extract(lexicon, text))
    assert {n for n, c in result.items() if c.role == "Outcome"} == aims, result


def test_a_gerund_that_opens_the_advice_stays_the_act(lexicon):
    # Before the advice is said, "reducing X" is the act itself, not an aim.
    result = extract(
        lexicon, "For stable survivors, reducing how often scans are repeated may be considered."
    )
    assert not [c for c in result.concepts if c.role == "Outcome"], result.concepts


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "Surgical repair is the preferred technique for severe mitral regurgitation.",
            "surgical repair",
        ),
        (
            "After valve implantation, aspirin is the recommended antithrombotic regimen.",
            "aspirin",
        ),
    ],
    ids=["technique", "regimen"],
)
def test_an_act_named_as_the_kind_to_choose_is_recommended(lexicon, text, act):
    # "the recommended antithrombotic regimen" recommends the act named before it, as "the
    # recommended regimen" does; the word for its kind names nothing of its own.
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions


def test_a_course_for_life_is_no_part_of_the_drug(lexicon):
    # "for life" says how long the drug is given, as "lifelong" does; "at high risk for life
    # threatening arrhythmia" keeps its words.
    assert "aspirin" in named(extract(lexicon, "Aspirin for life is advised after valve repair."))
    kept = named(
        extract(lexicon, "An ICD is advised in those at high risk for life threatening arrhythmia.")
    )
    assert "high risk for life threatening arrhythmia" in kept, kept


@pytest.mark.parametrize(
    "text",
    [
        "Oral anticoagulation with no planned stop date should be considered after an "
        "unprovoked embolism.",
        "Anticoagulation without a fixed end date is advised after unprovoked thrombosis.",
    ],
    ids=["with no", "without"],
)
def test_a_course_with_no_end_date_is_no_criterion(lexicon, text):
    # A drug given with no date to stop is given on indefinitely, as "lifelong" says: how
    # long, neither part of its name nor a thing the patients lack.
    result = extract(lexicon, text)
    assert not [c for c in result.concepts if "date" in c.normalized], result.concepts
    assert not [c for c in result.concepts if c.negated], result.concepts


@pytest.mark.parametrize(
    ("text", "has", "lacks"),
    [
        (
            "Closure may be considered after an intracranial bleed with no reversible cause.",
            "intracranial bleed",
            "reversible cause",
        ),
        (
            "An ICD is recommended in survivors of cardiac arrest that had no reversible cause.",
            "cardiac arrest",
            "reversible cause",
        ),
        (
            "Genetic follow-up is advised in carrier relatives who show no phenotype.",
            "carrier relative",
            "phenotype",
        ),
    ],
    ids=["with no", "that had no", "who show no"],
)
def test_what_a_state_comes_with_no_of_is_negated_apart(lexicon, text, has, lacks):
    # "a bleed with no reversible cause" is a bleed, and no reversible cause, as "without"
    # would say it: two concepts, the second negated.
    result = named(extract(lexicon, text))
    assert not result[has].negated, result
    assert result[lacks].negated, result


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "If a statin is considered in patients with CKD, improving adherence is recommended.",
            "improving adherence",
        ),
        (
            "Lifestyle changes are recommended in hypertension, such as stopping smoking, "
            "reducing salt intake and increasing physical activity.",
            "reducing salt intake",
        ),
    ],
    ids=["advice after it", "list of acts"],
)
def test_a_gerund_that_is_itself_advised_stays_an_act(lexicon, text, act):
    # A gerund followed by its own advice, or listed among acts after "such as", is something
    # done, not what the act brings.
    result = named(extract(lexicon, text))
    assert act in result and result[act].role != "Outcome", result


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "An ICD is advised in those at risk for life\u2010threatening arrhythmias.",
            "at risk for life\u2010threatening arrhythmia",
        ),
        (
            "ECMO may be considered for life support in refractory shock.",
            "life support in refractory shock",
        ),
    ],
    ids=["unicode hyphen", "life support"],
)
def test_for_life_before_what_it_qualifies_stays(lexicon, text, kept):
    # "for life-threatening" (with any dash) and "for life support" say what the act is for.
    assert kept in named(extract(lexicon, text))


@pytest.mark.parametrize(
    ("text", "state", "act"),
    [
        (
            "Acute type A aortic dissection requires emergency surgical repair.",
            "acute type a aortic dissection",
            "emergency surgical repair",
        ),
        (
            "Patients with prosthetic valve endocarditis require early surgery.",
            "prosthetic valve endocarditis",
            "early surgery",
        ),
    ],
    ids=["state", "patients"],
)
def test_what_a_state_requires_is_the_act(lexicon, text, state, act):
    # "X requires Y" advises Y for X, as "Y is recommended in X" does: the subject is the
    # state (or the patients with it), the object the act.
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert named(result)[state].role == "Condition", result.concepts


def test_a_group_that_requires_a_drug_is_no_verb_of_the_row(lexicon):
    # "in patients who require X" describes the patients; the row's own verb stays.
    result = extract(
        lexicon,
        "Echocardiography should be considered in patients who require long-term ponatinib.",
    )
    assert [a.normalized for a in result.actions] == ["echocardiography"], result.actions


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "Patients whose condition requires urgent surgery should receive bridging with "
            "unfractionated heparin.",
            "unfractionated heparin",
        ),
        (
            "Patients who still require oral anticoagulation after PCI should receive clopidogrel.",
            "clopidogrel",
        ),
    ],
    ids=["whose condition requires", "who still require"],
)
def test_requires_inside_a_clause_leaves_the_row_verb(lexicon, text, act):
    # A need the patients have, said in a relative clause, is no verb of the row: the act is
    # what "should receive" names.
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions


def test_what_the_act_itself_takes_is_no_act(lexicon):
    # "requires specific expertise" says what doing the act takes, not a second act.
    result = extract(
        lexicon,
        "TAVI in a bicuspid valve requires specific expertise and should be performed in "
        "experienced centres.",
    )
    assert "specific expertise" not in [a.normalized for a in result.actions], result.actions


def test_relatives_without_the_phenotype_as_the_subject_are_the_patients(lexicon):
    # "Relatives who show no phenotype should be offered X": the relatives are the patients,
    # the phenotype is what they lack, X the act.
    result = extract(
        lexicon,
        "Relatives who show no phenotype should be offered follow-up with echocardiography.",
    )
    found = named(result)
    assert found["phenotype"].negated, found
    assert not [a for a in result.actions if "relative" in a.normalized], result.actions


def test_a_participle_before_a_relative_clause_is_still_an_aim(lexicon):
    # "reducing mortality in those whose LVEF is 40% or less": the "is" belongs to the
    # relative clause, so the participle is the aim still.
    result = named(
        extract(
            lexicon,
            "Beta-blockers are recommended after infarction, reducing mortality in those whose "
            "LVEF is 40% or less.",
        )
    )
    assert result["mortality"].role == "Outcome", result


def test_the_score_a_value_is_scored_on_may_have_several_words(lexicon):
    # "the Duke Treadmill Score" is one name, read to its head.
    result = named(
        extract(
            lexicon,
            "Exercise testing is advised in patients scoring >5 on the Duke Treadmill Score.",
        )
    )
    assert result["duke treadmill score"].threshold == 5.0, result
