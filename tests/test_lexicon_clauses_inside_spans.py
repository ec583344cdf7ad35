"""Clauses the sentence rules did not cut: a modal verb inside a concept, the act of an "It
is recommended that <patients> <verb> <act>" row, a grade the patients were judged to have
and a dose written as the target one. In the team's own sentences.
"""

from __future__ import annotations

import re

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


def test_a_modal_verb_inside_a_concept_ends_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A second sentence saying what may also be done ("Longer gaps can be accepted …") is
    a clause of its own: its subject is the concept, the verb and what follows are
    no part of its name."""
    found = named(
        extract(
            lexicon,
            "Annual imaging is recommended after valve repair. Longer gaps can be accepted "
            "in patients whose valve stays stable.",
        )
    )
    assert "longer gaps" in found
    assert not any(" can " in name for name in found)


def test_a_kind_named_by_its_clause_keeps_the_modal_in_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Sports that may strain the repair": the clause is what says which sports; the
    modal cut stops at a relative word."""
    found = named(
        extract(
            lexicon,
            "Sports that may strain the repaired valve are not recommended after valve surgery.",
        )
    )
    assert any(name.startswith("sports that may strain") for name in found)
    abbreviation = named(
        extract(lexicon, "Screening is recommended in patients with diabetic CAN with hypotension.")
    )
    assert "diabetic can" in abbreviation  # CAN in capitals: an abbreviation, no modal


@pytest.mark.parametrize(
    ("text", "cohort", "act"),
    [
        (
            "It is recommended that patients with claudication perform supervised exercise.",
            ("Condition", "claudication"),
            ("Procedure", "supervised exercise"),
        ),
        (
            "It is recommended that patients with angina be on treatment with nitrates at "
            "target dose.",
            ("Condition", "angina"),
            ("Medication", "nitrate"),
        ),
        (
            "It is recommended that patients at low bleeding risk continue with oral "
            "anticoagulation.",
            ("Condition", "low bleeding risk"),
            ("Medication", "oral anticoagulation"),
        ),
        (
            "It is recommended that patients judged at low bleeding risk should proceed with "
            "surgery without delay.",
            ("Condition", "low bleeding risk"),
            ("Procedure", "surgery"),
        ),
    ],
)
def test_the_patients_of_a_that_clause_are_the_cohort_and_what_they_do_the_act(  # type: ignore[no-untyped-def]
    lexicon, text: str, cohort: tuple[str, str], act: tuple[str, str]
) -> None:
    """ "It is recommended that <patients> perform / continue / proceed with / be on <X>":
    the patients are whom it is for and X is what is recommended, as with "undergo" and
    "receive"; read as one phrase, the patients became the act. "at target dose" says how
    much, and "judged at" or "classified as" only introduces the grade they have."""
    result = extract(lexicon, text)
    assert [(a.role, a.normalized) for a in result.actions] == [act]
    assert cohort in {(c.role, c.normalized) for c in result.concepts}


def test_a_verb_inside_the_who_clause_is_not_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults who cannot walk … perform some activity": the first verb belongs to the
    relative clause describing the adults; the act is what follows the second."""
    result = extract(
        lexicon,
        "It is recommended that adults who cannot walk 30 min a day perform some daily activity.",
    )
    assert [a.normalized for a in result.actions] == ["some daily activity"]
    assert "cannot" not in named(result)
    adverb = extract(
        lexicon,
        "It is recommended that patients who regularly perform exercise undergo screening.",
    )
    assert [a.normalized for a in adverb.actions] == ["screening"]
    continued = extract(
        lexicon, "It is recommended that patients with angina continue to take nitrates."
    )
    assert [a.normalized for a in continued.actions] == ["nitrate"]


@pytest.mark.parametrize("grade_lead", ["classified as", "categorized as", "judged to be at"])
def test_a_grade_the_patients_were_judged_to_have_is_the_condition(  # type: ignore[no-untyped-def]
    lexicon, grade_lead: str
) -> None:
    """ "patients classified as very high risk" are patients with that grade: the verb is
    no part of the condition."""
    found = named(
        extract(lexicon, f"Statins are recommended in patients {grade_lead} very high risk.")
    )
    assert any(name.endswith("very high risk") for name in found)
    assert not any(grade_lead.split()[0] in name for name in found)


def test_patients_perceived_to_be_at_a_risk_have_that_risk(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients perceived / considered to be at high risk": the perception is no state of
    theirs; the risk is."""
    found = named(
        extract(lexicon, "Statins are recommended in patients perceived to be at high risk.")
    )
    assert "high risk" in found
    assert not any("perceived" in name for name in found)


