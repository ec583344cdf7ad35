"""What a cohort phrase names before and around its patients: a procedure the row is about
("in <procedure> in patients with …"), read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "procedure", "state"),
    [
        (
            "In valve surgery in patients with active endocarditis, intraoperative "
            "transoesophageal echocardiography is recommended.",
            "valve surgery",
            "active endocarditis",
        ),
        (
            "In device implantations in patients with renal failure, a single dose of "
            "cefazolin is recommended.",
            "device implantation",
            "renal failure",
        ),
    ],
)
def test_a_procedure_before_in_patients_is_the_procedure_they_undergo(  # type: ignore[no-untyped-def]
    lexicon, text: str, procedure: str, state: str
) -> None:
    """ "In X in patients with Y": X is what is done to those patients (a procedure read as
    the row's setting, like "undergoing X"), not a word describing them; before, X was read as
    one of their conditions."""
    found = named(extract(lexicon, text))
    assert found[procedure].role == "Procedure", found[procedure]
    assert found[state].role == "Condition"


def test_an_adverb_of_selected_goes_with_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "carefully selected patients" are "selected patients": which ones the row leaves to
    judgement, so neither word is part of the group's condition."""
    found = named(
        extract(
            lexicon,
            "Same-day discharge may be considered in carefully selected low-risk patients "
            "after elective PCI.",
        )
    )
    assert "low-risk" in found, found
    assert not any("selected" in name for name in found)


@pytest.mark.parametrize(
    ("text", "act", "group"),
    [
        (
            "Smokers should be offered nicotine replacement therapy.",
            "nicotine replacement",
            "smoker",
        ),
        (
            "Every woman with a mechanical valve should receive counselling on anticoagulation.",
            "counselling",
            "woman",
        ),
    ],
)
def test_people_named_as_the_subject_are_the_cohort(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str, group: str
) -> None:
    """ "Smokers should be offered X", "Every woman with Y should receive X": the people are
    who the row is for and X is the act (before, the people themselves were the act, since
    only "patients"-like nouns were read as a subject cohort); "every" names no one."""
    result = extract(lexicon, text)
    acts = [a.normalized for a in result.actions]
    assert any(act in name for name in acts), acts
    found = named(result)
    assert found[group].role == "Condition", found
    assert not any("every" in name for name in found)


@pytest.mark.parametrize("verb", ["be given", "be offered"])
def test_what_the_patients_should_not_be_given_is_the_act(lexicon, verb: str) -> None:  # type: ignore[no-untyped-def]
    """ "Patients with X should not be given Y": advice against is read like advice for, Y
    the act (not recommended) and X the cohort. Before, only the positive form was read so
    and the row had no act."""
    result = extract(lexicon, f"Adults with heart failure should not {verb} glitazones.")
    assert [a.normalized for a in result.actions] == ["glitazone"], result.actions
    assert result.actions[0].polarity == "not recommended", result.actions
    assert named(result)["heart failure"].role == "Condition"


def test_advice_against_withholding_is_no_advice_against_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "should not be withheld anticoagulation" advises for the drug; it must never
    come out as an act not recommended."""
    result = extract(lexicon, "Adults with AF should not be withheld anticoagulation.")
    against = [a for a in result.actions if a.polarity == "not recommended"]
    assert not [a for a in against if a.normalized == "anticoagulation"], result.actions


def test_before_discharge_times_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "before (hospital) discharge" says when the act is done, not what the patients have:
    no concept."""
    for text in (
        "Cardiac rehabilitation referral is recommended in patients with acute myocardial "
        "infarction before hospital discharge.",
        "Cardiac rehabilitation referral is recommended prior to discharge from hospital in "
        "patients with acute myocardial infarction.",
    ):
        result = extract(lexicon, text)
        assert "acute myocardial infarction" in named(result), result.concepts
        assert not any("discharge" in c.text for c in result.concepts), result.concepts


def test_a_preposition_left_at_a_span_start_is_not_part_of_the_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(at rest or on exercise testing)": once the alternatives are read apart, "on" only
    said where the symptom shows; the test is named "exercise testing"."""
    found = named(
        extract(
            lexicon,
            "Surgery is recommended in patients with angina (at rest or on exercise testing) "
            "and a mean gradient of 40 mmHg or more.",
        )
    )
    assert "exercise testing" in found, found
    assert not any(c.text.startswith("on ") for c in found.values())


@pytest.mark.parametrize(
    "text",
    [
        "Early mobilisation may be considered in very carefully selected patients with heart failure.",
        "Early mobilisation may be considered in well-selected patients with heart failure.",
    ],
)
def test_adverbs_and_compounds_of_selected_name_no_one(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "very carefully selected", "well-selected": still only "selected" patients."""
    found = named(extract(lexicon, text))
    assert "heart failure" in found, found
    assert not any("select" in name or "careful" in name for name in found), found


@pytest.mark.parametrize(
    "text",
    [
        "Telemetry is recommended until discharge in patients with acute pericarditis.",
        "A statin should be started at the time of discharge in patients with acute pericarditis.",
    ],
)
def test_discharge_timing_leaves_the_patients_named_after_it(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "until discharge in patients with X", "at the time of discharge": when the act runs or
    starts; the patients named after it stay the cohort (before, "until …" took them away)."""
    result = extract(lexicon, text)
    found = named(result)
    assert "acute pericarditis" in found, found
    assert not any("discharge" in c.text for c in result.concepts)


@pytest.mark.parametrize(
    ("text", "act", "state", "lead"),
    [
        (
            "After an acute coronary syndrome, patients with diabetes should receive an SGLT2 "
            "inhibitor.",
            "sodium glucose cotransporter 2 inhibitor",
            "diabetes mellitus",
            "acute coronary syndrome",
        ),
        (
            "During pregnancy, women with a prosthetic valve should undergo monthly "
            "echocardiography.",
            "echocardiography",
            "women",
            "pregnancy",
        ),
    ],
)
def test_people_after_a_lead_of_time_are_still_the_subject(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str, state: str, lead: str
) -> None:
    """ "After X, patients with Y should receive Z": the lead says when, the patients are the
    cohort and Z the act (before, the lead hid the subject and the patients became the act)."""
    result = extract(lexicon, text)
    acts = [a.normalized for a in result.actions]
    assert any(act in name for name in acts), acts
    found = named(result)
    assert found[state].role == "Condition", found
    assert lead in found, found


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Child-Pugh class should be used to select the anticoagulant dose.", "child-pugh class"),
        (
            "Carrier screening should be offered to relatives of patients with HCM.",
            "carrier screening",
        ),
    ],
)
def test_a_person_word_that_only_opens_a_name_is_no_subject_cohort(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str
) -> None:
    """ "Child-Pugh class", "Carrier screening": a word that can name people, opening a name
    of something else, leaves that thing the act."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions


def test_a_word_that_only_ends_like_an_adverb_is_kept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "elderly selected patients": "elderly" is the group, no adverb of "selected"."""
    found = named(
        extract(lexicon, "Anticoagulation is recommended in elderly selected patients with AF.")
    )
    assert any("elderly" in name for name in found), found


@pytest.mark.parametrize(
    "text,groups",
    [
        (
            "Supervised exercise training is recommended after TAVI or mitral repair, and in "
            "patients with chronic HFpEF, to improve exercise capacity.",
            [
                "transcatheter aortic valve implantation",
                "mitral repair",
                "chronic heart failure with preserved ejection fraction",
            ],
        ),
        (
            "Influenza vaccination is recommended after a myocardial infarction and in patients "
            "with heart failure.",
            ["myocardial infarction", "heart failure"],
        ),
    ],
)
def test_a_group_after_and_beside_an_earlier_group_is_an_alternative(
    lexicon, text: str, groups: list
) -> None:  # type: ignore[no-untyped-def]
    """ "after A or B, and in patients with C": the row names two groups of patients, those
    after A or B and those with C, either enough (the contract's distributive "and"); before,
    C was a condition every patient had to meet as well."""
    found = named(extract(lexicon, text))
    labels = {found[name].or_group for name in groups}
    assert len(labels) == 1 and None not in labels, {n: found[n].or_group for n in groups}


def test_a_second_group_with_alternatives_of_its_own_keeps_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "after an MI, and in patients with HFrEF or HFmrEF": the second group has its
    own alternatives and is left as its phrase read it (as two repeated leads are)."""
    found = named(
        extract(
            lexicon,
            "Cardiac rehabilitation is recommended after an MI, and in patients with HFrEF or "
            "HFmrEF.",
        )
    )
    reduced = found["heart failure with reduced ejection fraction"]
    assert reduced.or_group is not None, found
    assert found["myocardial infarction"].or_group != reduced.or_group, found


def test_anyone_names_the_patients_as_those_does(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, or in anyone unsuitable for surgery": "anyone" is the patients, like "those" or
    "patients"; before, it stayed in the condition's name ("anyone unsuitable for surgery")
    and the group was no alternative to the ones before it."""
    found = named(
        extract(
            lexicon,
            "Transcatheter repair is recommended in those 80 years or older, in patients at "
            "high surgical risk, or in anyone unsuitable for surgery.",
        )
    )
    assert "unsuitable for surgery" in found, found
    assert found["unsuitable for surgery"].or_group == found["high surgical risk"].or_group
    assert found["unsuitable for surgery"].or_group is not None, found


@pytest.mark.parametrize(
    "text,disease,unfit",
    [
        (
            "Surgical repair is recommended in patients with recoarctation not amenable to "
            "balloon angioplasty.",
            "recoarctation",
            "not amenable to balloon angioplasty",
        ),
        (
            "Open repair should be considered in patients with a thoracic aneurysm unsuitable "
            "for endovascular repair.",
            "thoracic aneurysm",
            "unsuitable for endovascular repair",
        ),
        (
            "Heparin should be considered in patients with cancer who are not suitable for "
            "oral anticoagulants.",
            "cancer",
            "not suitable for oral anticoagulant",
        ),
    ],
)
def test_unfitness_for_an_act_is_a_condition_beside_the_disease(
    lexicon, text: str, disease: str, unfit: str
) -> None:  # type: ignore[no-untyped-def]
    """ "patients with X not amenable to Y": X is the disease and "not amenable to Y" a state
    of its own (before, one condition held both; "who are not suitable for Y" was a negated
    "suitable for Y")."""
    found = named(extract(lexicon, text))
    assert found[disease].role == "Condition", found
    assert found[unfit].role == "Condition" and not found[unfit].negated, found


def test_otherwise_before_an_alternative_only_says_or(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, or in those above 8%, or otherwise unsuitable for surgery": "otherwise" names
    nothing, and the last group stays one of the alternatives."""
    result = extract(
        lexicon,
        "TAVI is recommended in patients with a EuroSCORE II above 8%, or otherwise "
        "unsuitable for surgery.",
    )
    found = named(result)
    assert "otherwise" not in " ".join(found), found
    assert found["unsuitable for surgery"].or_group is not None, found
    assert found["unsuitable for surgery"].or_group == found["euroscore ii"].or_group, found


def test_an_anatomy_unfit_for_an_act_is_one_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "coronary anatomy not suitable for PCI": the unfitness is said of the anatomy,
    one state, never a bare "coronary anatomy" beside it."""
    found = named(
        extract(
            lexicon, "CABG is recommended in patients with coronary anatomy not suitable for PCI."
        )
    )
    assert "coronary anatomy" not in found, found


def test_an_absence_after_and_is_a_negated_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with HCM and absence of frequent and/or complex VAs": "absence of" opens its own
    negated segment like "in the absence of", so the shared head is distributed and the two
    kinds are one negated OR group (the contract's NOT(OR(A, B))); before, "frequent" stood
    alone and the group was lost. "VAs" are ventricular arrhythmias."""
    found = named(
        extract(
            lexicon,
            "Competitive sport may be considered in athletes with mild HCM and absence of "
            "frequent and/or complex VAs.",
        )
    )
    frequent = found["frequent ventricular arrhythmia"]
    complex_ = found["complex ventricular arrhythmia"]
    assert frequent.negated and complex_.negated, found
    assert frequent.or_group is not None and frequent.or_group == complex_.or_group, found


@pytest.mark.parametrize(
    ("text", "group"),
    [
        (
            "Echocardiographic screening is advised in first-degree relatives of patients with a"
            " bicuspid aortic valve.",
            "first-degree relative of a patient with bicuspid aortic valve",
        ),
        (
            "Ultrasound screening is advised in FDRs of AAA patients aged 50 years or more.",
            "first-degree relative of a patient with abdominal aortic aneurysm",
        ),
        (
            "Screening is advised in first-degree relatives of young patients with a bicuspid"
            " aortic valve.",
            "first-degree relative of a patient with bicuspid aortic valve",
        ),
    ],
)
def test_relatives_of_patients_are_one_group_without_the_disease(
    lexicon, text: str, group: str
) -> None:  # type: ignore[no-untyped-def]
    """ "first-degree relatives of patients with BAV": the row is for the relatives, and the
    disease is their relative's, not theirs; before, the disease was a condition of the row's
    own (a relative asking would have been told they have it)."""
    result = extract(lexicon, text)
    found = named(result)
    assert found[group].role == "Condition", found
    assert not {"bicuspid aortic valve", "abdominal aortic aneurysm"} & set(found), found


def test_relatives_of_patients_with_either_disease_are_two_groups(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "relatives of patients with HCM or DCM": a relative of a patient with either, two
    groups that are alternatives, and neither disease the relatives' own (a first reading
    cut the list at "or" and left DCM a condition of the row)."""
    found = named(
        extract(
            lexicon,
            "Clinical screening is advised in first-degree relatives of patients with HCM or DCM.",
        )
    )
    first = found["first-degree relative of a patient with hypertrophic cardiomyopathy"]
    second = found["first-degree relative of a patient with dilated cardiomyopathy"]
    assert first.or_group and first.or_group == second.or_group, found
    assert "dilated cardiomyopathy" not in found, found
