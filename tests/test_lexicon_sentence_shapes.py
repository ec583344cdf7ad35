"""The lexicon on the ways real guideline rows are written, continued from
test_lexicon_guideline_language.py: disease morphology, sentence shapes (lead clauses,
colons, two recommendations in one row, verbless openings), exceptions, failed therapies,
durations and hedges, settings, devices and grade ranges.

Every sentence here is the team's own, written to reproduce one way recommendation tables
phrase a criterion; none is taken from a guideline. Each test says why its rule exists.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named, roles


def test_disease_morphology_names_a_condition(lexicon) -> None:
    """A head word such as "-penia", "-itis" or "-pathy" names a disorder, even after a drug
    word ("heparin-induced thrombocytopenia")."""
    r = roles(
        extract(lexicon, "Argatroban is advised in patients with heparin-induced thrombocytopenia.")
    )
    assert ("Condition", "heparin-induced thrombocytopenia") in r


def test_how_patients_arrived_is_no_concept(lexicon) -> None:
    """ "Patients admitted with X" / "presenting with X": the state is X."""
    r = roles(
        extract(lexicon, "Diuretics are advised in patients admitted with acute heart failure.")
    )
    assert ("Condition", "acute heart failure") in r
    assert not [name for _, name in r if "admitted" in name]


def test_what_resists_a_therapy_is_a_state_and_a_past_event_keeps_its_role(lexicon) -> None:
    """ "Angina refractory to medical therapy" is a state of the patient (the angina) on a
    therapy it resists, named apart as the background the patients are on, never the whole
    phrase as a drug; "recent stroke" is an event the patient had (a Condition), while
    "prior PCI" is a procedure in the background."""
    r = roles(
        extract(lexicon, "Surgery is advised in patients with angina refractory to drug therapy.")
    )
    assert {("Condition", "angina"), ("Medication", "drug therapy")} <= r
    r = roles(
        extract(
            lexicon,
            "OAC is advised in AF patients, unless there is recent intracranial haemorrhage.",
        )
    )
    assert ("Condition", "recent intracranial haemorrhage") in r
    r = roles(extract(lexicon, "DAPT is advised in patients with prior PCI."))
    assert ("Procedure", "prior percutaneous coronary intervention") in r


def test_patients_left_out_by_an_exception_or_a_not(lexicon) -> None:
    """ "Except those with X" leaves out a patient group: X negated, "those with" no part of
    it; "who are not candidates for A or B" negates the candidacy."""
    c = named(extract(lexicon, "Beta-blockers are advised in angina, except those with vasospasm."))
    assert c["vasospasm"].negated
    c = named(
        extract(
            lexicon, "An ICD is not advised in patients who are not candidates for transplantation."
        )
    )
    assert any(name.startswith("candidate") and concept.negated for name, concept in c.items())


def test_two_adjectives_share_the_noun_after_a_lead_word(lexicon) -> None:
    """ "Percutaneous or surgical biopsy", "cases of suspected viral or bacterial
    pericarditis": the shared head reaches the first adjective also when the sentence starts
    with it or words such as "cases of" stand before it."""
    c = named(
        extract(
            lexicon,
            "Transthoracic or transoesophageal echocardiography is advised in cases of "
            "suspected viral or bacterial pericarditis.",
        )
    )
    assert_one_or_group(c["transthoracic echocardiography"], c["transoesophageal echocardiography"])
    assert_one_or_group(c["suspected viral pericarditis"], c["suspected bacterial pericarditis"])


def test_timing_dosing_schemes_and_list_lead_ins_are_no_concepts(lexicon) -> None:
    """ "As soon as the diagnosis is made" says when; "(loading dose, daily dose)" how much;
    "in the presence of one or more of the following:" only announces the criteria; "is
    present" says the criterion holds."""
    r = roles(
        extract(
            lexicon,
            "Prasugrel (60 mg loading dose, 10 mg daily dose) is advised as soon as the "
            "diagnosis is made in patients with ACS.",
        )
    )
    assert not [name for _, name in r if "dose" in name or "soon" in name or "diagnosis" in name]
    r = roles(
        extract(
            lexicon,
            "Surgery is advised in the presence of one or more of the following: syncope, "
            "angina or heart failure.",
        )
    )
    assert not [name for _, name in r if "following" in name or "presence" in name]
    assert ("Condition", "syncope") in r
    r = roles(extract(lexicon, "Surgery is advised when AF or pulmonary hypertension is present."))
    assert not [name for _, name in r if name == "present"]


