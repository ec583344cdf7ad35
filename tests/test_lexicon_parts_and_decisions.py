"""What an act is made of, and what a decision rests on: the parts an act includes are all
done (no OR among them), a state listed with "including" still names ways to have it. In
the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


def test_the_parts_an_act_includes_are_all_done(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A check-up including A, B and C" asks for A, B and C together: "including" after
    an act lists what the act is made of, not alternatives to choose one from."""
    found = named(
        extract(
            lexicon,
            "A yearly check-up including blood pressure measurement, an ECG and a lipid "
            "profile is recommended in survivors of childhood cancer.",
        )
    )
    for part in ("blood pressure measurement", "lipid profile"):
        assert part in found and found[part].or_group is None
    assert not any(c.or_group for c in found.values() if c.role == "Procedure")


def test_an_or_inside_the_parts_still_groups_its_own_members(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "... including an ECG and CT or MRI": the parts are done together, and CT and MRI
    remain a choice between two."""
    found = named(
        extract(
            lexicon,
            "A work-up including an ECG and CT or MRI of the brain is recommended after a "
            "first unexplained seizure.",
        )
    )
    ct = next(c for n, c in found.items() if n.startswith("computed tomography"))
    mri = next(c for n, c in found.items() if n.startswith("magnetic resonance"))
    assert_one_or_group(ct, mri)
    ecg = next(c for n, c in found.items() if "electrocardiogra" in n)
    assert ecg.or_group is None


def test_examples_of_a_state_after_including_stay_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A patient "with risk factors (including smoking, obesity and diabetes)" has one of
    them: the examples of a state are still ways to have it."""
    found = named(
        extract(
            lexicon,
            "In patients with risk factors (including smoking, obesity and diabetes), "
            "screening should be considered.",
        )
    )
    assert_one_or_group(found["smoking"], found["obesity"])


def test_what_a_decision_weighs_is_no_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, based on kidney function, frailty and patient wishes": the things a choice is
    weighed on say how to decide, not whom the row is for; the sentence after them keeps
    its own concepts."""
    found = named(
        extract(
            lexicon,
            "In people with atrial flutter, the anticoagulant should be chosen based on "
            "kidney function, frailty, and patient wishes.",
        )
    )
    assert "atrial flutter" in found
    assert not {"kidney function", "frailty", "patient wish", "patient wishes"} & set(found)
    weighed = named(
        extract(
            lexicon,
            "Valve repair in people with endocarditis based on a team review is recommended "
            "and a dental check is needed before surgery.",
        )
    )
    assert "endocarditis" in weighed and "team review" not in weighed
    assert any("dental" in name for name in weighed)
    timing = named(
        extract(
            lexicon,
            "Surgical timing based on the aortic size index is advised in adults with Turner "
            "syndrome.",
        )
    )
    assert "turner syndrome" in timing and "aortic size index" not in timing


@pytest.mark.parametrize(
    ("text", "kept", "weighed"),
    [
        (
            "A tailored length of DAPT is recommended in people with cancer after PCI, based "
            "upon clotting and bleeding risk, kind and stage of cancer, and current cancer "
            "therapy.",
            "cancer",
            "bleeding risk",
        ),
        (
            "It is recommended that the kind of revascularization (PCI or CABG) is based on the "
            "clinical status, frailty, comorbidities, and the anatomy of the disease.",
            "percutaneous coronary intervention",
            "frailty",
        ),
        (
            "It is recommended that the choice of anticoagulant is based on kidney function, "
            "bleeding risk and patient preference in people with AF.",
            "atrial fibrillation",
            "bleeding risk",
        ),
    ],
    ids=["based upon", "is based on a list", "no comma before and"],
)
def test_a_list_a_choice_is_based_on_is_weighed(  # type: ignore[no-untyped-def]
    lexicon, text: str, kept: str, weighed: str
) -> None:
    """ "based upon" is "based on"; and after "is based on", a list of three or more things
    is what the choice is weighed on (one thing there, "is based on shared decision-making",
    may be the act itself). Before, each listed thing became a concept of the row."""
    found = named(extract(lexicon, text))
    assert kept in found, found
    assert not [name for name in found if weighed in name], found


def test_the_findings_a_diagnosis_rests_on_stay(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "the diagnosis of X should be based on A, B and C": the tests and findings the
    diagnosis rests on are the row's concepts, unlike what a choice is weighed on."""
    found = named(
        extract(
            lexicon,
            "The diagnosis of myocarditis should be based on symptoms, troponin, and cardiac "
            "magnetic resonance.",
        )
    )
    assert any("troponin" in name for name in found), found


def test_a_disease_named_by_its_type_is_no_choice_weighed(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "The diagnosis of type 2 diabetes should be based on A, B and C": "type" names the
    disease here, not a choice, so the tests the diagnosis rests on stay."""
    found = named(
        extract(
            lexicon,
            "The diagnosis of type 2 diabetes should be based on fasting glucose, HbA1c, and an "
            "oral glucose tolerance test.",
        )
    )
    assert "oral glucose tolerance test" in found, found


def test_what_a_choice_weighs_leaves_the_choice_whole(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The choice named before "is based on" keeps its own words, none glued to the next."""
    found = named(
        extract(
            lexicon,
            "It is recommended that the choice of anticoagulant is based on kidney function, "
            "bleeding risk and patient preference in people with AF.",
        )
    )
    assert not [name for name in found if "anticoagulantin" in name.replace(" ", "")], found
    assert "choice of anticoagulant" in found, found


def test_with_consideration_of_and_after_discussing_weigh_too(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with consideration of X and Y", "after discussing the risks and benefits": the same
    weighing, said another way."""
    found = named(
        extract(
            lexicon,
            "Ablation is recommended in people with WPW syndrome after discussing the risks "
            "and benefits of the procedure.",
        )
    )
    assert "benefits of the procedure" not in found and not any("risk" in n for n in found)
    considered = named(
        extract(
            lexicon,
            "Step-wise intensification is recommended for people with diabetes, with "
            "consideration of comorbidities and personal preferences.",
        )
    )
    assert "diabetes mellitus" in considered
    assert not any("preference" in n or "comorbid" in n for n in considered)


def test_what_a_diagnosis_is_based_on_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "The diagnosis is based on X": X is what is done, the act of the row."""
    found = named(
        extract(
            lexicon, "It is recommended that the diagnosis of gout is based on joint aspiration."
        )
    )
    assert any("aspiration" in name for name in found)


def test_patients_doing_something_in_a_when_clause_are_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "When patients with X develop Y" names the patients (with X) and what they develop
    (Y); neither the patient word nor the verb belongs to a concept."""
    found = named(
        extract(
            lexicon,
            "When patients with kidney failure develop pericarditis, dialysis intensification "
            "should be considered.",
        )
    )
    assert {"kidney failure", "pericarditis"} <= set(found)
    assert not any("patient" in name or "develop" in name for name in found)
    assert found["pericarditis"].role == "Condition"


def test_an_operation_the_patients_undergo_is_their_background(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who undergo X" and "if patients … undergo X" say the same as "undergoing X": X is a
    procedure the patients have, without the verb in its name."""
    for text in (
        "Valve intervention should be considered in patients with mitral stenosis who "
        "undergo non-cardiac surgery.",
        "If patients with mitral stenosis undergo non-cardiac surgery, valve intervention "
        "should be considered first.",
    ):
        found = named(extract(lexicon, text))
        assert found["non-cardiac surgery"].role == "Procedure", text
        assert "mitral stenosis" in found and not any("undergo" in n for n in found), text
        assert "valve intervention" in found and "first" not in found, text


def test_two_intensities_of_one_exercise_are_one_range(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "moderate or vigorous aerobic exercise" is a range of one scale, like "moderate or
    severe stenosis": one concept, not two exercises to choose from."""
    found = named(
        extract(
            lexicon, "Moderate or vigorous aerobic exercise is recommended in people with diabetes."
        )
    )
    assert "moderate or vigorous aerobic exercise" in found
    assert found["moderate or vigorous aerobic exercise"].or_group is None


def test_or_equivalent_names_no_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a score such as SCORE2 or equivalent": "equivalent" alone names nothing that could
    be looked up or done."""
    found = named(extract(lexicon, "A risk chart such as SCORE2 or equivalent is recommended."))
    assert "equivalent" not in found and "score2" in found


def test_bullets_after_any_of_the_following_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… with any of the following: • A • B • C": one of the bulleted findings is enough,
    so they share one OR label, also when reference numbers sit between the colon and the
    first bullet; a finding in the middle of the list lends its "history of" to no other."""
    found = named(
        extract(
            lexicon,
            "Valve surgery may be considered in people with a dilated aorta who have any of "
            "the following:41–43 • Family history of dissection • Resistant hypertension "
            "• Wish to become pregnant",
        )
    )
    assert {"family history of dissection", "resistant hypertension"} <= set(found), set(found)
    assert_one_or_group(found["family history of dissection"], found["resistant hypertension"])
    assert not any(name.startswith("family history of resistant") for name in found)
    running = named(
        extract(
            lexicon,
            "Surgery may be considered in people with a dilated aorta and smoking, a family "
            "history of dissection, resistant hypertension, or a wish to become pregnant.",
        )
    )
    assert "resistant hypertension" in running, set(running)


def test_the_lead_of_one_of_the_following_names_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if one of the following markers is present: A, B, or C": the lead says the
    list is the criterion; "risk factors" is no concept of its own, and no item is lost."""
    found = named(
        extract(
            lexicon,
            "Pacing should be considered if one of the following markers of lasting block is "
            "present: prior conduction disease, abscess, or prior valve surgery.",
        )
    )
    assert "prior conduction disease" in found and "abscess" in found
    assert not any("marker" in name for name in found)
    assert_one_or_group(found["prior conduction disease"], found["abscess"])


def test_to_target_a_value_recommends_the_target(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended to target an INR of 2.0–3.0": the verb leads in; what is
    recommended is the target value, a ClinicalParameter."""
    found = named(
        extract(lexicon, "It is recommended to target an INR of 2.5–3.5 after valve replacement.")
    )
    inr = next(c for n, c in found.items() if "normalized ratio" in n)
    assert inr.role == "ClinicalParameter" and inr.threshold == [2.5, 3.5]
    assert not any(n.startswith("to target") for n in found)


def test_a_switch_gives_the_new_drug_and_keeps_the_old_as_background(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to replace A with B", "a switch from A to B", "to convert A to B": B is what is given
    now, A the therapy the patients were on; neither is named with the verb."""
    for text in (
        "It is recommended to replace warfarin with dabigatran before cardioversion.",
        "A switch from warfarin to dabigatran may be considered before cardioversion.",
        "It is recommended to convert warfarin to dabigatran before cardioversion.",
    ):
        result = extract(lexicon, text)
        found = named(result)
        assert {"warfarin", "dabigatran"} <= set(found), (text, set(found))
        assert [a.normalized for a in result.actions] == ["dabigatran"], text
        assert not any(w in n for n in found for w in ("switch", "replace", "convert")), text


def test_a_route_switched_borrows_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "from i.v. to oral methylprednisolone": the route alone names no therapy of its own."""
    found = named(
        extract(
            lexicon, "Switching from i.v. to oral methylprednisolone may be tried after recovery."
        )
    )
    assert "oral methylprednisolone" in found and not any(
        n.strip(".") in ("i.v", "iv") for n in found
    )


def test_a_patient_who_has_or_remains_in_a_when_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "When a pregnant woman has chest pain", "if the patient remains asymptomatic": the
    subject is the patient, what she has or stays is the condition; neither the patient
    word nor the verb is part of it."""
    found = named(
        extract(
            lexicon, "When a pregnant woman has chest pain, troponin measurement is recommended."
        )
    )
    assert "chest pain" in found and not any(" has " in f" {n} " for n in found)
    stays = named(
        extract(
            lexicon,
            "When the patient remains asymptomatic, surveillance every year is recommended.",
        )
    )
    assert "asymptomatic" in stays and not any("remain" in n for n in stays)


def test_a_state_that_is_suspected_is_named_suspected(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If HF is suspected": the row is for suspected heart failure, not for heart failure;
    the span is the words as printed. "X is suspected as a cause" stays as before."""
    found = named(
        extract(lexicon, "If endocarditis is suspected, echocardiography is recommended.")
    )
    assert "suspected endocarditis" in found and "endocarditis" not in found
    assert found["suspected endocarditis"].text == "endocarditis is suspected"
    cause = named(
        extract(lexicon, "Stopping the drug is recommended where the drug is suspected as a cause.")
    )
    assert not any(name.startswith("suspected") for name in cause)


def test_readings_stop_where_their_phrase_ends(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Each reading above ends with its own phrase: the weighed list stops at a new cohort
    and keeps a decimal value whole, "mainly based on" names the act like "is based on", a
    bracketed weighed list goes with both brackets, "replace" does not reach over "in
    patients", a when-clause with a second subject stays two conditions, and an eponym after
    "history of X or" still takes the lent head."""
    cohort = named(
        extract(
            lexicon,
            "The anticoagulant should be chosen based on bleeding risk in patients with flutter.",
        )
    )
    assert "flutter" in cohort and "bleeding risk" not in cohort
    decimal = named(
        extract(lexicon, "Dose selection based on a clearance of 1.5 mL/s is recommended.")
    )
    assert not any(".5" in name for name in decimal)
    assert any(
        "ultrasound" in n
        for n in named(
            extract(lexicon, "The diagnosis of gallstones should be mainly based on ultrasound.")
        )
    )
    bracket = named(
        extract(lexicon, "Treatment (based on symptoms, age) is recommended in people with gout.")
    )
    assert "gout" in bracket and "age" not in bracket
    surgery = named(
        extract(
            lexicon,
            "Surgery to replace the mitral valve in patients with severe mitral stenosis is "
            "recommended.",
        )
    )
    assert "severe mitral stenosis" in surgery
    assert not any(name.startswith("to ") or "switch" in name for name in surgery)
    two = named(
        extract(
            lexicon,
            "Ablation should be considered when patients are symptomatic or BP remains high.",
        )
    )
    assert not any(" who " in f" {name} " for name in two)
    eponym = named(
        extract(
            lexicon,
            "Aspirin is advised for people with a history of rheumatic fever or Kawasaki disease.",
        )
    )
    assert "history of kawasaki disease" in eponym


def test_a_drug_switched_from_is_kept_even_if_it_looks_like_an_adjective(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "from phenobarbital to oral levetiracetam": a drug whose name ends like an adjective
    ("-al") is still the therapy the patients were on."""
    found = named(
        extract(lexicon, "Switching from phenobarbital to oral levetiracetam should be considered.")
    )
    assert "phenobarbital" in found


@pytest.mark.parametrize(
    ("text", "act", "state"),
    [
        (
            "A triage of patients with pericardial effusion is advised.",
            "triage",
            "pericardial effusion",
        ),
        (
            "Early review of adults with an indication for valve surgery is advised.",
            "early review",
            "indication for valve surgery",
        ),
    ],
)
def test_the_patients_an_act_is_done_for_are_a_cohort_not_a_part_of_it(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    act: str,
    state: str,
) -> None:
    """ "a triage of patients with pericardial effusion": the patients named inside the act
    are whom it is for; what they have is a condition of the row, not a part of the act
    (which "with" would otherwise make it)."""
    found = named(extract(lexicon, text))
    assert found[act].role == "Procedure"
    assert found[state].role == "Condition"


@pytest.mark.parametrize(
    "criterion",
    [
        "a tibial or femoral artery diameter <3 mm",
        "a diameter of the tibial artery or the femoral artery <3 mm",
        "a tibial artery or femoral artery diameter <3 mm",
    ],
)
def test_a_measure_shared_by_two_structures_is_two_parameters(lexicon, criterion: str) -> None:  # type: ignore[no-untyped-def]
    """ "a tibial or femoral artery diameter <3 mm" measures either artery: the head and the
    value belong to both (the contract distributes a shared head), two parameters with the
    same value, either of them, and no structure left over as a condition."""
    result = extract(lexicon, f"Bypass grafting is not advised in patients with {criterion}.")
    measured = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert len(measured) == 2
    assert {c.normalized for c in measured} == {"tibial artery diameter", "femoral artery diameter"}
    assert {(c.operator, c.threshold, c.unit) for c in measured} == {("<", 3.0, "mm")}
    assert_one_or_group(*measured)
    assert not [c for c in result.concepts if c.role == "Condition" and "arter" in c.normalized]


def test_a_shared_head_is_not_lent_to_a_disease_before_or(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "gout or an aortic diameter >50 mm": gout is no structure, so it is not measured."""
    result = extract(lexicon, "Surgery is advised in patients with gout or aortic diameter >50 mm.")
    found = named(result)
    assert found["gout"].role == "Condition"
    assert "gout diameter" not in found


@pytest.mark.parametrize("first", ["tricuspid", "bicuspid"])
def test_an_anatomical_adjective_of_another_shape_shares_the_head(lexicon, first: str) -> None:  # type: ignore[no-untyped-def]
    """ "severe tricuspid or pulmonary valve disease": "tricuspid" is an adjective though it
    does not end like one; both valves' disease, each with the shared words, either one."""
    result = extract(
        lexicon,
        f"Valve repair is advised in adults with severe {first} or pulmonary valve disease.",
    )
    found = named(result)
    first_disease = found[f"severe {first} valve disease"]
    assert_one_or_group(first_disease, found["severe pulmonary valve disease"])


@pytest.mark.parametrize("verb", ["exceeds", "is >"])
def test_a_measure_written_before_what_it_measures_is_one_parameter(lexicon, verb: str) -> None:  # type: ignore[no-untyped-def]
    """ "when the width of the tendon exceeds 8 mm": the tendon's width, one parameter named
    with its measure; no "width" left over as a condition."""
    result = extract(lexicon, f"Knee imaging is advised when the width of the tendon {verb} 8 mm.")
    measured = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.normalized, c.operator, c.threshold) for c in measured] == [
        ("tendon width", ">", 8.0)
    ]
    assert not [c for c in result.concepts if c.role == "Condition"]


def test_a_bracketed_alternative_modifier_shares_the_head(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "elastic (or rigid) bracing": the word in brackets is another modifier of the same
    head, so both kinds of bracing are named, either of them."""
    found = named(extract(lexicon, "In runners with gout, elastic (or rigid) bracing is advised."))
    assert_one_or_group(found["elastic bracing"], found["rigid bracing"])


def test_the_care_setting_a_row_speaks_in_is_no_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X is advised in the (initial) evaluation of patients with Y": the evaluation is the
    setting the row speaks in, not a second act; Y is read as the patients' condition."""
    result = extract(
        lexicon, "Event monitoring is advised in the initial evaluation of patients with dizziness."
    )
    assert [a.normalized for a in result.actions] == ["event monitoring"]
    assert "dizziness" in {c.normalized for c in result.concepts if c.role == "Condition"}
    assert not any("evaluation" in c.normalized for c in result.concepts)


def test_to_correlate_opens_a_purpose_not_part_of_the_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in patients with Y to correlate A with B": the infinitive says what the act is for,
    so the patients' condition ends before it."""
    found = named(
        extract(
            lexicon,
            "A patch recorder is advised in adults with palpitations to correlate rhythm with symptoms.",
        )
    )
    assert "palpitations" in found or "palpitation" in found, found
    assert not any("correlate" in n for n in found)


def test_care_setting_after_for_a_criterions_role_and_otherwise_values(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for optimal work-up and management of patients with X" is the setting like "in the
    evaluation of patients"; "using A as a diagnostic criterion" names A, not what it serves
    as; "at N mm, otherwise M mm" gives the same quantity a second value."""
    result = extract(
        lexicon,
        "A specialist review is advised for optimal work-up and management of patients with gout.",
    )
    assert [a.normalized for a in result.actions] == ["specialist review"]
    assert not any("management" in c.normalized for c in result.concepts)
    found = named(
        extract(
            lexicon,
            "Foot imaging is advised in adults with gout, using a score ≥3 as a diagnostic criterion.",
        )
    )
    assert not any("criterion" in n for n in found), found
    values = [
        c.threshold
        for c in extract(
            lexicon, "Knee surgery is advised in runners at a cartilage loss ≥40%, otherwise ≥60%."
        ).concepts
        if c.role == "ClinicalParameter"
    ]
    assert values == [40, 60], values
