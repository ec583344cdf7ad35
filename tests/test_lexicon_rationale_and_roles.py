"""Guideline phrasing the lexicon reads by rule: why-clauses and dose wording that are no
concepts, lead-ins of resumed or continued therapy, and roles that a phrase's shape decides.

Every sentence here is the team's own; each names the phrasing it stands for.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize(
    "text",
    [
        "Dabigatran may be considered in patients with renal impairment, considering the "
        "individual risk of bleeding.",
        "Dabigatran may be considered in patients with renal impairment, given the low risk "
        "of bleeding.",
        "Dabigatran may be considered in patients with renal impairment, taking into account "
        "their frailty.",
    ],
)
def test_a_rationale_clause_is_no_condition(lexicon, text: str) -> None:
    """ "…, considering the individual risk" says why or how to weigh the choice, not whom
    the row is for (the contract: rationale clauses are not concepts)."""
    result = extract(lexicon, text)
    assert set(named(result)) == {"dabigatran", "renal impairment"}


def test_the_words_that_introduce_a_dose_go_with_the_dose(lexicon) -> None:
    """ "at a reduced maintenance dose of 2.5 mg": the amount and the words before it are
    dosing, never a condition of the row."""
    result = extract(
        lexicon,
        "Apixaban at a reduced maintenance dose of 2.5 mg twice daily should be considered "
        "in patients with low body weight.",
    )
    assert set(named(result)) == {"apixaban", "low body weight"}
    result = extract(
        lexicon,
        "Prasugrel is recommended in patients without prior stroke with an initial loading "
        "dose of 60 mg.",
    )
    assert ("Condition", "prior stroke") in roles(result)
    assert not any("loading" in name for name in named(result))


def test_a_concession_names_no_criterion(lexicon) -> None:
    """ "even if there is no evidence of X", ", even when on Y,": the row holds whether or
    not X or Y, so, like "regardless of", the clause is no condition of the row (the
    contract's non-conditions). "even in X" only stresses X, which stays."""
    result = extract(
        lexicon,
        "Valve repair may be considered even if there is no evidence of left ventricular "
        "dilatation.",
    )
    assert set(named(result)) == {"valve repair"}
    result = extract(
        lexicon,
        "Scuba diving, even when on beta-blockers, is discouraged in divers with a patent "
        "foramen ovale.",
    )
    assert not any("beta-blocker" in name for name in named(result))
    result = extract(lexicon, "Statins are recommended even in adults with diabetes.")
    assert "diabetes mellitus" in named(result)


@pytest.mark.parametrize(
    "text",
    [
        "It is recommended to resume warfarin after the procedure when haemostasis is secure.",
        "Resumption of warfarin is recommended after the procedure when haemostasis is secure.",
        "Continuation of warfarin is recommended during the procedure.",
    ],
)
def test_resuming_or_continuing_a_therapy_recommends_the_therapy(lexicon, text: str) -> None:
    """What is resumed or continued is what the row recommends; the verb is a lead-in like
    "initiation of"."""
    result = extract(lexicon, text)
    assert [(a.role, a.normalized) for a in result.actions] == [("Medication", "warfarin")]


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Ablation is recommended in patients with flutter eligible for an invasive procedure.",
            "flutter eligible for an invasive procedure",
        ),
        (
            "Bypass surgery is recommended in patients with three-vessel disease suitable for "
            "surgical repair.",
            "three-vessel disease suitable for surgical repair",
        ),
    ],
)
def test_being_eligible_for_a_therapy_is_a_condition(lexicon, text: str, state: str) -> None:
    """Whether a therapy can be given describes the patient, even when the phrase ends on
    the therapy's name."""
    result = extract(lexicon, text)
    assert ("Condition", state) in roles(result)