def test_a_single_bolus_says_how_the_drug_is_given(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a single bolus heparin": the bolus is the way it is given, like a dose; the drug is
    heparin."""
    result = extract(
        lexicon,
        "In patients on warfarin, a single bolus heparin is recommended before the procedure.",
    )
    assert [(a.role, a.normalized) for a in result.actions] == [("Medication", "heparin")]


def test_drugs_such_as_a_b_and_c_are_the_three_drugs(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Drugs such as A, B and C may be considered": the word "drugs" names nothing the
    examples do not; they are the alternatives, and drugs even when their names are new to
    the rules."""
    result = extract(
        lexicon,
        "Drugs such as tocilizumab, sarilumab and baricitinib may be considered in patients "
        "with refractory arthritis.",
    )
    actions = {(a.role, a.normalized) for a in result.actions}
    assert actions == {
        ("Medication", "tocilizumab"),
        ("Medication", "sarilumab"),
        ("Medication", "baricitinib"),
    }
    assert "drug" not in named(result)


def test_a_patient_word_joined_by_a_hyphen_names_no_patient(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Person-centred care" is a kind of care: the hyphen makes "person" part of another
    word, so it does not open a cohort."""
    result = extract(lexicon, "Person-centred follow-up is recommended for older adults.")
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("Procedure", "person-centred follow-up")
    ]


@pytest.mark.parametrize(
    ("text", "goals"),
    [
        (
            "Person-centred follow-up is recommended to facilitate joint goal setting.",
            {"joint goal setting"},
        ),
        (
            "Intravascular imaging should be considered to optimize balloon sizing.",
            {"balloon sizing"},
        ),
        (
            "Ablation is recommended in patients with frequent ectopy to restore sinus rhythm "
            "and enable exercise training.",
            {"sinus rhythm", "exercise training"},
        ),
        (
            "Ferritin testing should be considered to guide the dosing interval and assess "
            "the iron stores.",
            {"dosing interval", "iron store"},
        ),
    ],
)
def test_what_care_is_meant_to_enable_is_a_stated_goal(  # type: ignore[no-untyped-def]
    lexicon, text: str, goals: set[str]
) -> None:
    """ "to facilitate / optimize / guide / enable X" states what the recommendation is for,
    like "to improve X": X is an Outcome, unlike what a test is meant to find; a second verb
    of the same aim ("and enable Y", "and assess Y") leads in to its own object."""
    result = extract(lexicon, text)
    assert {c.normalized for c in result.concepts if c.role == "Outcome"} == goals


def test_a_pointer_to_web_material_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(Web Figure 4)", like "Supplementary Data Table 2", points elsewhere in the
    document."""
    found = named(
        extract(lexicon, "Drainage may be considered in patients with effusion (Web Figure 2).")
    )
    assert not any("figure" in name for name in found)


@pytest.mark.parametrize(
    ("text", "guided"),
    [
        (
            "IVUS is recommended to guide PCI in patients with left main disease.",
            "percutaneous coronary intervention",
        ),
        (
            "Genetic testing may be considered to guide the decision on the timing of valve "
            "repair.",
            "valve repair",
        ),
    ],
)
def test_an_act_a_test_guides_is_done_anyway(lexicon, text: str, guided: str) -> None:  # type: ignore[no-untyped-def]
    """ "to guide PCI", "to guide the timing of surgery": the act guided is done whatever
    the test shows, like the act a cohort undergoes; it is a Procedure beside the
    recommended test, not a goal, and "the timing of" names no part of it."""
    result = extract(lexicon, text)
    assert ("Procedure", guided) in {(c.role, c.normalized) for c in result.concepts}
    assert guided not in {a.normalized for a in result.actions}


@pytest.mark.parametrize("act", ["risk stratification", "clinical decision-making"])
def test_a_care_act_named_as_what_a_test_is_for_is_a_procedure(lexicon, act: str) -> None:  # type: ignore[no-untyped-def]
    """ "for risk stratification", "for clinical decision-making": stratifying, deciding,
    working up and optimizing are acts of care, whatever slot they stand in, not states
    of the patient."""
    result = extract(
        lexicon, f"Echocardiography is recommended for {act} in patients with heart murmurs."
    )
    assert ("Procedure", act) in {(c.role, c.normalized) for c in result.concepts}


def test_not_using_a_therapy_negates_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "women who are not using contraception", like "not taking" or "not receiving": the
    therapy is negated, the verb is no part of it."""
    result = extract(
        lexicon, "Warfarin is not recommended in women who are not using reliable contraception."
    )
    negated = {c.normalized for c in result.concepts if c.negated}
    assert negated == {"reliable contraception"}


@pytest.mark.parametrize(
    ("text", "goals"),
    [
        ("Insulin is recommended for glucose control.", {"glucose control"}),
        (
            "During steroid therapy, a proton pump inhibitor is recommended for stomach "
            "protection.",
            {"stomach protection"},
        ),
        (
            "Tai chi twice a week is recommended in older adults for balance, bone health, and "
            "mobility benefits.",
            {"balance", "bone health", "mobility"},
        ),
        ("Revascularization is recommended for prognostic benefit.", {"prognostic benefit"}),
    ],
)
def test_a_goal_named_after_for_is_an_outcome(lexicon, text: str, goals: set[str]) -> None:  # type: ignore[no-untyped-def]
    """ "for pain control", "for gastric protection", "for … strength benefits": what the
    act is meant to bring about, named as a noun, is a stated goal (an Outcome), not a
    condition the patients have; "benefits" after a noun names nothing more (after an
    adjective, "prognostic benefit", it is the noun)."""
    result = extract(lexicon, text)
    assert {c.normalized for c in result.concepts if c.role == "Outcome"} == goals


def test_along_with_adds_a_second_recommended_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Aerobic exercise, along with resistance training, is recommended": both acts are
    recommended, as with "and"; "along" is no act."""
    result = extract(lexicon, "Walking, along with stretching, is recommended in older adults.")
    assert {a.normalized for a in result.actions} == {"walking", "stretching"}


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        (
            "Transcutaneous pacing should be considered when temporary transvenous pacing is "
            "not possible or available.",
            ("Procedure", "temporary transvenous pacing"),
        ),
        (
            "MRI may be considered in patients with pacemakers if no alternative imaging "
            "modality is available.",
            ("Procedure", "alternative imaging modality"),
        ),
    ],
)
def test_an_act_that_cannot_be_had_is_its_absence(  # type: ignore[no-untyped-def]
    lexicon, text: str, absent: tuple[str, str]
) -> None:
    """ "when X is not possible or available", "if no X is available": the row is for
    patients without X, so X is negated and keeps the role of what it is; the words of the
    clause are no part of it."""
    result = extract(lexicon, text)
    negated = {(c.role, c.normalized) for c in result.concepts if c.negated}
    assert negated == {absent}