def test_the_head_of_x_of_y_is_x_and_a_first_line_use_names_the_condition(lexicon) -> None:
    """ "Surgery of the aortic arch" is a surgery; "recommended as first-line therapy for
    acute gout" recommends it for patients with acute gout."""
    r = roles(extract(lexicon, "Aspirin is advised after surgery of the aortic arch."))
    assert ("Procedure", "surgery of the aortic arch") in r
    r = roles(extract(lexicon, "Colchicine is advised as first-line therapy for acute gout."))
    assert ("Condition", "acute gout") in r


def test_an_expansion_is_a_name_not_a_note_and_never_doubles_a_word(lexicon) -> None:
    """A guideline's list may define "NP = natriuretic peptides (BNP and NT-proBNP)": the
    bracket is a note, not part of the name; "WPW syndrome" expands without "syndrome
    syndrome"."""
    from cardio_assets.logic.abbreviations import Abbreviations

    a = Abbreviations(
        {"NP": "natriuretic peptides (BNP and NT-proBNP)", "WPW": "Wolff-Parkinson-White syndrome"}
    )
    assert a.normalize("NP") == "natriuretic peptide"
    assert a.normalize("WPW syndrome") == "wolff-parkinson-white syndrome"


def test_a_bracketed_clause_is_a_condition_and_a_lone_qualifier_no_concept(lexicon) -> None:
    """ "Echocardiography (if not recently performed)" is recommended on a condition, not a
    second action; "stenting (covered)" only says which stenting."""
    result = extract(
        lexicon, "Echocardiography (if not recently performed) is advised before surgery."
    )
    assert [a.normalized for a in result.actions] == ["echocardiography"]
    result = extract(lexicon, "Stenting (covered) is advised in patients with a baffle leak.")
    assert [a.normalized for a in result.actions] == ["stenting"]
    assert not [c for c in result.concepts if c.normalized == "covered"]


def test_schedules_sequences_and_lead_verbs_are_no_part_of_concepts(lexicon) -> None:
    """ "At 1, 3 and 6 months after onset, then yearly" is when imaging is repeated; "X
    followed by Y" gives both; "scheduled to receive X", "develop X", "before starting X"
    name X."""
    r = roles(
        extract(
            lexicon,
            "Imaging is advised at 1, 3 and 6 months after onset, then yearly, in patients "
            "with a dissection.",
        )
    )
    assert not [name for _, name in r if "month" in name or "yearly" in name or name == "onset"]
    result = extract(lexicon, "Nodal ablation followed by pacing is advised in refractory AF.")
    assert {a.normalized for a in result.actions} == {"nodal ablation", "pacing"}
    r = roles(
        extract(
            lexicon,
            "Echocardiography is advised in patients scheduled to receive anthracyclines "
            "and in those who develop heart failure, before starting trastuzumab.",
        )
    )
    assert ("Medication", "anthracycline") in r and ("Condition", "heart failure") in r
    assert not [name for _, name in r if name.startswith(("scheduled", "develop", "starting"))]


def test_a_second_value_after_and_is_the_same_quantitys(lexicon) -> None:
    """ "A diameter ≥40 mm and <50 mm": the value after "and" bounds the same quantity; a
    pause measured in seconds is a parameter; "survive for ≥1 year" is no age."""
    c = [
        x
        for x in extract(
            lexicon, "Imaging is advised for a root diameter ≥40 mm and <50 mm."
        ).concepts
    ]
    params = [(x.normalized, x.operator, x.threshold) for x in c if x.role == "ClinicalParameter"]
    assert params == [("root diameter", ">=", 40.0), ("root diameter", "<", 50.0)]
    c = named(extract(lexicon, "Pacing is advised in patients with pauses >4 s."))
    assert (c["pause"].operator, c["pause"].threshold, c["pause"].unit) == (">", 4.0, "s")
    r = roles(extract(lexicon, "An ICD is advised in patients expected to survive for >1 year."))
    assert not [name for _, name in r if name == "age"]


def test_preferred_is_a_recommending_verb_and_a_used_drug_is_the_drug(lexicon) -> None:
    """ "X should be preferred over Y" recommends X; "when clopidogrel is used" names the drug
    the patient is given."""
    result = extract(
        lexicon, "When clopidogrel is used, pantoprazole should be preferred over omeprazole."
    )
    assert [a.normalized for a in result.actions] == ["pantoprazole"]
    assert ("Medication", "clopidogrel") in roles(result)


