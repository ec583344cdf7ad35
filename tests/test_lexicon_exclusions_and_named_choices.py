"""A state an exception needs ruled out ("unless infection has been ruled out"), a
contraindication said with its strength ("unless absolutely contraindicated"), and an act
named as the choice to make ("X is the recommended intervention", "X is the first step"),
and words around the act that name no concept: a remark with a pronoun as its subject ("it
remains an option"), a place or a time the act is done at ("at an experienced centre", "at
24 h"), an adverb after the verb ("should not be used routinely in X"); an exception after a
group named by its grade ("in NYHA class IV unless ..."). Read by rule, in the
team's own sentences.
"""

from __future__ import annotations

import re

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "High-dose steroids are not recommended unless tuberculosis has been ruled out.",
            "tuberculosis ruled out",
        ),
        (
            "Immunosuppression is not recommended except when viral infection has been "
            "excluded by PCR on biopsy tissue.",
            "viral infection ruled out",
        ),
    ],
    ids=["unless", "except when, with the test"],
)
def test_an_exception_for_a_state_ruled_out_keeps_the_ruling_out(lexicon, text, state):
    # "unless X has been ruled out" is the contract's "unless X", read literally: the concept
    # is "X ruled out", negated (the row is for patients in whom X has not been ruled out),
    # one name whichever verb was written; the test that ruled it out names no criterion.
    result = named(extract(lexicon, text))
    assert state in result and result[state].negated, result
    assert not [n for n in result if "has been" in n or "pcr" in n], result


def test_a_state_excluded_before_the_act_is_absent(lexicon):
    # "once X has been excluded": the act waits for X to be absent, so X is negated.
    result = named(
        extract(
            lexicon,
            "Oral antibiotics may be considered once abscess has been excluded by repeat imaging.",
        )
    )
    assert result["abscess"].negated, result


def test_an_absolute_contraindication_keeps_its_strength(lexicon):
    # "unless absolutely contraindicated": only an absolute contraindication stops the act.
    result = named(
        extract(lexicon, "Thrombolysis is recommended unless absolutely contraindicated.")
    )
    assert result["absolute contraindication"].negated, result


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "In symptomatic severe MS, balloon valvotomy is the recommended intervention for "
            "patients with suitable anatomy.",
            "balloon valvotomy",
        ),
        (
            "Carotid sinus massage is the first step for stable regular tachycardia.",
            "carotid sinus massage",
        ),
        (
            "Beta-blockers are the recommended drugs for rate control in AF.",
            "beta-blocker",
        ),
        (
            "Echocardiography is the first diagnostic step in suspected heart failure.",
            "echocardiography",
        ),
        (
            "TAVI is the preferred initial strategy in patients aged over 80.",
            "transcatheter aortic valve implantation",
        ),
    ],
    ids=[
        "recommended intervention",
        "first step",
        "recommended drugs",
        "first diagnostic step",
        "preferred initial strategy",
    ],
)
def test_an_act_named_as_the_choice_is_the_recommended_act(lexicon, text, act):
    # "is the recommended intervention for …" recommends the act; the words are a verb
    # phrase, no part of its name, and what follows "for" is whom it is for.
    extraction = extract(lexicon, text)
    result = named(extraction)
    assert act in result, result
    assert [a.normalized for a in extraction.actions] == [act], extraction.actions


@pytest.mark.parametrize(
    "text",
    [
        "Routine thrombolysis should not be used in low-risk PE, though it remains a rescue "
        "option.",
        "Primary PCI is recommended if it can be delivered within 120 min of diagnosis.",
        "Dual RAS blockade is not recommended; it offers no benefit and raises potassium.",
    ],
    ids=["remains", "can be", "offers"],
)
def test_a_remark_with_a_pronoun_subject_is_no_concept(lexicon, text):
    # "it remains a rescue option" says something of the act the row already named; the
    # pronoun's clause is no state of the patients.
    result = named(extract(lexicon, text))
    assert not [n for n in result if re.search(r"\b(?:it|they)\b", n)], result


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "ICD implantation is recommended in relatives if they carry a pathogenic variant.",
            "variant",
        ),
        (
            "Urgent cardioversion is recommended in AF if it leads to haemodynamic instability.",
            "instability",
        ),
    ],
)
def test_a_criterion_said_of_a_pronoun_is_kept(lexicon, text, words):
    # "if they carry a variant", "if it leads to instability": what the clause names is the
    # row's criterion, whatever the pronoun stands for.
    result = named(extract(lexicon, text))
    assert [n for n in result if words in n], result