def test_a_measurement_recommended_as_the_act_is_a_procedure(lexicon) -> None:
    """ "LVEF is recommended …" asks for the measuring: with no value to reach it is no
    target (the contract: a parameter is the action only when it is a target)."""
    result = extract(
        lexicon, "Left ventricular ejection fraction is recommended before starting trastuzumab."
    )
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("Procedure", "left ventricular ejection fraction")
    ]


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "It is recommended to adopt a low-salt diet in adults with hypertension.",
            "low-salt diet",
        ),
        (
            "It is recommended to carefully follow a structured walking programme after bypass "
            "surgery.",
            "structured walking programme",
        ),
        ("It is recommended to eat oily fish in people at high cardiovascular risk.", "oily fish"),
    ],
)
def test_the_verb_after_it_is_recommended_to_only_leads_in(lexicon, text: str, act: str) -> None:
    """ "It is recommended to adopt X": adopting, following or eating only leads in to X,
    the thing done (the contract: lead-in verbs stay out of spans)."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act]


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        (
            "Thorough evaluation, using stress echocardiography and Holter monitoring, is "
            "recommended before return to sport.",
            ["stress echocardiography", "holter monitoring"],
        ),
        (
            "Close follow-up with cardiac MRI is recommended after repair of the aortic root.",
            ["cardiac magnetic resonance imaging"],
        ),
        (
            "Additional methods such as exercise testing or coronary CT angiography should be "
            "considered in patients with atypical chest pain.",
            ["exercise testing", "coronary computed tomography angiography"],
        ),
    ],
)
def test_a_generic_vehicle_names_only_its_items(lexicon, text: str, acts: list[str]) -> None:
    """ "Close follow-up with cardiac MRI": the follow-up, evaluation or tests only carry
    what is done; the contract names the item, not the vehicle ("revascularization with
    CABG" is CABG)."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == acts


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        (
            "Secondary prevention with a statin is recommended in patients with carotid stenosis.",
            ["statin"],
        ),
        (
            "Bridging with low molecular weight heparin may be considered in patients with a "
            "mechanical mitral valve.",
            ["low molecular weight heparin"],
        ),
        ("Curative treatment by catheter ablation should be considered.", ["catheter ablation"]),
        (
            "Imaging of the abdominal aorta with duplex ultrasound every 2 years should be "
            "considered.",
            ["duplex ultrasound"],
        ),
        (  # the means right after the recommending verb, with no comma before "using"
            "When the echocardiogram is inconclusive, confirmation should be considered using "
            "cardiac MRI or CT.",
            ["cardiac magnetic resonance imaging", "computed tomography"],
        ),
    ],
)
def test_an_act_named_by_its_purpose_names_only_its_means(
    lexicon, text: str, acts: list[str]
) -> None:
    """ "Prevention with a statin", "bridging with heparin", "curative treatment by ablation":
    an act named by its purpose or kind carries the drug, device or test that "with" / "by"
    names, which is what is recommended; so does an imaging of a body part."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == acts


def test_what_the_vehicle_is_done_on_stays_when_it_is_a_procedure(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Follow-up of a valve replacement by echocardiography": the echocardiography is done,
    and the replacement the patient had stays as a procedure of the row."""
    result = extract(
        lexicon,
        "Long-term follow-up of aortic valve replacement by echocardiography is recommended.",
    )
    assert [a.normalized for a in result.actions] == ["echocardiography"]
    assert named(result)["aortic valve replacement"].role == "Procedure"


@pytest.mark.parametrize(
    ("text", "act", "beside"),
    [
        (
            "In high-risk patients with carotid stenosis, endarterectomy, in addition to "
            "optimal medical therapy, should be considered.",
            "endarterectomy",
            "optimal medical therapy",
        ),
        (
            "In patients with atrial fibrillation, apixaban, as an alternative to warfarin, "
            "is recommended.",
            "apixaban",
            "warfarin",
        ),
    ],
)
def test_an_aside_between_commas_after_the_act_does_not_end_the_lead(
    lexicon, text: str, act: str, beside: str
) -> None:
    """ "In patients with X, CEA, in addition to OMT, should be considered": the last comma
    before the verb opens an aside of the act (what it is given with or instead of), so the
    lead clause ends at the comma before the act."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act]
    assert beside in named(result) and beside not in [a.normalized for a in result.actions]


@pytest.mark.parametrize(
    ("text", "act", "treated"),
    [
        (
            "Surgery for severe mitral regurgitation is recommended when symptoms develop.",
            "surgery",
            ["severe mitral regurgitation"],
        ),
        (
            "Pericardiectomy for recurrent tamponade or persistent infection should be considered.",
            "pericardiectomy",
            ["recurrent tamponade", "persistent infection"],
        ),
        (
            "Anticoagulation for LV thrombus should be considered for 3 to 6 months.",
            "anticoagulation",
            ["left ventricular thrombus"],
        ),
    ],
)
def test_an_act_for_a_condition_names_the_act_and_the_condition(
    lexicon, text: str, act: str, treated: list[str]
) -> None:
    """ "Surgery for severe mitral regurgitation": the act is the surgery, and the
    regurgitation it treats is a condition of the row, not part of the act's name; a
    duration ("for 3 months") or an aim ("for prevention of …") after "for" is neither."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act]
    assert all(named(result)[name].role == "Condition" for name in treated)


