"""Words that name no concept of their own: a pointer back to what the row already named
("in case of such signs"), how a value came to be known ("invasive confirmation of X <N"),
and a feasibility hedge as someone judges it ("if considered safe"). In the team's own
sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import assert_one_or_group, extract, named, row_of


def test_a_pointer_back_to_named_signs_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(… in case of such signs)" refers to the signs the bracket has just named; it adds
    no state of the patient, and the state and the value it points back to stay."""
    found = named(
        extract(
            lexicon,
            "In adults with no signs of raised filling pressure (or a PCWP <15 mmHg in case of"
            " such signs), valve repair is advised.",
        )
    )
    assert not any("such" in n or "case" in n for n in found), found
    assert "signs of raised filling pressure" in found and "pcwp" in found, found


def test_how_a_value_is_known_leaves_the_value_alone(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "invasive confirmation of LVEF <40%", "evidence of PCWP <15 mmHg": the value is the
    criterion; the words saying how it was found name nothing a patient has."""
    found = named(
        extract(
            lexicon,
            "In adults with evidence of PCWP <15 mmHg or invasive confirmation of LVEF <40%,"
            " valve repair is advised.",
        )
    )
    assert "pcwp" in found and "left ventricular ejection fraction" in found, found
    assert not any(w in n for n in found for w in ("evidence", "confirmation", "invasive")), found


def test_a_hedge_judged_by_the_clinician_is_no_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If judged safe", "if deemed appropriate": the clinician's judgement that the act
    can be done, like "if safe"; no condition of the patient."""
    for sentence in (
        "If judged safe, ablation is advised over drug therapy.",
        "Ablation is advised over drug therapy if deemed appropriate.",
    ):
        result = extract(lexicon, sentence)
        assert [a.normalized for a in result.actions] == ["ablation"], sentence
        assert not [c for c in result.concepts if c.role == "Condition"], result.concepts


def test_in_case_of_after_the_act_is_a_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in case of X" after the act says when it applies, as "if X" does: X is a condition
    read apart from the alternative before it, even after a bare "as an alternative"."""
    for sentence, alternative in (
        ("Clopidogrel is advised as an alternative in case of aspirin intolerance.", None),
        (
            "Clopidogrel is advised as an alternative to aspirin for adults in case of aspirin"
            " intolerance.",
            "aspirin",
        ),
    ):
        found = named(extract(lexicon, sentence))
        assert "aspirin intolerance" in found, (sentence, found)
        assert found["aspirin intolerance"].role == "Condition", found
        if alternative:
            assert alternative in found, found


def test_in_the_presence_of_after_a_group_is_no_second_group(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in adults with gout in the presence of flutter": the second phrase is a criterion
    the same adults meet, not another group of patients offered instead (no OR label)."""
    result = extract(
        lexicon, "Ablation is advised in adults with gout in the presence of recurrent flutter."
    )
    found = named(result)
    assert "recurrent flutter" in found and "gout" in found, found
    assert all(c.or_group is None for c in result.concepts), found


def test_a_therapy_the_patient_cannot_have_is_a_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if beta-blockers are contraindicated", "when ticagrelor is not an option", "if
    diuretic therapy is ineffective": a state of the patient towards the therapy, a
    condition named for it, said by the whole clause; a therapy that "fails" was tried and
    keeps its role, as before."""
    for sentence, name in (
        ("Ablation is advised if beta-blockers are contraindicated.", "contraindication to"),
        ("Ablation is advised when ticagrelor is not an option.", "not an option"),
        ("Dialysis is advised if diuretic therapy is ineffective.", "ineffective"),
        ("Ablation is advised if statins are not tolerated.", "intolerance"),
    ):
        result = extract(lexicon, sentence)
        states = [c for c in result.concepts if name in c.normalized]
        assert len(states) == 1 and states[0].role == "Condition", (sentence, result.concepts)
        assert " is " in states[0].text or " are " in states[0].text, states[0].text
    failed = named(extract(lexicon, "Surgery is advised when drug therapy fails."))
    assert failed["failure of drug therapy"].role == "Medication", failed


def test_an_aneurysm_with_its_size_is_the_lesion_and_its_diameter(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in adults with an aneurysm of ≥55 mm", "if the aneurysm diameter is ≥55 mm": the
    patient has the aneurysm (a condition) and the value is its diameter; a size of no
    lesion ("aortic diameter ≥55 mm") stays one parameter."""
    for sentence in (
        "Repair is advised in adults with an aneurysm of ≥55 mm.",
        "Repair is advised if the aneurysm diameter is ≥55 mm.",
    ):
        found = named(extract(lexicon, sentence))
        assert found["aneurysm"].role == "Condition", found
        assert found["aneurysm diameter"].threshold == 55.0, found
    plain = named(extract(lexicon, "Repair is advised if the aortic diameter is ≥55 mm."))
    assert [c.role for c in plain.values()].count("Condition") == 0, plain


def test_two_capitalised_abbreviations_with_a_slash_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "by DUS/CEUS": two capitalised abbreviations joined by a slash are either test, even
    when the list knows only one of them (a guideline's list may lack the other); a pair of
    single letters ("E/A") stays one name, a ratio."""
    known = named(extract(lexicon, "Follow-up imaging by DUS/CEUS is advised after aortic repair."))
    assert_one_or_group(known["duplex ultrasound"], known["contrast-enhanced ultrasound"])
    found = named(extract(lexicon, "Guidance by TOE/ICE is advised during device closure."))
    assert "transesophageal echocardiography" in found and "ice" in found, found
    assert_one_or_group(found["ice"], found["transesophageal echocardiography"])


def test_two_things_not_available_are_both_absent(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when anti-Xa monitoring and echocardiography are not available": the clause says
    both are missing, so both are negated (the "and" had cut the first from the clause)."""
    result = extract(
        lexicon,
        "Heparin is advised when anti-Xa monitoring and echocardiography are not available.",
    )
    found = named(result)
    assert found["anti-xa monitoring"].negated and found["echocardiography"].negated, found


def test_a_dose_per_kilogram_in_units_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(70–100 U/kg)": a weight-based dose in units, like "mg/kg", no condition; a level in
    units per litre ("0.8–1.2 U/l") is still measured."""
    found = named(extract(lexicon, "Heparin is advised (70–100 U/kg) in adults with gout."))
    assert not any("u/kg" in n for n in found), found
    level = named(extract(lexicon, "Heparin is advised to reach anti-Xa 0.8–1.2 U/l in adults."))
    assert level["anti-xa"].threshold == [0.8, 1.2], level


def test_the_standing_of_an_act_and_a_later_caveat_are_no_concepts(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "as the standard anticoagulant" says what the drug already is among its kind; a
    later sentence opening "However, …" weighs how to apply the advice. Neither names a
    concept; the adults and their gout stay."""
    result = extract(
        lexicon,
        "Heparin is advised as the standard anticoagulant in adults with gout. However, the"
        " choice of drug should rest on local expertise and availability.",
    )
    found = named(result)
    assert set(found) - {"adult", "adults"} == {"heparin", "gout"}, found


def test_the_approaches_of_an_operation_share_its_head(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "open or endovascular repair", "transcatheter or surgical valve replacement": the
    approach words share the operation after them (two procedures, one OR label), as
    "aortic or mitral regurgitation" does; "treated (either) by" before them only says the
    patients had one."""
    for sentence, first, second in (
        (
            "Imaging is advised in adults treated either by open or endovascular repair.",
            "open repair",
            "endovascular repair",
        ),
        (
            "Imaging is advised in adults after transcatheter or surgical valve replacement.",
            "transcatheter valve replacement",
            "surgical valve replacement",
        ),
    ):
        found = named(extract(lexicon, sentence))
        assert first in found and second in found, (sentence, found)
        assert found[first].or_group is not None
        assert found[first].or_group == found[second].or_group


def test_a_state_listed_with_what_patients_receive_selects_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In adults with gout and receiving statins, eligible for anticoagulation, …": the
    eligibility is a state the patients are in, part of the population like their gout."""
    result = lexicon.extract(
        row_of(
            "In adults with gout and receiving statins, eligible for anticoagulation, and"
            " without a contraindication, apixaban is advised."
        ),
        "POPULATION",
    )
    assert "eligible for anticoagulation" in [c.normalized for c in result.concepts], result


def test_a_schedule_keeps_the_therapy_it_counts_from(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at 2 and 6 weeks after starting dronedarone": the times are a schedule, no concept,
    but the drug the patients started is what they are on; "after onset" names nothing and
    goes with its schedule."""
    found = named(
        extract(
            lexicon,
            "ECG monitoring is advised at baseline, at 2 and 6 weeks after starting dronedarone,"
            " and after any dose increase.",
        )
    )
    assert found["dronedarone"].role == "Medication", found
    onset = named(
        extract(lexicon, "Imaging is advised at 1, 3, and 12 months after onset in adults.")
    )
    assert "onset" not in onset, onset


def test_a_technique_in_use_is_a_procedure(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when an open technique is used": a way of operating, not a drug the patients take
    (a clause "when X is used" had made any X a medication)."""
    found = named(
        extract(lexicon, "No-touch harvesting is advised when an open technique is used.")
    )
    assert found["open technique"].role == "Procedure", found


def test_a_transfusion_a_manipulation_and_an_access_are_procedures(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "before blood transfusion", "prior to aortic manipulation", "for venous access":
    things done to the patient, read by their head word when the terminology has no entry
    (a phrase after "before" otherwise defaults to a condition)."""
    for sentence, name in (
        ("A check is advised before blood transfusion.", "blood transfusion"),
        ("Ultrasound is advised prior to aortic manipulation.", "aortic manipulation"),
        ("For venous access, the radial route is advised.", "venous access"),
    ):
        found = named(extract(lexicon, sentence))
        assert found[name].role == "Procedure", (sentence, found)


def test_abuse_frailty_a_dilatation_and_a_disturbance_are_states(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "alcohol or drug abuse", "frailty", "aortic dilatation", "visual disturbances",
    "electrolyte abnormalities": states of the patient by their head word, though a drug or
    a procedure word may come before it (they read as a medication or as the act)."""
    found = named(
        extract(
            lexicon,
            "Evaluation is advised in adults with drug abuse, frailty, aortic dilatation,"
            " visual disturbances or electrolyte abnormalities.",
        )
    )
    for name in (
        "drug abuse",
        "frailty",
        "aortic dilatation",
        "visual disturbance",
        "electrolyte abnormality",
    ):
        assert found[name].role == "Condition", (name, found)


def test_drug_management_is_a_medication(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "pharmacological management", "anti-thrombotic management": the drugs given, a
    drug-therapy phrase; "management of X" or "conservative management" stays a procedure."""
    for sentence, name, role in (
        (
            "Pharmacological management is advised in adults with gout.",
            "pharmacological management",
            "Medication",
        ),
        (
            "Anti-thrombotic management is advised in adults with gout.",
            "anti-thrombotic management",
            "Medication",
        ),
        (
            "Conservative management is advised in adults with gout.",
            "conservative management",
            "Procedure",
        ),
    ):
        found = named(extract(lexicon, sentence))
        assert found[name].role == role, (sentence, found)


def test_at_least_one_of_a_kind_is_having_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at least one high-risk criterion", "one or more risk factors": having one is the
    criterion, a condition; "two or more risk factors" stays a number the row sets."""
    found = named(
        extract(
            lexicon, "Early angiography is advised in adults with at least one high-risk criterion."
        )
    )
    assert found["high-risk criterion"].role == "Condition", found
    counted = named(
        extract(lexicon, "Statins are advised in adults with two or more risk factors.")
    )
    assert counted["number of risk factor"].threshold == 2.0, counted


def test_a_care_team_and_a_cut_off_are_procedures(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "after review by a vascular team", "an age-adjusted D-dimer cut-off": care given
    and a test's threshold rule, procedures by their head word (a team after "after" read
    as a condition, a cut-off as a drug)."""
    found = named(
        extract(
            lexicon,
            "It is advised that the choice is made in adults with gout after review by a"
            " vascular team.",
        )
    )
    assert found["review by a vascular team"].role == "Procedure", found
    cut = named(extract(lexicon, "An age-adjusted D-dimer cut-off is advised in adults."))
    assert cut["age-adjusted d-dimer cut-off"].role == "Procedure", cut


def test_an_activity_is_a_procedure(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in addition to aerobic activity", "before considering a sport activity": an
    activity the patient does, like exercise (it had defaulted to a drug or a condition)."""
    found = named(
        extract(
            lexicon, "Resistance training in addition to aerobic activity is advised in adults."
        )
    )
    assert found["aerobic activity"].role == "Procedure", found


def test_a_state_first_diagnosed_is_the_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "When gout is first diagnosed": the clause says when the patient is found to have
    gout, which is the condition (as "when gout is diagnosed" already was)."""
    found = named(extract(lexicon, "When gout is first diagnosed, initial TTE is advised."))
    assert "gout" in found and found["gout"].role == "Condition", found


def test_a_sex_after_a_risk_grade_is_a_group_of_its_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "high-risk female patients": the risk and the sex are two conditions (the contract's
    demographic groups); "premenopausal female patients" stays one group."""
    found = named(extract(lexicon, "In high-risk female adults with gout, counselling is advised."))
    assert found["female"].role == "Condition" and "high-risk female" not in found, found
    whole = named(extract(lexicon, "Statins are not advised in premenopausal female patients."))
    assert "female" not in whole, whole


def test_diagnosis_named_with_another_aim_is_an_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "recommended for diagnosis and risk stratification": the aims themselves, outcomes
    (the contract's stated goals); a bare "for diagnosis" still names nothing."""
    result = extract(
        lexicon,
        "Echocardiography is advised for diagnosis and risk stratification in adults with gout.",
    )
    found = named(result)
    assert found["diagnosis"].role == "Outcome", found
    assert found["risk stratification"].role == "Outcome", found
    assert [a.normalized for a in result.actions] == ["echocardiography"]


def test_cases_the_row_does_not_name_are_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in specific situations (e.g. A, B)": the examples name the cases; the words
    "specific situations" name none of their own."""
    found = named(
        extract(
            lexicon,
            "A backup lead is advised in specific situations (e.g. pacemaker"
            " dependency, high pacing threshold).",
        )
    )
    assert "pacemaker dependency" in found and not any("situation" in n for n in found), found


def test_a_dose_unit_left_alone_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(or acenocoumarol <2 mg/day)": once the amount is read, the unit left over
    ("mg/day") names nothing."""
    found = named(
        extract(
            lexicon,
            "VKA is advised if the warfarin dose is <6 mg/day (or phenprocoumon <4 mg/day or"
            " acenocoumarol <1 mg/day) in adults.",
        )
    )
    assert not any("/day" in n for n in found), found


def test_a_finding_compatible_with_a_cause_is_named_whole(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "symptoms consistent with angina", "fainting compatible with a reflex cause": what
    the finding resembles is part of its name, one condition (the "with" opened a second)."""
    found = named(
        extract(lexicon, "Testing is advised in adults with symptoms consistent with angina.")
    )
    assert "symptoms consistent with angina" in found and "angina" not in found, found


def test_the_group_a_practice_is_borrowed_from_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "the same risk scores as for non-pregnant women": a comparison with another group,
    not the patients the row is for."""
    found = named(
        extract(
            lexicon,
            "In adults with gout, the same risk scores as for non-pregnant women are advised.",
        )
    )
    assert "gout" in found and not any("pregnant" in n or "women" in n for n in found), found


def test_the_state_a_failed_therapy_was_given_for_is_a_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if the drugs fail to convert or control the arrhythmia": the therapy's failure,
    as before, and the arrhythmia it was given for, a condition the patient has."""
    found = named(
        extract(
            lexicon,
            "Cardioversion is advised if the drugs fail to convert or control the arrhythmia.",
        )
    )
    assert found["arrhythmia"].role == "Condition", found
    assert any(n.startswith("failure of") for n in found), found