def test_a_state_one_enters_named_as_the_recommendation_is_an_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Pregnancy is not recommended in women with X": what is (not) recommended is
    something done, even when the terminology files the word as a finding; a disorder to
    treat ("treat hypertension") keeps its role."""
    result = extract(
        lexicon, "Pregnancy is not recommended in women with a failing systemic ventricle."
    )
    assert [(a.role, a.normalized) for a in result.actions] == [("Procedure", "pregnancy")]
    treated = extract(lexicon, "It is recommended to treat hypertension in older adults.")
    assert ("Condition", "hypertension") in {(c.role, c.normalized) for c in treated.concepts}


def test_a_list_in_square_brackets_is_read_like_one_in_round_brackets(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "any markers of risk [(i) A; (ii) B; (iii) C]": the bracket lists the kinds of the
    head as a round one would; read as part of the head, the items were lost."""
    result = extract(
        lexicon,
        "Scuba diving is not recommended in people with any signs of raised risk [(i) "
        "fainting; (ii) prior lung collapse; (iii) chest pain on effort].",
    )
    found = set(named(result))
    assert {"fainting", "prior lung collapse", "chest pain on effort"} <= found
    assert not any("[" in name for name in found)


def test_a_wait_counted_from_events_keeps_the_events(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "delay surgery until 6 months after PCI and 12 months after an ACS": how long to wait
    is no concept, but the events the wait counts from say whom the row is for; "until
    symptoms resolve" still says only when to stop."""
    result = extract(
        lexicon,
        "It is recommended to postpone a hip replacement until 3 months after a stroke and "
        "6 months after valve surgery.",
    )
    found = set(named(result))
    assert {"stroke", "valve surgery"} <= found
    stop = named(extract(lexicon, "Anticoagulation should be continued until symptoms resolve."))
    assert set(stop) == {"anticoagulation"}


def test_a_stopping_point_that_lists_tests_names_no_test(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "until normalisation of troponin, ECG and echocardiography": the list after "until"
    says when the restriction ends, not what is done; its commas do not end the clause."""
    result = extract(
        lexicon,
        "Strenuous exercise should be avoided in patients with acute myocarditis until "
        "normalisation of troponin, ECG and echocardiography.",
    )
    assert set(named(result)) == {"avoidance of strenuous exercise", "acute myocarditis"}


def test_a_list_of_indications_of_an_act_names_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Surgery for A, B, C and D": three or more indications listed with commas are the
    cases the act is done for, any one of them enough; the "and" lists them (the contract,
    §6). A test "for A, B and C" looks at all of them (whichever way the sentence puts it),
    and two indications joined by "and" may be meant together: neither is grouped."""
    result = extract(
        lexicon,
        "Thyroidectomy should be considered for large goitres, compressive symptoms, "
        "suspected malignancy and relapse after drug therapy.",
    )
    conditions = [c for c in result.concepts if c.role == "Condition"]
    assert len(conditions) == 4
    for other in conditions[1:]:
        assert_one_or_group(conditions[0], other)
    one_comma = extract(
        lexicon, "Thyroidectomy should be considered for large goitres, malignancy and relapse."
    )
    assert len({c.or_group for c in one_comma.concepts if c.role == "Condition"}) == 1
    looked_at = extract(
        lexicon,
        "Assessment for renal function, liver enzymes, and lipid levels is recommended in "
        "athletes.",
    )
    assert all(c.or_group is None for c in looked_at.concepts)
    imaged = extract(
        lexicon,
        "Echocardiography is recommended for valve disease, cardiomyopathy, and aortic dilatation.",
    )
    assert all(c.or_group is None for c in imaged.concepts)


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        (
            "Rehabilitation is recommended for patients after a stroke and for patients with "
            "claudication.",
            {"stroke", "claudication"},
        ),
        (
            "Urgent pacing is recommended for any bradycardia with syncope and for complete "
            "heart block.",
            {"bradycardia", "complete heart block"},
        ),
        (
            "Imaging is advised in men with a dilated aortic root of 48 mm and in women with a "
            "dilated aortic root of 44 mm.",
            {"men", "women"},
        ),
    ],
)
def test_the_same_lead_twice_names_two_groups_either_enough(  # type: ignore[no-untyped-def]
    lexicon, text: str, pair: set[str]
) -> None:
    """ "for patients after MI and for patients with HF", "for A and for B": repeating the
    lead names a second group beside the first; the row is for either (the contract, §6),
    so the heads of the two groups share one OR label."""
    found = named(extract(lexicon, text))
    first, second = sorted(pair)
    assert_one_or_group(found[first], found[second])