def test_a_bare_value_after_a_named_one_in_the_same_unit_is_that_quantitys(lexicon) -> None:
    """ "QTc >500 ms or ≥480 ms on treatment": the second value is a QTc too; a value in
    another unit ("<1.4 mmol/L and a ≥50% fall") is not; an expected survival is measured in
    months."""
    c = [
        x
        for x in extract(
            lexicon, "ECGs are advised in patients with QTc >500 ms or ≥480 ms on treatment."
        ).concepts
    ]
    assert [(x.normalized, x.threshold) for x in c if x.role == "ClinicalParameter"] == [
        ("corrected qt interval", 500.0),
        ("corrected qt interval", 480.0),
    ]
    c = named(
        extract(lexicon, "An ICD is advised in patients with an expected survival ≥12 months.")
    )
    assert (c["expected survival"].operator, c["expected survival"].unit) == (">=", "months")


def test_a_verb_that_ends_a_therapy_stays_in_the_action(lexicon) -> None:
    """ "Heparin should be discontinued" recommends stopping heparin: an action named
    "heparin" would recommend the drug itself. The span stays the drug as printed; the
    name carries the act. "... to stop X and start Y" starts Y."""
    result = extract(lexicon, "Heparin should be discontinued in patients with thrombocytopenia.")
    (action,) = result.actions
    assert (action.normalized, action.text) == ("discontinuation of heparin", "Heparin")
    result = extract(
        lexicon, "It is recommended to stop warfarin and start heparin before delivery."
    )
    assert {a.normalized for a in result.actions} == {"discontinuation of warfarin", "heparin"}


def test_but_joins_two_conditions_and_a_comparison_is_no_criterion(lexicon) -> None:
    """ "Who meet criteria for surgery but have a high surgical risk" holds both (a state and
    a risk); "but not in those with X" leaves X out; "in the same way as for middle-aged
    adults" compares, it restricts nothing."""
    r = roles(
        extract(
            lexicon,
            "TEVAR is advised in patients who meet criteria for surgery but have a high surgical risk.",
        )
    )
    assert ("Condition", "meet criteria for surgery") in r and (
        "Condition",
        "high surgical risk",
    ) in r
    c = named(
        extract(lexicon, "OAC is advised in patients with AF but not in those with a low score.")
    )
    assert c["low score"].negated and not c["atrial fibrillation"].negated
    r = roles(
        extract(
            lexicon,
            "Statins are advised for older people in the same way as for middle-aged adults.",
        )
    )
    assert ("Condition", "older people") in r
    assert not [name for _, name in r if "middle-aged" in name or "same" in name]


def test_a_list_announced_by_the_following_circumstances_is_the_condition(lexicon) -> None:
    """ "Not advised in the following circumstances: A, B and C" applies to A, B and C."""
    r = roles(
        extract(
            lexicon,
            "Sport is not advised in the following circumstances: hypokalaemia, syncope and fever.",
        )
    )
    assert {("Condition", "hypokalaemia"), ("Condition", "syncope"), ("Condition", "fever")} <= r


def test_an_unknown_name_offered_beside_drugs_is_a_drug(lexicon) -> None:
    """ "Treatment with IV zorbatol, oral quindopa or nifedipine": names nothing identifies,
    offered as alternatives to a known drug, are drugs too; a lead clause ends before the
    action whose list starts after "with" even when the last item opens with "or"."""
    result = extract(
        lexicon,
        "In severe hypertension, drug treatment with IV zorbatol, oral quindopa, or nifedipine "
        "is advised.",
    )
    assert {a.normalized for a in result.actions} == {"iv zorbatol", "oral quindopa", "nifedipine"}
    assert {c.role for c in result.concepts if c.normalized != "severe hypertension"} == {
        "Medication"
    }


def test_glued_citation_digits_values_alone_and_clause_crossing_ellipses(lexicon) -> None:
    """A citation glued inside the sentence ("is recommended19 before") hides the verb; "(<24
    h)" is a value with nothing it measures; "asymptomatic, and optimally treated patients
    with X" does not lend "treated patients with X" to "asymptomatic"."""
    result = extract(lexicon, "A baseline ECG is recommended19 before starting trastuzumab.")
    assert [a.normalized for a in result.actions] == ["baseline electrocardiogram"]
    result = extract(lexicon, "An invasive strategy (<24 h) is advised in NSTE-ACS.")
    assert [a.normalized for a in result.actions] == ["invasive strategy"]
    c = named(
        extract(
            lexicon,
            "Sport is advised in stable, asymptomatic, and optimally treated patients with HF.",
        )
    )
    assert "asymptomatic" in c