def test_a_state_said_of_a_pronoun_is_kept(lexicon):
    # "if it is expected to be tolerated": the clause names a criterion, whatever "it" is.
    result = named(
        extract(
            lexicon,
            "PFO closure is recommended during valve surgery if it is expected to be tolerated.",
        )
    )
    assert [n for n in result if "tolerated" in n], result


@pytest.mark.parametrize(
    "text",
    [
        "Transcatheter repair may be considered at an experienced valve centre.",
        "Screening for AF by pulse palpation is recommended at any healthcare contact.",
        "Troponin should be measured before surgery and at 24 and 48 h afterwards.",
    ],
    ids=["centre", "any contact", "a time"],
)
def test_a_place_or_a_time_the_act_is_done_at_is_no_concept(lexicon, text):
    # Where or when the act is done is no state of the patients and no act of its own.
    result = named(extract(lexicon, text))
    assert not [n for n in result if n.startswith("at ")], result


def test_at_risk_is_still_a_state(lexicon):
    result = named(
        extract(lexicon, "Counselling is recommended in women at risk of pre-eclampsia.")
    )
    assert [n for n in result if "risk of pre-eclampsia" in n], result


def test_an_adverb_after_the_verb_that_advises_against_is_part_of_it(lexicon):
    # "should not be used routinely in low-risk PE": "routinely" belongs to the verb, the
    # patients are those with low-risk PE.
    result = named(
        extract(lexicon, "Systemic thrombolysis should not be used routinely in low-risk PE.")
    )
    assert "low-risk pulmonary embolism" in result, result


def test_an_act_named_as_not_the_choice_is_advised_against(lexicon):
    extraction = extract(
        lexicon, "Beta-blockers are not the preferred initial drugs in uncomplicated hypertension."
    )
    assert [a.normalized for a in extraction.actions] == ["beta-blocker"], extraction.actions
    assert [a.polarity for a in extraction.actions] == ["not recommended"], extraction.actions


@pytest.mark.parametrize(
    "text",
    [
        "At hospital discharge, aspirin is recommended at the end of the first cycle of care.",
    ],
)
def test_a_time_that_names_something_after_of_is_left_to_the_rules_before(lexicon, text):
    # "at the end of the first cycle of care" names a stage after "of": not dropped whole.
    result = named(extract(lexicon, text))
    assert "aspirin" in result, result


@pytest.mark.parametrize(
    ("text", "lesions"),
    [
        (
            "Embolic protection filters should be considered for PCI of vein graft lesions.",
            "vein graft lesion",
        ),
        (
            "A two-stent technique may be considered for angioplasty of true bifurcation lesions.",
            "true bifurcation lesion",
        ),
    ],
)
def test_an_act_the_row_is_for_is_read_apart_from_the_lesions_it_treats(lexicon, text, lesions):
    # "for PCI of vein graft lesions": the act the recommendation is for, and the lesions the
    # patients have; two concepts, as the act alone is what the terminology names.
    result = named(extract(lexicon, text))
    assert result[lesions].role == "Condition", result
    assert not [n for n in result if n.endswith(f"of {lesions}")], result


def test_the_recommended_act_on_lesions_keeps_its_name(lexicon):
    # The recommended act itself is named whole: what it treats is part of what is done.
    result = named(
        extract(lexicon, "Revascularization of non-culprit lesions is not recommended in shock.")
    )
    assert "revascularization of non-culprit lesion" in result, result


@pytest.mark.parametrize(
    "text",
    [
        "Valve surgery is not advised in NYHA class IV unless the patient is frail.",
        "Valve surgery is not advised in stage IV disease unless the patient is frail.",
    ],
    ids=["class", "stage"],
)
def test_an_exception_after_a_graded_group_is_read_as_one(lexicon, text):
    # "unless the patient ..." opens a clause of its own, even where the patient noun comes
    # after a group named by its grade: the exception is what it excludes, negated, and its
    # word is no concept.
    result = named(extract(lexicon, text))
    assert "unless" not in result, result
    assert result["frail"].negated, result


def test_a_while_clause_after_a_graded_group_is_its_own(lexicon):
    # "while the patient is on dialysis" is a clause of its own too: its word is no concept.
    result = named(
        extract(
            lexicon, "Inotropes are not advised in NYHA class IV while the patient is on dialysis."
        )
    )
    assert "while" not in result, result
    assert "dialysis" in result, result