def test_bracketed_examples_of_a_state_are_alternatives_to_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at high bleeding risk (e.g. a bleeding score ≥25)", "at very high risk (e.g. with
    diabetes or kidney disease)": each example is one way to be in the state, so the state
    and its examples share one OR label. A kind of the state ("hypertension (e.g. grade 3
    hypertension)") and examples running on without brackets ("disease, including A and
    B") are not grouped with the head."""
    result = extract(
        lexicon,
        "Closer follow-up should be considered in patients at high bleeding risk (e.g. with "
        "anaemia or liver disease).",
    )
    state = named(result)["high bleeding risk"]
    assert state.or_group is not None
    assert named(result)["anaemia"].or_group == state.or_group
    kinds = extract(
        lexicon,
        "Pacing should be considered in patients with conduction disease, including "
        "myotonic dystrophy and Kearns-Sayre syndrome.",
    )
    assert named(kinds)["conduction disease"].or_group is None
    kind_of_it = extract(
        lexicon,
        "Statins are recommended in patients with hypertension (e.g. stage 2 hypertension).",
    )
    assert named(kind_of_it)["hypertension"].or_group is None
    comma = extract(
        lexicon,
        "Closer follow-up should be considered in patients at high bleeding risk (e.g., with "
        "anaemia or liver disease).",
    )
    assert named(comma)["high bleeding risk"].or_group is not None