def test_two_recommendations_joined_by_and_are_read_apart(lexicon) -> None:
    """ "A is recommended for all patients, and B is recommended for those with X": each has
    its own verb; and "when technically feasible" only says how."""
    result = extract(
        lexicon,
        "An ECG is recommended for all patients, and echocardiography is recommended for "
        "those with murmurs.",
    )
    assert {a.normalized for a in result.actions} == {"electrocardiogram", "echocardiography"}
    assert ("Condition", "murmur") in roles(result)
    r = roles(extract(lexicon, "Device closure is recommended when technically feasible."))
    assert r == {("Procedure", "device closure")}


def test_a_verbless_sentence_before_the_recommendation_says_whom_it_is_for(lexicon) -> None:
    """Tables print a heading-like line first: "Complete AV block after valve surgery. A
    pacemaker is recommended." The first sentence restricts the second; "(i.e. CRP)" and
    "vs. placebo" end no sentence."""
    result = extract(lexicon, "Complete AV block after valve surgery. A pacemaker is recommended.")
    assert [a.normalized for a in result.actions] == ["pacemaker"]
    assert ("Condition", "complete av block") in roles(result)
    result = extract(
        lexicon,
        "Inflammation markers (i.e. CRP and ESR) are recommended in suspected pericarditis.",
    )
    assert ("Condition", "suspected pericarditis") in roles(result)


def test_free_from_negates_and_a_developed_value_is_the_value(lexicon) -> None:
    """ "Athletes free from arrhythmias": without them; "who develop QTc ≥500 ms": the QTc
    value, "develop" no concept; steroids are drugs; "once-yearly" says how often, as
    "yearly" does, and leaves no piece of itself behind."""
    c = named(extract(lexicon, "Sport is advised for athletes free from arrhythmias."))
    assert c["arrhythmia"].negated and "athletes" in c
    r = roles(extract(lexicon, "ECG is advised in patients who develop QTc ≥500 ms."))
    assert ("ClinicalParameter", "corrected qt interval") in r and not [
        n for _, n in r if n == "develop"
    ]
    assert ("Medication", "corticosteroid") in roles(
        extract(lexicon, "Corticosteroids are not recommended in acute pericarditis.")
    )
    r = roles(extract(lexicon, "Once-yearly follow-up is recommended after surgery."))
    assert ("Procedure", "follow-up") in r and not [n for _, n in r if "once" in n]


def test_what_a_recommended_whole_consists_of_is_recommended(lexicon) -> None:
    """ "A first evaluation is recommended, with auscultation, ECG and a chest X-ray": the
    listed tests are what is done."""
    result = extract(
        lexicon,
        "In suspected myocarditis, a first evaluation is recommended, with auscultation, ECG "
        "and a chest X-ray.",
    )
    assert {"auscultation", "electrocardiogram", "chest x-ray"} <= {
        a.normalized for a in result.actions
    }


def test_the_guidelines_own_reading_of_an_ambiguous_abbreviation_wins(lexicon) -> None:
    """ "CHD" is coronary heart disease in most guidelines and congenital heart disease in
    others: where the guideline's own list defines it, that reading is the row's (the shared
    list marks such entries 'yields'); an unambiguous entry keeps the shared reading."""
    result = extract(
        lexicon,
        "Sport is advised in patients with repaired CHD and mild HF.",
        abbreviations={"CHD": "congenital heart disease", "HF": "a different reading"},
    )
    names = {c.normalized for c in result.concepts}
    assert "repaired congenital heart disease" in names
    assert "mild heart failure" in names


def test_a_lead_clause_without_a_comma_ends_at_its_bracketed_aside(lexicon) -> None:
    """Tables often print "In adults with X (value) Y is …" with no comma: the bracketed
    aside closes the lead clause, so Y is the action, not part of the condition. A connector
    after the bracket ("… (value) who …") continues the lead clause instead."""
    result = extract(
        lexicon, "In adults with poorly controlled asthma (FEV1 <60%) vigorous running is advised."
    )
    assert ("Condition", "poorly controlled asthma") in roles(result)
    assert [a.normalized for a in result.actions] == ["vigorous running"]
    result = extract(
        lexicon,
        "In adults with asthma (FEV1 <60%) who smoke, a pulmonary review is recommended.",
    )
    assert [a.normalized for a in result.actions] == ["pulmonary review"]