def test_for_a_duration_or_an_aim_is_no_condition(lexicon) -> None:
    result = extract(lexicon, "Echocardiography for assessment of valve function is recommended.")
    assert not any(c.role == "Condition" for c in result.concepts)


def test_screening_for_a_disease_looks_for_it(lexicon) -> None:
    """ "Screening for AF": the patients are searched for AF, they need not have it; the
    screening is the act, AF what it looks for (function purpose), and the row gains no
    criterion."""
    result = extract(lexicon, "Screening for AF is recommended in people over 75 years of age.")
    assert [a.normalized for a in result.actions] == ["screening"]
    assert [c.function for c in result.concepts if c.role == "Condition"] == ["purpose"]


def test_stable_is_part_of_the_name_it_qualifies(lexicon) -> None:
    """ "stable angina" and "unstable angina" are different disorders (and different
    terminology concepts): "stable" changes the meaning and stays in the span (the contract,
    section 4), as "long-term" or "routine" do not."""
    result = extract(
        lexicon, "Ivabradine should be considered in patients with stable angina and sinus rhythm."
    )
    assert ("Condition", "stable angina") in roles(result)


@pytest.mark.parametrize(
    "text",
    [
        "If a beta-blocker is not tolerated at any dose, ivabradine should be considered.",
        "Ivabradine should be considered in patients who cannot tolerate a beta-blocker.",
        "Ivabradine should be considered in patients intolerant of beta-blockers.",
        "If a beta-blocker is not tolerated (even after a second trial), ivabradine should be "
        "considered.",
    ],
)
def test_a_therapy_that_is_not_tolerated_is_an_intolerance(lexicon, text: str) -> None:
    """ "a beta-blocker is not tolerated", "cannot tolerate", "intolerant of": a predicative
    failure the contract keeps as a state of its own ("statin intolerance"), a Condition
    ("intolerant of X" is a name already); a bracketed "(even after …)" concession adds
    nothing."""
    result = extract(lexicon, text)
    name = "intolerant of beta-blocker" if "intolerant" in text else "beta-blocker intolerance"
    assert ("Condition", name) in roles(result)
    assert [a.normalized for a in result.actions] == ["ivabradine"]
    assert all(c.role != "Condition" or "intoleran" in c.normalized for c in result.concepts)


def test_never_having_had_a_therapy_is_a_condition(lexicon) -> None:
    """ "anticoagulant-naive patients": never given one, a state of the patient, whatever
    therapy it names; and a drug's stem ("-fiban") makes it a drug."""
    result = extract(
        lexicon, "Tirofiban may be considered in anticoagulant-naive patients undergoing PCI."
    )
    assert ("Condition", "anticoagulant-naive") in roles(result)
    assert [(a.role, a.normalized) for a in result.actions] == [("Medication", "tirofiban")]


def test_dose_wording_in_and_out_of_brackets_is_no_concept(lexicon) -> None:
    """ "in maximally tolerated doses", "(lowest effective doses)": how much is given, never
    a condition or another act (the contract: doses are not concepts)."""
    result = extract(
        lexicon,
        "In patients with Loeys-Dietz syndrome, a beta-blocker in maximally tolerated doses is "
        "recommended, and NSAIDs (lowest effective doses) may be added.",
    )
    assert not any("dose" in name for name in named(result))


def test_unless_contraindicated_leaves_out_patients_with_a_contraindication(lexicon) -> None:
    result = extract(
        lexicon, "Aspirin is recommended (unless contraindicated) in patients with prior stroke."
    )
    assert named(result)["contraindication"].negated


def test_a_bracket_of_manners_or_routes_is_how_the_act_is_done(lexicon) -> None:
    """ "(systemic or intrapericardial)", "(surgically or catheter based)": routes and
    manners of one act, not acts of their own."""
    result = extract(
        lexicon,
        "Closure of the duct (surgically or catheter based) is recommended, and steroids "
        "(oral or intravenous) may be considered.",
    )
    assert set(named(result)) == {"closure of the duct", "steroid"}


def test_combination_therapy_including_a_drug_names_the_drug(lexicon) -> None:
    result = extract(
        lexicon, "Combination therapy including an SGLT2 inhibitor is recommended in gout."
    )
    assert [a.normalized for a in result.actions] == ["sodium glucose cotransporter 2 inhibitor"]


