"""Patients as the subject of a care verb ("should be anticoagulated", "should be transferred
to a centre"), a relative clause whose "who" is said once for two verbs ("who are A or are not
B"), a disease that "presents with" a finding, "if neither A nor B", and a value given for one
sex after the disease it is read in. Read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_a_value_given_for_one_sex_keeps_the_disease_before_it(lexicon):
    # "In AF with a CHA2DS2-VASc of 3 or more in women": the value is the one for women, and
    # the words before "in women" are the patients' own (their disease and the score), not
    # an act done in women.
    result = extract(
        lexicon,
        "In AF with a CHA2DS2-VASc of ≥2 in men or ≥3 in women, a DOAC is recommended.",
    )
    names = named(result)
    assert names["atrial fibrillation"].role == "Condition", result
    assert {"men", "women"} <= set(names), result


def test_an_act_done_in_a_group_stays_the_act(lexicon):
    # Without a value before "in women", the words before it are what is done in them.
    result = named(extract(lexicon, "Catheter ablation in women with AF is recommended."))
    assert result["catheter ablation"].role == "Procedure", result
    assert "atrial fibrillation" in result, result


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        ("Patients with atrial flutter should be anticoagulated.", "anticoagulation"),
        (
            "Patients in cardiogenic shock should be transferred without delay to a centre "
            "offering mechanical circulatory support.",
            "transfer",
        ),
        ("Patients with intermediate-risk features should be observed in the ED.", "observation"),
    ],
)
def test_patients_as_the_subject_of_a_care_verb_name_the_act_by_its_noun(lexicon, sentence, act):
    # The patients are who the row is for; what is done to them ("anticoagulated",
    # "transferred to", "observed in") is the act, named by its noun, with where to or in.
    result = extract(lexicon, sentence)
    assert any(c.normalized.startswith(act) for c in result.concepts), result
    assert any(a.text.lower().startswith(act) for a in result.actions), result
    assert not any(c.normalized.startswith("patients") for c in result.concepts), result


def test_being_referred_to_a_centre_is_a_referral(lexicon):
    # "referred to a heart team": the referral there is the act; the place alone is none.
    result = named(
        extract(
            lexicon, "Patients with severe mitral regurgitation should be referred to a heart team."
        )
    )
    assert "referral to a heart team" in result, result


def test_being_referred_for_an_act_names_the_act(lexicon):
    # "referred for cardiac rehabilitation": the rehabilitation is what they are sent for.
    result = named(
        extract(lexicon, "Patients after CABG should be referred for cardiac rehabilitation.")
    )
    assert result["cardiac rehabilitation"].role == "Procedure", result


@pytest.mark.parametrize(
    ("clause", "first", "second", "second_negated"),
    [
        (
            "who are planning a pregnancy or are not using contraception",
            "planning a pregnancy",
            "contraception",
            True,
        ),
        (
            "who have aortic dilatation or are planning pregnancy",
            "aortic dilatation",
            "planning pregnancy",
            False,
        ),
        (
            "who are survivors of cardiac arrest or have sustained VT",
            "survivors of cardiac arrest",
            "sustained ventricular tachycardia",
            False,
        ),
    ],
)
def test_a_who_said_once_for_two_verbs_gives_alternatives(
    lexicon, clause, first, second, second_negated
):
    # "who are A or are not B": one "who" for both verbs; the patients meet either, so the
    # two share one OR label (the second denied where its verb is).
    result = extract(lexicon, f"An expert review is recommended in women {clause}.")
    found = {c.normalized: c for c in result.concepts}
    one = next(c for n, c in found.items() if first in n)
    two = next(c for n, c in found.items() if second in n)
    assert one.or_group and one.or_group == two.or_group, result
    assert two.negated is second_negated, result


def test_or_with_a_verb_but_no_who_before_it_opens_no_clause(lexicon):
    # Without a "who" earlier, "or have" is no second relative clause: nothing is split there.
    result = extract(
        lexicon, "Aspirin is recommended in patients with angina or have had a stent implanted."
    )
    assert any("angina" in c.normalized for c in result.concepts), result


def test_a_disease_that_presents_with_a_finding_names_both(lexicon):
    # "when syncope presents with chest pain": the syncope and what it comes with; the verb
    # names nothing.
    result = named(
        extract(lexicon, "Admission is recommended when syncope presents with new chest pain.")
    )
    assert {"syncope", "new chest pain"} <= set(result), result


def test_a_disease_that_presents_in_patients_with_a_state(lexicon):
    result = named(
        extract(
            lexicon,
            "Echocardiography is recommended when syncope presents in patients with a murmur.",
        )
    )
    assert {"syncope", "murmur"} <= set(result), result


def test_the_forms_a_state_presents_as_are_its_examples(lexicon):
    # "whether it presents as A or B" names the forms the state takes: alternatives, kept
    # (unlike "whether A or B" after a state, which holds either way and names nothing).
    result = extract(
        lexicon,
        "Urgent reperfusion is recommended for high-risk PE, whether it presents as cardiac "
        "arrest or as obstructive shock.",
    )
    names = named(result)
    assert names["cardiac arrest"].or_group, result
    assert names["cardiac arrest"].or_group == names["obstructive shock"].or_group, result


def test_if_neither_of_two_is_found_both_are_denied_as_one_group(lexicon):
    # "if neither A nor B is seen": the clause holds when no A or B is, NOT(OR(A, B)).
    result = named(
        extract(
            lexicon,
            "If neither thrombus nor vegetation is seen on TOE, early cardioversion may be "
            "considered.",
        )
    )
    assert result["thrombus"].negated and result["vegetation"].negated, result
    assert result["thrombus"].or_group, result
    assert result["thrombus"].or_group == result["vegetation"].or_group, result


def test_patients_transferred_for_an_act_are_given_the_act(lexicon):
    # "to be transferred for coronary angiography": the angiography is what they are sent
    # for, the act (the transfer only takes them there).
    result = extract(
        lexicon,
        "After lysis in a hospital without a catheter laboratory, every patient with STEMI is "
        "recommended to be transferred for coronary angiography.",
    )
    assert [a.normalized for a in result.actions] == ["coronary angiography"], result
