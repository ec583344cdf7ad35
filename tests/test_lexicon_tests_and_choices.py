"""What a screening looks for, whom an act is done to, and what only says how to choose:
tests named for a screening are the acts, a verb's patients are the cohort, and "according
to", a rank or a schedule name nobody. In the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


def test_a_screening_done_by_named_tests_recommends_the_tests(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Screening for X by A or B": the tests are what is done, the screening only carries
    them, and X is what they look for, so X is the row's purpose, not its criterion."""
    result = extract(
        lexicon,
        "Opportunistic screening for heart failure by natriuretic peptide testing or "
        "echocardiography should be considered in people with diabetes.",
    )
    found = named(result)
    assert found["heart failure"].role == "Condition"
    assert found["heart failure"].function == "purpose"
    acts = {a.normalized for a in result.actions}
    assert "echocardiography" in acts and not any("screening" in a for a in acts)
    assert not any("screening" in name for name in found)
    assert found["diabetes mellitus"].function != "purpose"


def test_a_screening_with_its_tests_after_a_comma_reads_the_same(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Screening for X is advised ..., using A and/or B": the same reading when the tests
    come after the verb."""
    result = extract(
        lexicon,
        "Yearly screening for peripheral artery disease is advised in smokers, using a "
        "clinical examination and/or ankle-brachial index measurement.",
    )
    found = named(result)
    assert found["peripheral artery disease"].function == "purpose"
    assert {a.normalized for a in result.actions} >= {"clinical examination"}
    assert not any(name.startswith("screening") for name in found)


def test_a_screening_without_named_tests_stays_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """With no test named, the screening is itself what is recommended, and X what it looks
    for (function purpose)."""
    result = extract(
        lexicon,
        "Screening for sleep apnoea is recommended in patients with resistant hypertension.",
    )
    assert [a.normalized for a in result.actions] == ["screening"]
    assert named(result)["sleep apnoea"].function == "purpose"


def test_the_patients_a_verb_acts_on_are_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "To treat women with X during Y": the women with X are whom the row is for, not the
    thing done; the same for monitor, evaluate, assess and the other care verbs."""
    found = named(
        extract(
            lexicon,
            "It is recommended to treat women with valve disease during pregnancy as at other "
            "times.",
        )
    )
    assert found["women"].role == "Condition"
    assert found["valve disease"].role == "Condition"
    found = named(
        extract(
            lexicon, "It is recommended to monitor adults with atrial fibrillation for bleeding."
        )
    )
    assert found["atrial fibrillation"].role == "Condition"
    assert found["adults"].role == "Condition"


def test_how_to_choose_ends_before_the_verb_and_the_patients(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X according to Y is recommended for patients with Z": "according to" says how to
    pick, but only up to the verb; the patients after it are still the row's cohort."""
    found = named(
        extract(
            lexicon,
            "Oral anticoagulation according to the renal function is recommended for "
            "patients with atrial fibrillation.",
        )
    )
    assert "atrial fibrillation" in found
    assert "oral anticoagulation" in found
    assert not any("renal" in name for name in found)
    # a bracket ends it too: what comes after the bracket is still read
    found = named(
        extract(
            lexicon,
            "Beta-blockers titrated according to heart rate (target 60 bpm) with ivabradine "
            "are recommended in patients with angina.",
        )
    )
    assert "ivabradine" in found and not any("heart rate" in name for name in found)


def test_what_is_taken_into_consideration_is_no_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, taking into consideration life expectancy and preferences": weighed, like
    "taking into account"."""
    found = named(
        extract(
            lexicon,
            "Valve repair is recommended in patients with severe regurgitation, taking into "
            "consideration life expectancy and patient preferences.",
        )
    )
    assert not any("consideration" in name or "preference" in name for name in found)
    assert "severe regurgitation" in found


def test_a_relationship_between_two_states_names_both(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "An established relationship between A and B": the patient has A and B; each is a
    condition of the row (the relationship words name nothing)."""
    found = named(
        extract(
            lexicon,
            "Pacing should be considered when there is a documented relationship between "
            "dizziness and bradycardia.",
        )
    )
    assert found["dizziness"].role == "Condition" and found["bradycardia"].role == "Condition"
    assert not any("relationship" in name for name in found)


def test_a_schedule_in_cycles_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Every three cycles" (of chemotherapy) says how often, like "every 3 months"."""
    found = named(
        extract(
            lexicon,
            "In high-risk patients, an ECG is recommended every three cycles during chemotherapy.",
        )
    )
    assert not any("cycle" in name for name in found)


def test_a_rank_says_nothing_and_what_it_is_for_is_the_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "As the preferred reperfusion therapy for X": the rank names no act of its own;
    X, what it is the preferred therapy for, is the condition treated."""
    result = extract(
        lexicon,
        "Balloon angioplasty is advised as the preferred reperfusion therapy for acute "
        "myocardial infarction in older people.",
    )
    found = named(result)
    assert found["acute myocardial infarction"].role == "Condition"
    assert [a.normalized for a in result.actions] == ["balloon angioplasty"]
    found = named(
        extract(
            lexicon,
            "Beta-blockers are recommended as the initial management of symptomatic atrial "
            "flutter.",
        )
    )
    assert found["symptomatic atrial flutter"].role == "Condition"


def test_a_rank_before_a_test_purpose_keeps_the_purpose_out(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "As the preferred test for the assessment of X": what a test assesses is not what
    it is the preferred test for; the rank reading leaves it alone (no "assessment of X"
    read as the condition treated)."""
    found = named(
        extract(
            lexicon,
            "Echocardiography is recommended as the preferred test for the assessment of "
            "valve function in pregnant women.",
        )
    )
    assert not any(name.startswith("assessment of valve function") for name in found)


def test_a_rank_of_a_treatment_for_patients_keeps_them_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "As initial treatment of patients with X": the patients after the rank are the
    row's cohort, X their condition."""
    found = named(
        extract(
            lexicon,
            "Metformin is recommended as initial treatment of patients with type 2 diabetes.",
        )
    )
    assert found["type 2 diabetes mellitus"].role == "Condition"
    assert not any("patient" in name for name in found)


def test_a_patient_in_need_of_an_act_who_also_has_a_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If a patient in need of X also has A or B, ...": the clause's subject is the row's
    patient; A and B are alternatives, and the act after the comma is what is recommended
    (the "to choose …" after the verb is its rationale)."""
    result = extract(
        lexicon,
        "If a patient in need of urgent surgery also has chest pain or breathlessness, a "
        "multidisciplinary assessment is recommended to choose the least risky treatment.",
    )
    found = named(result)
    assert_one_or_group(found["chest pain"], found["breathlessness"])
    assert [a.normalized for a in result.actions] == ["multidisciplinary assessment"]
    assert not any("choose" in name or "treatment" in name for name in found)


def test_a_kind_excluded_with_its_examples_is_one_negated_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Unless there are contraindications such as a high risk of bleeding": neither the
    kind nor its example may be present, NOT(OR(kind, example)), one OR label for both."""
    found = named(
        extract(
            lexicon,
            "Ticagrelor is advised for one year unless there are contraindications such as a "
            "high risk of bleeding.",
        )
    )
    kind, example = found["contraindication"], found["high risk of bleeding"]
    assert kind.negated and example.negated
    assert_one_or_group(kind, example)


def test_a_symptom_state_before_a_risk_grade_is_a_state_of_its_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In asymptomatic high-risk patients": two things are true of them, no symptoms and
    a high risk; before a disease the state stays in the disease's name."""
    found = named(
        extract(
            lexicon,
            "In asymptomatic high-risk patients, echocardiography is recommended at 12 months.",
        )
    )
    assert found["asymptomatic"].role == "Condition"
    assert any(name.startswith("high") and "risk" in name for name in found)
    found = named(
        extract(lexicon, "Endarterectomy is recommended in symptomatic carotid stenosis patients.")
    )
    assert "asymptomatic" not in found and "symptomatic" not in found


def test_there_is_only_says_the_state_is_present(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… and there are pauses longer than 3 s": "there is / are" names nothing; the state
    after it is the condition (and "there is no X" keeps its negation)."""
    found = named(
        extract(lexicon, "Pacing is recommended when there is bradycardia and there are pauses.")
    )
    assert "there" not in found and not any(name.startswith("there") for name in found)
    assert found["bradycardia"].role == "Condition"
    # a clause that only gives a reason ("as there is …") is not read as a condition
    # by this rule: it removes "there is" only after "and" / "or"
    found = named(
        extract(
            lexicon,
            "Aspirin is not recommended in patients with AF, as there is an increased risk of "
            "bleeding.",
        )
    )
    assert not any(name == "increased risk of bleeding" for name in found)


def test_a_leading_when_screening_clause_names_what_is_looked_for(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "When screening for diabetes in individuals, A or B should be considered": the
    tests are the act, diabetes is what they look for (purpose), no screening act."""
    result = extract(
        lexicon,
        "When screening for diabetes in individuals with or without heart disease, an HbA1c "
        "test or a fasting glucose test should be considered.",
    )
    found = named(result)
    assert found["diabetes mellitus"].function == "purpose"
    assert not any("screening" in name for name in found)
    assert "heart disease" not in found


def test_a_drug_in_use_and_what_it_is_combined_with_are_background(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "When apixaban is used in combination with aspirin and/or clopidogrel, …": the
    patients are on apixaban and on one of the two others; all three are background."""
    found = named(
        extract(
            lexicon,
            "When apixaban is used in combination with aspirin and/or clopidogrel, a lower "
            "apixaban dose may be considered.",
        )
    )
    assert found["aspirin"].role == "Medication" and found["clopidogrel"].role == "Medication"
    assert_one_or_group(found["aspirin"], found["clopidogrel"])
    assert found["apixaban"].or_group is None


def test_what_a_drug_does_before_the_verb_is_rationale(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Statins have a neutral effect on stroke rates, and should be considered …":
    the effect is why; the drug alone is what is recommended."""
    result = extract(
        lexicon,
        "Statins have a neutral effect on stroke rates, and should be considered for "
        "lipid lowering in patients with diabetes.",
    )
    assert [a.normalized for a in result.actions] == ["statin"]
    assert not any("effect" in name for name in named(result))


def test_the_lead_ends_before_an_act_and_the_list_it_looks_for(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In individuals with X, an assessment to exclude A, B, and C is recommended": the
    commas after "to exclude" list what the act looks for; the lead ends before the act."""
    result = extract(
        lexicon,
        "In people with recurrent fainting, a careful work-up to exclude (hidden) "
        "channelopathy, valve disease, and arrhythmias is advised.",
    )
    assert [a.normalized for a in result.actions] == ["careful work-up"]
    assert named(result)["recurrent fainting"].role == "Condition"


@pytest.mark.parametrize(
    "head",
    [
        "regular imaging of the aorta",
        "regular vascular imaging of the aorta and iliac arteries",
        "yearly cardiac follow-up using",
        "regular cardiac follow-up using",
    ],
)
def test_the_lead_ends_before_an_act_done_by_a_list_of_tests(lexicon, head: str) -> None:  # type: ignore[no-untyped-def]
    """ "In patients with X, surveillance of the aorta by A, B, or C is recommended": the
    commas list the tests the surveillance is done by, not more patients, even when the
    head's own words hold an "and"; the head ("vascular" or "cardiac" imaging too) is only
    the vehicle of its tests, which are the recommended acts, either of them. How often
    ("yearly") opens the act: the comma before it still ends the lead clause."""
    by = "" if head.endswith("using") else " by"
    result = extract(
        lexicon,
        f"In adults with Loeys-Dietz syndrome, {head}{by} ultrasound, CT, or MRI is advised.",
    )
    acts = [a.normalized for a in result.actions]
    assert acts == ["ultrasound", "computed tomography", "magnetic resonance imaging"]
    assert_one_or_group(*[named(result)[a] for a in acts[:2]])
    conditions = {c.normalized for c in result.concepts if c.role == "Condition"}
    assert "loeys-dietz syndrome" in conditions and len(conditions) == 2


def test_a_lead_without_a_comma_ends_before_an_evaluation(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In all cases of suspected X a first diagnostic evaluation is recommended": with no
    comma, the lead still ends where "a … evaluation" starts."""
    found = named(
        extract(
            lexicon,
            "In all cases of suspected myocarditis a first diagnostic evaluation is recommended "
            "with ECG and echocardiography.",
        )
    )
    assert found["suspected myocarditis"].role == "Condition"


def test_patients_to_be_investigated_are_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is advised that all COPD patients be investigated for X": the patients are
    the cohort, the investigation the act."""
    result = extract(
        lexicon,
        "It is advised that all COPD patients be investigated for coronary disease.",
    )
    assert named(result)["copd"].role == "Condition"
    assert result.actions and result.actions[0].normalized.startswith("investigation")


def test_two_kinds_of_one_disease_joined_by_and_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Patients with HFrEF and HFmrEF": two kinds of heart failure (their names end alike)
    that no patient has at once, so "and" lists the groups the row covers, an OR; two
    different diseases joined by "and" stay both required."""
    found = named(extract(lexicon, "Pacing is recommended in patients with HFrEF and HFmrEF."))
    assert_one_or_group(
        found["heart failure with reduced ejection fraction"],
        found["heart failure with mid range ejection fraction"],
    )
    found = named(
        extract(
            lexicon,
            "Statins are recommended in patients with chronic kidney disease and coronary "
            "artery disease.",
        )
    )
    assert found["chronic kidney disease"].or_group is None
    # two sites of one disease process can both be present: still both required
    found = named(
        extract(
            lexicon,
            "Statins are recommended in patients with coronary artery disease and peripheral "
            "artery disease.",
        )
    )
    assert found["coronary artery disease"].or_group is None


def test_two_groups_of_people_sharing_the_noun_with_and_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Competitive and recreational athletes": two groups of people sharing one noun, each
    named whole, either of them."""
    found = named(
        extract(lexicon, "Ablation is advised in competitive and recreational athletes with WPW.")
    )
    assert_one_or_group(found["competitive athlete"], found["recreational athlete"])
    # two states of the same people ("older and frail adults") are not two groups
    found = named(extract(lexicon, "Exercise is recommended in older and frail adults."))
    assert not any(c.or_group for c in found.values())


def test_with_and_without_a_state_is_no_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In patients with and without diabetes": both poles, like "with or without", so
    diabetes restricts nothing."""
    found = named(
        extract(
            lexicon,
            "It is recommended that the same techniques are used in patients with and without "
            "diabetes.",
        )
    )
    assert "diabetes mellitus" not in found
    # it ends before a relative clause or the verb: what follows is still read
    found = named(
        extract(
            lexicon,
            "Statins are recommended in patients with and without diabetes who have coronary "
            "artery disease.",
        )
    )
    assert "coronary artery disease" in found and "diabetes mellitus" not in found


def test_other_tests_only_carry_the_tests_they_include(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Other non-invasive tests, including A or B": the generic head names no test of
    its own; A and B are the acts."""
    result = extract(
        lexicon,
        "When the ABI is high, other non-invasive tests, including the toe-brachial index or "
        "duplex ultrasound, are recommended.",
    )
    acts = [a.normalized for a in result.actions]
    assert "duplex ultrasound" in acts and not any("other" in a for a in acts)


def test_what_a_test_guides_and_the_surgery_around_an_act_are_no_part_of_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "For guidance of X" says what the act is for; "in the peri-operative period of X"
    names the surgery the patients undergo; neither is part of the act's name."""
    result = extract(
        lexicon, "It is advised to use point-of-care tests for guidance of transfusion therapy."
    )
    assert [a.normalized for a in result.actions] == ["point-of-care test"]
    found = named(
        extract(
            lexicon,
            "It is recommended to continue statin therapy in the peri-operative period of "
            "non-cardiac surgery.",
        )
    )
    assert found["non-cardiac surgery"].role == "Procedure"
    assert not any("peri-operative" in name for name in found)


def test_a_procedure_followed_by_its_alternatives_in_brackets_is_one_of_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Repeated imaging (CT or MRI)", "revascularization (CABG or PCI)": the bracket names
    the ways the act is done and one of them is; the act's own name only carries them (the
    contract's generic head), so the alternatives are the concepts, in one OR group."""
    found = named(
        extract(lexicon, "Repeated imaging (CT or MRI) is advised in adults with an aortic ulcer.")
    )
    assert_one_or_group(found["computed tomography"], found["magnetic resonance imaging"])
    assert "repeated imaging" not in found
    found = named(
        extract(
            lexicon,
            "Aspirin is advised in adults with a previous MI or revascularization (CABG or PCI).",
        )
    )
    assert "revascularization" not in found
    assert_one_or_group(
        found["previous myocardial infarction"], found["coronary artery bypass graft"]
    )
    assert_one_or_group(
        found["coronary artery bypass graft"], found["percutaneous coronary intervention"]
    )


def test_a_bracket_of_manners_kinds_or_exclusions_leaves_the_procedure_named(lexicon) -> None:  # type: ignore[no-untyped-def]
    """How the act is done ("(surgical or transcatheter)"), kinds named with the act's own
    head ("exercise (moderate exercise or vigorous exercise)") and what is left out ("(other
    than A or B)") do not replace the act named before them."""
    found = named(
        extract(
            lexicon,
            "Valve repair (either surgical or transcatheter) is advised in adults with severe "
            "mitral regurgitation.",
        )
    )
    assert "valve repair" in found
    assert not {"surgical", "transcatheter"} & set(found)
    found = named(
        extract(
            lexicon,
            "Regular exercise (moderate exercise or vigorous exercise) is advised in adults "
            "with claudication.",
        )
    )
    assert "regular exercise" in found


@pytest.mark.parametrize(
    "source", ["(from history)", "(on examination)", "(by the patient's history)"]
)
def test_where_a_finding_was_learnt_is_no_concept(lexicon, source: str) -> None:  # type: ignore[no-untyped-def]
    """ "symptoms (from history)": the bracket says where the finding was learnt, not a
    condition of the patient; the finding stays."""
    result = extract(
        lexicon, f"Tilt testing is advised when the spells {source} suggest a reflex cause."
    )
    names = {c.normalized for c in result.concepts}
    assert not any(w in name for name in names for w in ("history", "examination"))
    assert "tilt testing" in names


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        (
            "In adults with gout, the same indications for knee imaging are advised as in "
            "adults without gout.",
            ["knee imaging"],
        ),
        (
            "It is recommended to use the same criteria for bracing and surgery before a race "
            "as in the training setting.",
            ["bracing", "surgery"],
        ),
        (
            "Knee surgery is advised, with the same recommendations as for the general "
            "population, when the tear persists.",
            ["knee surgery"],
        ),
    ],
)
def test_the_same_indications_as_elsewhere_name_the_act_alone(
    lexicon, text: str, acts: list[str]
) -> None:  # type: ignore[no-untyped-def]
    """ "the same indications for X as in Y": X is advised as it is elsewhere; "the same
    indications" and the comparison name nothing, X is the act."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == acts
    assert not [c for c in result.concepts if "same" in c.normalized or "setting" in c.normalized]


def test_what_a_screening_looks_for_ends_at_a_second_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "screening for A and optimization of B": what the screening looks for ends where a
    second act, named by an action noun with what it is done to, begins; both are acts."""
    result = extract(
        lexicon, "Screening for gout and correction of the fluid balance is advised in adults."
    )
    acts = {a.normalized for a in result.actions}
    assert acts == {"screening", "correction of the fluid balance"}, acts
    assert "gout" in {c.normalized for c in result.concepts if c.role == "Condition"}


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "Extension of anticoagulation beyond 6 months should be considered in adults "
            "with active cancer.",
            "anticoagulation",
        ),
        (
            "Prolonging antiplatelet therapy beyond 12 months may be considered in adults "
            "with angina.",
            "antiplatelet therapy",
        ),
    ],
)
def test_how_long_a_therapy_is_prolonged_is_no_part_of_it(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """ "Extension / prolongation of X beyond 6 months": the act is X, given for longer;
    how long is a duration (no concept, the contract) and "extension of" a lead-in, like
    "continuation of"."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [drug]
    assert not any("month" in c.text for c in result.concepts)