def test_a_therapy_that_failed_is_a_condition_named_by_its_failure(lexicon) -> None:
    """ "if beta-blockers and ivabradine fail": the patient is selected by the failure of
    each therapy, which keeps the therapy's role; what it failed to achieve is no concept."""
    result = extract(lexicon, "Digoxin should be considered if beta-blockers and ivabradine fail.")
    assert {("Medication", "failure of beta-blocker"), ("Medication", "failure of ivabradine")} <= (
        roles(result)
    )
    assert [a.normalized for a in result.actions] == ["digoxin"]
    result = extract(lexicon, "Surgery is advised when drug therapy fails to relieve angina.")
    assert ("Medication", "failure of drug therapy") in roles(result)
    assert [a.normalized for a in result.actions] == ["surgery"]


def test_when_to_stop_how_soon_and_bounded_durations_are_no_concepts(lexicon) -> None:
    """ "until symptoms resolve", "without delay", "for a minimum of 3 months", "over at
    least the next 6 months" say when or how long, never whom: the contract drops durations
    and timing, so they must not come out as conditions or as part of the action."""
    result = extract(
        lexicon,
        "Driving restriction for a minimum of 4 weeks is advised in people with syncope until "
        "the cause is treated.",
    )
    assert roles(result) == {("Procedure", "driving restriction"), ("Condition", "syncope")}
    result = extract(
        lexicon, "Home blood pressure checks are advised over at least the next 6 months."
    )
    assert roles(result) == {("Procedure", "home blood pressure check")}
    result = extract(
        lexicon,
        "Antibiotics are recommended without delay in patients with suspected endocarditis.",
    )
    assert not any("delay" in c.normalized for c in result.concepts)


def test_feasibility_hedges_joined_by_and_are_no_concepts(lexicon) -> None:
    """ "if safe and possible" says whether the act can be done, not whom it is for."""
    result = extract(lexicon, "Statin loading is recommended before surgery, if safe and possible.")
    assert not {"safe", "possible"} & {c.normalized for c in result.concepts}


def test_avoiding_or_postponing_is_the_act_recommended(lexicon) -> None:
    """ "It is recommended to avoid X", "X should be avoided / postponed": what a Class I
    row recommends is the avoidance (or postponement) of X, so the act names it and the row
    stays a recommendation (the contract takes polarity from the class alone); a state to
    avoid ("hypotension") makes the avoiding a procedure."""
    result = extract(lexicon, "NSAIDs should be avoided in patients with heart failure.")
    (action,) = result.actions
    assert (action.role, action.polarity) == ("Medication", "recommended")
    assert action.normalized.startswith("avoidance of ")
    result = extract(
        lexicon, "In patients with aortic stenosis, it is recommended to avoid hypotension."
    )
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("Procedure", "avoidance of hypotension")
    ]
    result = extract(
        lexicon, "Elective surgery should be postponed in patients with recent stroke."
    )
    assert [a.normalized for a in result.actions] == ["postponement of elective surgery"]
    result = extract(lexicon, "In breastfeeding women it is recommended to avoid all statins.")
    assert [a.normalized for a in result.actions] == ["avoidance of statin"]


def test_an_opening_if_clause_with_its_own_verb_is_the_condition(lexicon) -> None:
    """ "If surgery is indicated during pregnancy, X is recommended": the verb of the opening
    clause does not recommend anything; the patient has an indication for surgery, and X
    is what the row recommends."""
    result = extract(
        lexicon,
        "If surgery is indicated during pregnancy, a bioprosthetic valve is recommended.",
    )
    assert [a.normalized for a in result.actions] == ["bioprosthetic valve"]
    assert {("Condition", "indication for surgery"), ("Condition", "pregnancy")} <= roles(result)
    result = extract(lexicon, "When pacing is required, a leadless pacemaker should be considered.")
    assert [a.normalized for a in result.actions] == ["leadless pacemaker"]
    assert ("Condition", "indication for pacing") in roles(result)