def test_an_act_in_a_named_condition_names_the_condition(lexicon) -> None:
    """ "Ablation in paroxysmal AF is recommended": the words after "in" name a disease, so
    it is a condition of the row; "in low doses" is how much is given, no condition."""
    result = extract(lexicon, "Ablation in paroxysmal AF is recommended when drugs fail.")
    assert [a.normalized for a in result.actions] == ["ablation"]
    assert ("Condition", "paroxysmal atrial fibrillation") in roles(result)
    result = extract(lexicon, "Aspirin in low doses is recommended in pregnancy.")
    assert not any("dose" in name for name in named(result))


def test_a_risk_given_as_the_reason_is_no_condition(lexicon) -> None:
    """ "not recommended in children due to the associated risk of liver injury": the risk
    says why, the children are whom; "syncope due to SVT" (no "risk of") stays a condition."""
    result = extract(
        lexicon,
        "Aspirin is not recommended in children due to the associated risk of liver injury.",
    )
    assert set(named(result)) == {"aspirin", "children"}


def test_the_enumerators_of_a_criteria_list_are_no_concepts(lexicon) -> None:
    """ "who fulfil all of the following: (i) …; (ii) …": the numbering and the lead-in only
    hold the list; the criteria are the concepts."""
    result = extract(
        lexicon,
        "Exercise may be considered in individuals who fulfil all of the following: (i) LVEF "
        "above 50%; (ii) absence of arrhythmias; and (iii) no syncope.",
    )
    names = set(named(result))
    assert {"arrhythmia", "syncope", "left ventricular ejection fraction"} <= names
    assert not names & {"i", "ii", "iii", "fulfil all of the"}


def test_a_lone_hedge_or_duration_word_is_no_concept(lexicon) -> None:
    result = extract(
        lexicon,
        "Dabigatran may be considered, ideally at a reduced dose, and continued long-term.",
    )
    assert not {"ideally", "long-term"} & set(named(result))


@pytest.mark.parametrize(
    ("text", "name", "negated"),
    [
        (
            "Patients requiring pacing after valve repair. Epicardial leads should be considered.",
            "requirement for pacing",
            False,
        ),
        (
            "In adults who do not require surgery, watchful waiting is recommended.",
            "requirement for surgery",
            True,
        ),
    ],
)
def test_needing_an_act_is_a_state_of_the_patient(
    lexicon, text: str, name: str, negated: bool
) -> None:
    """ "patients requiring pacing": the row is for people who need the act, not a
    recommendation of it; the need is their condition (an indication), negated when they
    do not need it."""
    found = named(extract(lexicon, text))
    assert found[name].role == "Condition" and found[name].negated is negated
    assert "pacing" not in found and "surgery" not in found


def test_a_needed_drug_still_defines_the_cohort_by_its_therapy(lexicon) -> None:
    """ "patients requiring cardiotoxic chemotherapy" are those on (or about to start) the
    therapy: it stays the therapy that defines the cohort, not a need."""
    found = named(
        extract(
            lexicon,
            "Baseline echocardiography is recommended in patients requiring anthracycline "
            "chemotherapy.",
        )
    )
    assert found["anthracycline chemotherapy"].role == "Medication"


@pytest.mark.parametrize(
    "text",
    [
        "Women with Marfan syndrome should avoid strenuous isometric exercise.",
        "It is recommended that women with Marfan syndrome avoid strenuous isometric exercise.",
    ],
)
def test_patients_told_to_avoid_something_are_the_cohort(lexicon, text: str) -> None:
    """ "Women with X should avoid Y": the subject is who the row is for, and what they
    avoid is the act recommended (its avoidance), never one long concept."""
    found = named(extract(lexicon, text))
    assert found["marfan syndrome"].role == "Condition"
    assert "avoidance of strenuous isometric exercise" in found


def test_together_with_adds_one_more_recommended_act(lexicon) -> None:
    """ "X, together with Y, is recommended": Y is recommended as well, as with "and"; the
    word "together" is no concept."""
    found = named(
        extract(
            lexicon,
            "Regular walking, together with dietary counselling, is recommended in adults "
            "with obesity.",
        )
    )
    assert {"regular walking", "dietary counselling"} <= set(found)
    assert not any("together" in name for name in found)