def test_two_kinds_of_one_disease_sharing_its_name_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "infectious and autoimmune myocarditis": a patient has one kind or the other, so
    the two named with one head share an OR label, as "infectious or autoimmune" would. A
    head read across a clause ("who are asymptomatic and have low risk") is no such pair."""
    result = extract(
        lexicon, "Biopsy is recommended in patients with infectious and autoimmune myocarditis."
    )
    kinds = named(result)
    assert_one_or_group(kinds["infectious myocarditis"], kinds["autoimmune myocarditis"])
    across = named(
        extract(
            lexicon,
            "Repair is recommended in patients who are asymptomatic and have low operative risk.",
        )
    )
    assert all(c.or_group is None for c in across.values())


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("Annual screening is recommended in men and women with diabetes.", {"men", "women"}),
        (
            "Annual screening is recommended in older adults and children with diabetes.",
            {"older adults", "children"},
        ),
    ],
)
def test_a_second_group_of_people_is_kept_beside_the_first(  # type: ignore[no-untyped-def]
    lexicon, text: str, groups: set[str]
) -> None:
    """ "men and women with diabetes": both groups are named, either of them, and what
    follows is said of both; the second group was lost as if it were the generic
    "patients"."""
    result = extract(lexicon, text)
    found = named(result)
    assert groups <= set(found) and "diabetes mellitus" in found
    assert len({found[g].or_group for g in groups}) == 1
    assert found[next(iter(groups))].or_group is not None


@pytest.mark.parametrize(
    "text",
    [
        "Aspirin is recommended in patients with stable angina, maintained over 6 months.",
        "Aspirin is recommended in patients with stable angina, continued for at least 9 months.",
        "Screening should be considered in survivors, starting at 3 years after treatment.",
        "Statins are recommended for the majority of adults with diabetes.",
        "Aspirin is recommended in patients with ACS. Options are:",
    ],
)
def test_words_left_over_from_a_schedule_or_a_list_lead_are_no_concepts(  # type: ignore[no-untyped-def]
    lexicon, text: str
) -> None:
    """ "maintained over 12 months", "starting at 5 years": once the duration goes, the verb
    left alone names nothing; nor does "the majority of", or a sentence that only announces
    the list printed in the next rows ("Options are:")."""
    found = set(named(extract(lexicon, text)))
    assert not found & {"maintained", "continued", "starting", "majority", "options", "option"}


def test_a_word_that_lends_its_noun_is_a_name_not_a_leftover(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a structured and supervised walking programme": "structured" stands for the
    structured programme, a name of its own, even though "structured" left alone by a
    broken list names nothing."""
    found = set(
        named(
            extract(
                lexicon,
                "A structured and supervised walking programme should be considered in patients "
                "with claudication.",
            )
        )
    )
    assert "structured walking programme" in found


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        ("Surgery is recommended 12 h after the last dose of apixaban.", "apixaban"),
        (
            "Digoxin may be considered despite treatment with an adequate dose of a calcium "
            "blocker.",
            "calcium blocker",
        ),
        ("A pump should be considered in patients who need a high dose of insulin.", "insulin"),
    ],
)
def test_which_dose_of_a_drug_is_no_part_of_its_name(  # type: ignore[no-untyped-def]
    lexicon, text: str, drug: str
) -> None:
    """ "the last dose of X", "an adequate dose of X", "a high dose of X": which dose,
    like how much, is no concept; the drug is named alone (and a verb that needs it, "who
    need X", is no part of it). Only the words that say which dose go: "patients receiving
    high dose of X" keep "receiving"."""
    found = set(named(extract(lexicon, text)))
    assert drug in found
    assert not any(" of " in name and drug in name for name in found)
    receiving = extract(
        lexicon, "Statins are recommended in patients receiving high dose of aspirin."
    )
    assert ("Medication", "aspirin") in {(c.role, c.normalized) for c in receiving.concepts}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Valve repair is advised in adults with severe regurgitation and should only be "
            "done by an experienced surgeon.",
            {"valve repair", "severe regurgitation"},
        ),
        (
            "It is recommended to screen adults with heart failure for kidney disease, which, "
            "if present, should be treated.",
            {"heart failure"},
        ),
        (
            "In treated adults, diastolic pressure is advised to be lowered to <80 mmHg.",
            set(),
        ),
    ],
)
def test_a_piece_opening_with_a_modal_or_passive_verb_names_nothing(  # type: ignore[no-untyped-def]
    lexicon, text: str, kept: set[str]
) -> None:
    """ "should only be done by …", "should be treated", "to be lowered to …": a piece that
    opens with a modal or passive verb is a predicate cut from its sentence, not a disease,
    a test or a drug; it is no concept."""
    found = named(extract(lexicon, text))
    assert kept <= set(found), found
    assert not [
        name for name in found if re.match(r"(?:should|could|may|must|to be|being)\b", name)
    ], found