def test_where_or_by_whom_the_act_is_done_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Lead extraction in experienced centres": where or by whom the act is done is no
    disease, state or demographic of the patient (the contract's conditions), so it is no
    concept, and the action stays the act alone."""
    result = extract(
        lexicon, "Lead extraction in experienced centres is recommended for device infection."
    )
    assert [a.normalized for a in result.actions] == ["lead extraction"]
    assert not any("centre" in c.normalized for c in result.concepts)
    result = extract(lexicon, "Septal myectomy by an experienced team may be considered.")
    assert [a.normalized for a in result.actions] == ["septal myectomy"]
    assert not any("team" in c.normalized for c in result.concepts)


def test_presenting_with_and_a_who_clause_after_a_procedure_describe_the_patients(
    lexicon,
) -> None:
    """ "patients with cardiomyopathy presenting with fainting on exertion": "presenting
    with" opens what they have, as "with" does, and a finding "on exertion" is where it is
    seen, not a procedure; "after TAVI or PCI who are frail": the who-clause is
    about the patients, not about the procedure it follows."""
    result = extract(
        lexicon,
        "Competitive sport is not recommended in patients with cardiomyopathy presenting with "
        "fainting on exertion.",
    )
    assert {("Condition", "cardiomyopathy"), ("Condition", "fainting on exertion")} <= roles(result)
    assert not any(c.role == "Procedure" and "exertion" in c.normalized for c in result.concepts)
    result = extract(
        lexicon,
        "Cardiac rehabilitation should be considered in patients with HF after TAVI or PCI who "
        "are frail.",
    )
    names = named(result)
    assert names["percutaneous coronary intervention"].role == "Procedure"
    assert "frail" in names


def test_a_condition_clause_saying_something_is_missing_negates_it(lexicon) -> None:
    """ "if proof of valve thrombosis is lacking", "if signs of heart failure are
    absent": the row is for patients without it, so the concept is negated (the contract,
    negation); a clause that says one thing is present and another absent is left whole."""
    result = extract(lexicon, "If proof of valve thrombosis is lacking, a CT scan is recommended.")
    assert named(result)["proof of valve thrombosis"].negated
    assert [a.normalized for a in result.actions] == ["computed tomography scan"]
    result = extract(lexicon, "Discharge may be considered if signs of heart failure are absent.")
    assert named(result)[
        "signs of heart failure"
    ].negated  # the signs, as the real-row golds name them


@pytest.mark.parametrize(
    "text",
    [
        "Steroids may be considered in pericarditis when an infectious cause has been excluded.",
        "Steroids may be considered in pericarditis if an infectious cause is ruled out.",
    ],
)
def test_a_cause_that_has_been_excluded_is_negated(lexicon, text: str) -> None:
    """ "when an infectious cause has been excluded": the row is for patients without one,
    as with "in the absence of" (the contract, negation)."""
    assert named(extract(lexicon, text))["infectious cause"].negated


def test_devices_are_procedures_whatever_their_place(lexicon) -> None:
    """Stents, valves, rings and leads are devices: a Procedure as the action, as the
    alternative it is preferred over, or as context (the contract, roles), even when a drug
    word qualifies them ("drug-eluting stent")."""
    result = extract(
        lexicon, "A drug-eluting stent is recommended over a bare-metal stent or a valve ring."
    )
    assert {c.role for c in result.concepts} == {"Procedure"}


def test_or_those_with_adds_a_patient_group_to_the_same_or(lexicon) -> None:
    """ "in patients with A or those with B or C": three ways to qualify, one OR (the
    contract: coordinated patient groups are alternatives)."""
    result = extract(
        lexicon,
        "Compression stockings are advised in patients with varicose veins or those with "
        "long-haul travel or leg swelling.",
    )
    c = named(result)
    assert c["varicose vein"].or_group is not None
    assert c["varicose vein"].or_group == c["long-haul travel"].or_group
    assert c["varicose vein"].or_group == c["leg swelling"].or_group


def test_a_parameter_named_after_including_keeps_its_own_name(lexicon) -> None:
    """ "risk factors (including age ≥65 years)": "including" introduces the example, it is
    no part of the parameter's name, and nothing of it is left as a concept."""
    result = extract(
        lexicon,
        "In patients with frailty markers (including age ≥80 years), a geriatric review should "
        "be offered.",
    )
    c = named(result)
    assert c["age"].role == "ClinicalParameter" and c["age"].threshold == 80
    assert not any("including" in n for n in c)