def test_examples_of_the_conditions_an_act_treats_are_conditions(lexicon) -> None:
    """ "treatment of risk factors (i.e. hypertension and diabetes)": the bracket names the
    conditions being treated, not further acts."""
    found = named(
        extract(
            lexicon,
            "Good control of risk factors (i.e. arterial hypertension and obesity) is advised.",
        )
    )
    assert found["arterial hypertension"].role == "Condition"
    assert found["obesity"].role == "Condition"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Low-osmolar contrast media are recommended in adults with CKD.", "contrast media"),
        ("Prothrombin complex concentrate should be considered for bleeding.", "concentrate"),
    ],
)
def test_contrast_media_and_concentrates_are_given_like_drugs(
    lexicon, text: str, name: str
) -> None:
    """A contrast medium and a coagulation-factor concentrate are substances given to the
    patient: Medication (the contract: drugs and what is administered as a drug)."""
    result = extract(lexicon, text)
    (concept,) = [c for c in result.concepts if name in c.normalized]
    assert concept.role == "Medication"


@pytest.mark.parametrize(
    ("text", "diagnosis", "criteria"),
    [
        (
            "Constrictive physiology is diagnosed in the presence of a thick pericardium, "
            "septal bounce and respiratory variation.",
            "constrictive physiology",
            {"thick pericardium", "septal bounce", "respiratory variation"},
        ),
        (
            "In the absence of heart disease, vasovagal fainting should be considered likely "
            "when fainting follows prolonged standing.",
            "vasovagal fainting",
            {"heart disease"},
        ),
    ],
)
def test_a_diagnostic_criterion_row_recommends_the_diagnosis(
    lexicon, text: str, diagnosis: str, criteria: set[str]
) -> None:
    """ "X is diagnosed / likely when Y": what the row concludes is X, the disease, a
    Condition and the row's action (the development golds name it so in 11 of the 17 rows
    where the two readings differ; before, "diagnosis of X", a Procedure); the findings after
    "in the presence of" or "when" are its conditions, and an opening "In the absence of Z,"
    leaves Z out."""
    result = extract(lexicon, text)
    found = named(result)
    assert found[diagnosis].role == "Condition"
    assert [a.normalized for a in result.actions] == [diagnosis], result.actions
    assert criteria <= set(found)
    assert all(found[c].role == "Condition" for c in criteria)


def test_a_bulleted_list_of_criteria_is_the_conditions(lexicon) -> None:
    """ "… is indicated in the presence of one or more of the following: • A. • B.": each
    bulleted finding is a condition of the row, not an act, whatever its full stop."""
    found = named(
        extract(
            lexicon,
            "Valve repair is advised in the presence of one or more of the following: "
            "• Worsening breathlessness. • New atrial fibrillation.",
        )
    )
    assert found["worsening breathlessness"].role == "Condition"
    assert found["new atrial fibrillation"].role == "Condition"
    assert found["valve repair"].role == "Procedure"


@pytest.mark.parametrize(
    "text",
    [
        "Dual therapy with aspirin and an anticoagulant for longer than 2 weeks and up to 4 "
        "months should be considered in patients with stent thrombosis.",
        "Prolonging dual therapy with aspirin and an anticoagulant up to 3 months may be "
        "considered in patients with stent thrombosis.",
    ],
)
def test_how_long_a_therapy_lasts_is_no_concept(lexicon, text: str) -> None:
    """ "for longer than 2 weeks and up to 4 months", "an anticoagulant up to 3 months":
    durations of treatment are no concepts (the contract), and never part of a drug's name."""
    found = named(extract(lexicon, text))
    assert {"aspirin", "anticoagulant", "stent thrombosis"} <= set(found)
    assert not any("month" in name for name in found)


def test_over_an_age_is_a_bound_not_a_comparator(lexicon) -> None:
    """ "adults aged over 70 years": "over" is the bound of the age (>70 years), not the
    alternative the act is preferred over, and not a duration."""
    age = named(extract(lexicon, "Statins are recommended in adults aged over 70 years."))["age"]
    assert (age.operator, age.threshold, age.unit) == (">", 70.0, "years")


def test_a_plus_sign_between_two_tests_names_both(lexicon) -> None:
    """ "(echocardiography, CMR + CT)": the plus joins two tests, each a concept."""
    found = named(
        extract(lexicon, "Multimodality imaging (echocardiography, CMR + CT) is recommended.")
    )
    assert {"cardiac magnetic resonance", "computed tomography"} <= set(found)