def test_a_possible_exception_and_what_other_than_leaves_out_are_negated(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ ", with the possible exception of A and B" excepts A and B as ", with the exception
    of" does; "drugs other than A" and "tests (other than A or B)" leave A and B out. What is
    left out is negated and is never an act, and the words "possible exception of" or "other
    than" are no part of a name."""
    result = extract(
        lexicon,
        "Routine fungal serology is not advised, with the possible exception of HIV and "
        "hepatitis B.",
    )
    found = named(result)
    assert found["hiv"].negated and found["hepatitis b"].negated, found
    assert [a.normalized for a in result.actions] == ["fungal serology"]
    found = named(
        extract(
            lexicon,
            "Breastfeeding is not advised in mothers who take anticoagulants other than "
            "low-molecular-weight heparin.",
        )
    )
    assert found["low-molecular-weight heparin"].negated, found
    result = extract(
        lexicon,
        "Imaging tests (other than echocardiography or MRI) are not advised in adults with "
        "pericarditis.",
    )
    found = named(result)
    assert found["echocardiography"].negated and found["magnetic resonance imaging"].negated
    assert [a.normalized for a in result.actions] == ["imaging test"]
    assert not [name for name in found if "other than" in name or "exception" in name]


def test_a_when_clause_after_the_patients_is_a_condition_not_the_verb(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "In patients with X, when Y is indicated and Z is suitable, A is recommended": the
    verb inside the "when" clause does not recommend; A is the act, X the patients, and the
    clause's parts are conditions of the row."""
    result = extract(
        lexicon,
        "In patients with gout, when surgery is indicated and the anatomy is suitable, "
        "arthroscopy is recommended over open repair.",
    )
    assert [a.normalized for a in result.actions] == ["arthroscopy"]
    conditions = {c.normalized for c in result.concepts if c.role == "Condition"}
    assert "gout" in conditions and not any(n.startswith("when") for n in conditions)