def test_drug_therapies_are_medication_even_when_filed_as_procedures(lexicon) -> None:
    """The contract makes drug-therapy phrases Medication: "androgen deprivation therapy",
    "cardiotoxic cancer therapy", "CAR-T cell therapy" are given, not performed, though a
    terminology may file them as procedures; "exercise therapy" stays a Procedure, and so
    does a bare "cancer therapy", which surgery and radiotherapy are too."""
    for text, term in (
        ("Cardiac assessment is advised in men on androgen deprivation therapy.", "androgen"),
        ("ECG checks are advised during cardiotoxic cancer therapy.", "cancer therapy"),
        ("A troponin test is advised before CAR-T cell therapy.", "car-t"),
    ):
        (concept,) = [c for c in extract(lexicon, text).concepts if term in c.normalized]
        assert concept.role == "Medication", (text, concept)
    assert ("Procedure", "exercise therapy") in roles(
        extract(lexicon, "Exercise therapy is recommended.")
    )
    assert ("Procedure", "cancer therapy") in roles(
        extract(lexicon, "Blood pressure checks are advised during cancer therapy.")
    )


def test_as_an_alternative_to_x_leads_a_row_whose_action_follows(lexicon) -> None:
    """ "As an alternative to X, Y may be considered": Y is recommended, X is what it
    replaces (a comparator, never an action)."""
    result = extract(
        lexicon, "As an alternative to warfarin, apixaban may be considered in patients with AF."
    )
    assert [a.normalized for a in result.actions] == ["apixaban"]
    assert "warfarin" in named(result)


def test_a_value_to_reach_is_the_action_when_nothing_else_is_recommended(lexicon) -> None:
    """ "it is advised to control BP at <125/75 mmHg": the row recommends reaching the
    value (the contract: a target that is the recommendation is also the action); delaying
    an act names the act's delay."""
    result = extract(
        lexicon, "In patients with kidney disease, it is advised to control BP at <125/75 mmHg."
    )
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("ClinicalParameter", "blood pressure")
    ]
    result = extract(lexicon, "After a stroke, it is recommended to delay elective surgery.")
    assert [a.normalized for a in result.actions] == ["delay of elective surgery"]


def test_grades_of_a_block_are_one_severity_range(lexicon) -> None:
    """ "complete or high-degree AV block" grades one disorder, as "moderate or severe
    stenosis" does: one concept (the contract, OR groups); "that persists" is no part of
    its name."""
    result = extract(
        lexicon,
        "A pacemaker should be considered in patients with high-degree or complete heart block "
        "that persists after ablation.",
    )
    c = named(result)
    assert "high-degree or complete heart block" in c
    assert c["high-degree or complete heart block"].or_group is None


def test_both_poles_of_a_state_restrict_nothing(lexicon) -> None:
    """ "symptomatic or asymptomatic X" covers everyone with X, as "with or without" does:
    the states are no conditions; "every 3 or 6 months" is a schedule, no concept."""
    result = extract(
        lexicon,
        "Stopping the stimulant is advised in patients with symptomatic or asymptomatic QT "
        "prolongation.",
    )
    assert "qt prolongation" in named(result)
    assert not {"symptomatic", "asymptomatic"} & set(named(result))
    result = extract(
        lexicon,
        "Holter monitoring is recommended every 6 or 12 months in patients with sarcoidosis.",
    )
    assert not any(ch.isdigit() for c in result.concepts for ch in c.normalized)


def test_outcomes_lose_their_possessive_and_increase_states_a_goal(lexicon) -> None:
    """ "to further reduce their risk of blindness" has the outcome blindness; "to increase
    daily walking" states a goal as "to improve" does (the contract, outcomes)."""
    result = extract(
        lexicon,
        "Tighter glucose control may be considered to further reduce their risk of blindness.",
    )
    assert ("Outcome", "blindness") in roles(result)
    result = extract(lexicon, "Group classes may be considered to increase daily walking.")
    assert ("Outcome", "daily walking") in roles(result)


def test_participation_is_a_lead_in_and_while_opens_a_condition(lexicon) -> None:
    """ "Participation in competitive sports while active myocarditis is present": the act
    is the sport ("participation in" is a lead-in like "use of"), and "while …" is a
    condition clause like "when …"."""
    result = extract(
        lexicon,
        "Participation in marathon running while fever is present is not recommended.",
    )
    assert [a.normalized for a in result.actions] == ["marathon running"]
    assert ("Condition", "fever") in roles(result)