def test_a_therapy_the_patient_does_not_want_is_a_state_of_the_patient(lexicon) -> None:
    """ "for whom drug therapy is not desired": the patient's choice against a therapy is
    who the row is for, a condition named as such, not the therapy."""
    found = named(
        extract(
            lexicon,
            "Ablation should be considered in patients for whom drug therapy is not desired.",
        )
    )
    assert found["drug therapy not desired"].role == "Condition"


def test_patients_should_also_receive_names_more_recommended_drugs(lexicon) -> None:
    """ "Patients should also receive X and Y": the patients are the subject; X and Y are
    recommended, never one concept with the verb in it."""
    found = named(
        extract(
            lexicon,
            "Digoxin may be considered in adults with heart failure. Patients should also "
            "receive an ACE inhibitor and an MRA.",
        )
    )
    assert "mineralocorticoid receptor antagonist" in found
    assert not any("receive" in name for name in found)


def test_for_termination_of_an_arrhythmia_is_the_aim(lexicon) -> None:
    """ "for termination of atrial tachycardia", "for reversing the anticoagulant effect": the
    aim of the act (an Outcome), as "for prevention of" is; termination keeps its noun,
    which says what is done to the arrhythmia."""
    found = named(
        extract(lexicon, "Burst pacing may be tried for termination of atrial tachycardia.")
    )
    assert found["termination of atrial tachycardia"].role == "Outcome"
    found = named(
        extract(lexicon, "Idarucizumab should be considered for reversing dabigatran effects.")
    )
    assert found["dabigatran effect"].role == "Outcome"


def test_an_indication_for_an_act_is_a_state_of_the_patient(lexicon) -> None:
    """ "without a current indication for ICD": having an indication describes the
    patient (a Condition), whatever act it names."""
    found = named(
        extract(
            lexicon,
            "Loop recorders should be considered in adults with fainting but without a current "
            "indication for ICD.",
        )
    )
    indication = found["current indication for implantable cardioverter defibrillator"]
    assert indication.role == "Condition" and indication.negated


@pytest.mark.parametrize(
    ("text", "conditions"),
    [
        (
            "Strain imaging is advised in adults with lymphoma having chemotherapy.",
            {"lymphoma"},
        ),
        (
            "A lower urate goal is advised in adults with gout at particularly high risk of "
            "flares.",
            {"gout", "particularly high risk of flare"},
        ),
    ],
)
def test_having_and_at_particularly_high_risk_open_a_new_condition(
    lexicon, text: str, conditions: set[str]
) -> None:
    """ "with lymphoma having chemotherapy", "with gout at particularly high risk of
    flares": "having" and "at … risk" open a second condition of the patients, as "with"
    does; the first one is never swallowed into a longer name."""
    found = named(extract(lexicon, text))
    assert conditions <= set(found)


def test_a_drug_eluting_or_coated_device_is_a_procedure(lexicon) -> None:
    """A drug-eluting stent, a drug-coated balloon: devices put in place (Procedure), though
    a drug is named in them."""
    found = named(extract(lexicon, "Drug-coated balloons should be considered for restenosis."))
    assert found["drug-coated balloon"].role == "Procedure"


def test_an_act_for_a_disease_keeps_the_role_of_the_act(lexicon) -> None:
    """ "in patients with prior surgery for endocarditis": the head before "for" names what
    the phrase is (a procedure in the background), as the head before "of" does."""
    found = named(
        extract(
            lexicon,
            "Monitoring is advised in adults with open surgery for acute aortic syndrome.",
        )
    )
    assert found["open surgery for acute aortic syndrome"].role == "Procedure"


def test_agents_with_proven_benefit_are_one_kind_of_agent(lexicon) -> None:
    """ "It is recommended to prioritize agents with proven benefit": "prioritize" only
    leads in, and "with proven benefit" says which agents, it is no component given with
    them."""
    found = named(
        extract(
            lexicon,
            "It is recommended to prioritize glucose-lowering agents with proven renal benefit.",
        )
    )
    assert found["glucose-lowering agents with proven renal benefit"].role == "Medication"


@pytest.mark.parametrize(
    "text",
    [
        "In adults with congenital heart disease, management according to the current ESC "
        "recommendations is advised.",
        "It is recommended to manage pregnancy in women with a Fontan circulation in an expert "
        "centre.",
    ],
)
def test_bare_management_names_no_act(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "management according to the guidelines", "to manage pregnancy": the word names no
    act of its own (the development golds never keep it; "management of X" is named by X)."""
    result = extract(lexicon, text)
    assert "management" not in named(result), result.concepts
