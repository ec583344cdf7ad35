"""The lexicon on the ways real guideline rows are written (extraction issue, section 3).

Every sentence here is the team's own, written to reproduce one way recommendation tables
phrase a criterion; none is taken from a guideline. Each test says why its rule exists.
The rules follow data/gold/ANNOTATION_CONVENTIONS.md (the contract). Real abbreviation list,
real bundled SNOMED CT sample store.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named, roles


# --- parameters: one grammar, name and value in one span ---------------------------------
def test_a_bound_written_after_the_value_is_one_parameter_span(lexicon) -> None:
    """Tables write bounds in words after the number ("40% or less"); the span holds name
    and value, as the contract asks, and "or less" is never read as an OR."""
    c = named(
        extract(
            lexicon,
            "Anticoagulation is recommended in patients with an ejection fraction of 40% or less.",
        )
    )
    p = c["ejection fraction"]
    assert (p.role, p.text, p.operator, p.threshold, p.unit) == (
        "ClinicalParameter",
        "ejection fraction of 40% or less",
        "<=",
        40.0,
        "%",
    )
    assert p.or_group is None


def test_a_paired_blood_pressure_is_one_parameter(lexicon) -> None:
    """Systolic/diastolic thresholds are printed as one value ("150/95 mmHg"): one
    parameter with the pair as written, not two numbers or a range."""
    c = named(
        extract(
            lexicon,
            "Lowering blood pressure is recommended in adults whose office blood pressure is "
            "150/95 mmHg or higher.",
        )
    )
    p = c["office blood pressure"]
    assert (p.operator, p.threshold, p.unit) == (">=", "150/95", "mmHg")


def test_the_same_value_in_a_second_unit_is_one_parameter(lexicon) -> None:
    """Lipid and albuminuria thresholds come in two units, the second in brackets or after
    "or": the same criterion again, kept as the parameter's alt_values (so a patient's value
    in either unit can be tested), never an aside, a drug, a condition or an OR."""
    result = extract(
        lexicon, "Statin therapy is recommended in adults whose LDL-C is ≥3.0 mmol/L (116 mg/dL)."
    )
    p = named(result)["low density lipoprotein cholesterol"]
    assert (p.operator, p.threshold, p.unit) == (">=", 3.0, "mmol/L")
    assert [v.model_dump() for v in p.alt_values] == [{"threshold": 116.0, "unit": "mg/dL"}]
    assert p.text.endswith("(116 mg/dL)")  # name and value as one span, both units
    assert [c for c in result.concepts if "116" in c.text] == [p]
    assert p.or_group is None

    result = extract(
        lexicon,
        "An SGLT2 inhibitor is recommended in patients with diabetes and a urine "
        "albumin-to-creatinine ratio of ≥20 mg/mmol (≥180 mg/g).",
    )
    (p,) = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert (p.operator, p.threshold, p.unit) == (">=", 20.0, "mg/mmol")
    assert [v.model_dump() for v in p.alt_values] == [{"threshold": 180.0, "unit": "mg/g"}]


def test_nyha_classes_in_roman_numerals_are_numbers(lexicon) -> None:
    """Functional class is a measured criterion with Roman numerals and a range dash."""
    p = named(
        extract(lexicon, "Device therapy should be considered in patients in NYHA class II–III.")
    )["new york heart association class"]
    assert (p.operator, p.threshold) == ("between", [2.0, 3.0])


def test_a_dose_and_its_schedule_are_never_concepts(lexicon) -> None:
    """Rows print the drug with its dose and frequency; the dose is no patient criterion."""
    result = extract(
        lexicon, "Metoprolol 50 mg twice daily is recommended in patients with angina."
    )
    assert roles(result) == {("Medication", "metoprolol"), ("Condition", "angina")}
    result = extract(
        lexicon,
        "Ticagrelor 90 mg b.i.d. (with or without a loading dose) is recommended in patients "
        "with ACS.",
    )
    assert roles(result) == {("Medication", "ticagrelor"), ("Condition", "acute coronary syndrome")}


def test_how_often_a_check_is_done_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at every clinical visit", "at each encounter" say how often the act is done, like a
    schedule: neither a concept of its own nor part of the drug or condition before it."""
    result = extract(
        lexicon,
        "Pulse checks are recommended for adults treated with ibrutinib at every clinical visit.",
    )
    assert not [name for _, name in roles(result) if "visit" in name], roles(result)
    assert ("Medication", "ibrutinib") in roles(result), roles(result)
    result = extract(
        lexicon, "Asking about chest pain is recommended at each encounter in adults with diabetes."
    )
    assert not [name for _, name in roles(result) if "encounter" in name], roles(result)


def test_whenever_possible_is_a_hedge_like_if_possible(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "whenever possible" and "wherever possible" hedge the act as "if possible" does:
    no state of the patient, no concept."""
    for text in (
        "Radial access is recommended whenever possible in adults with ACS.",
        "Home monitoring is recommended in adults with HF, wherever possible.",
    ):
        assert not [name for _, name in roles(extract(lexicon, text)) if "possible" in name], text


# --- text that is not a concept ----------------------------------------------------------
def test_what_does_not_matter_and_pointers_elsewhere_are_dropped(lexicon) -> None:
    """ "Regardless of age", "depending on availability", "(see section 4.2)", "if
    available", "as the first choice" say how or where, never to whom."""
    cases = {
        "Cardiac rehabilitation is recommended in patients after an acute coronary syndrome, "
        "regardless of age.": {
            ("Procedure", "cardiac rehabilitation"),
            ("Condition", "acute coronary syndrome"),
        },
        "Echocardiography (depending on local availability) should be considered in patients "
        "with syncope (see section 4.2).": {
            ("Procedure", "echocardiography"),
            ("Condition", "syncope"),
        },
        "Exercise testing is recommended in athletes, if available, as the first choice.": {
            ("Procedure", "exercise testing"),
            ("Condition", "athletes"),  # a demographic group (contract §2)
        },
    }
    for text, expected in cases.items():
        assert roles(extract(lexicon, text)) == expected, text


def test_what_a_test_is_for_is_no_concept(lexicon) -> None:
    """ "to assess the extent of coronary disease" is the rationale of the test, not a
    condition the patient must have (contract §2)."""
    result = extract(
        lexicon, "Coronary angiography is recommended to assess the extent of coronary disease."
    )
    assert roles(result) == {("Procedure", "coronary angiography")}


def test_the_framing_it_and_a_measuring_action(lexicon) -> None:
    """ "In X, it is recommended to measure Y": the "it" names nothing, X is the cohort and
    measuring Y is what is recommended."""
    result = extract(lexicon, "In patients with diabetes, it is recommended to measure HbA1c.")
    assert ("Condition", "diabetes mellitus") in roles(result)
    (action,) = result.actions
    assert action.role == "Procedure" and action.normalized.endswith("measurement")
    assert not [c for c in result.concepts if c.text.lower() == "it"]


# --- outcomes --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Aspirin is recommended for the secondary prevention of stroke.",
        "Anticoagulation is recommended for stroke prevention in patients with atrial flutter.",
    ],
)
def test_what_is_prevented_is_the_outcome(lexicon, text: str) -> None:
    """ "for (secondary) prevention of X" and "for X prevention" state the goal X."""
    outcomes = {c.normalized for c in extract(lexicon, text).concepts if c.role == "Outcome"}
    assert outcomes == {"stroke"}


# --- coordination ----------------------------------------------------------------------
def test_a_bracketed_or_is_an_alternative(lexicon) -> None:
    """ "A (or B)" offers B instead of A: both are the action, in one OR group."""
    result = extract(
        lexicon,
        "A beta-blocker (or a calcium channel blocker) is recommended in patients with angina.",
    )
    c = named(result)
    assert c["beta-blocker"].or_group is not None
    assert c["beta-blocker"].or_group == c["calcium channel blocker"].or_group
    assert {a.normalized for a in result.actions} == {"beta-blocker", "calcium channel blocker"}


def test_a_bracketed_or_offers_an_alternative_to_the_concept_before_it(lexicon) -> None:
    """In "treated with drug A (or drug B) and drug C" the bracket offers B instead of A,
    the concept written just before it; C is required beside them, not an alternative."""
    c = named(
        extract(
            lexicon,
            "Adding an SGLT2 inhibitor is recommended in patients with heart failure on an "
            "ACE inhibitor (or an ARNI) and a beta-blocker.",
        )
    )
    ace, arni = c["ace inhibitor"], c["angiotensin receptor neprilysin inhibitor"]
    assert_one_or_group(ace, arni)
    assert c["beta-blocker"].or_group is None


def test_grades_of_one_scale_are_one_concept(lexicon) -> None:
    """ "Moderate or severe stenosis" is one severity range of one finding (the contract,
    section 6), so it stays one concept instead of becoming two alternatives."""
    result = extract(
        lexicon,
        "Intervention should be considered in patients with moderate or severe tricuspid "
        "stenosis and a low or intermediate surgical risk.",
    )
    names = set(named(result))
    assert "moderate or severe tricuspid stenosis" in names
    assert "low or intermediate surgical risk" in names
    assert not [c for c in result.concepts if c.or_group]


def test_two_adjectives_before_one_noun_share_it(lexicon) -> None:
    """In "significant aortic or mitral regurgitation" both valves' regurgitation is meant,
    each as severe as written: two conditions, one OR group, each with the noun and the
    modifier in front."""
    c = named(
        extract(
            lexicon,
            "Echocardiography is recommended before pregnancy in women with significant "
            "aortic or mitral regurgitation.",
        )
    )
    aortic, mitral = c["significant aortic regurgitation"], c["significant mitral regurgitation"]
    assert_one_or_group(aortic, mitral)


def test_a_slash_between_two_abbreviations_is_or(lexicon) -> None:
    """ "ACE-I/ARB" names two drug classes to choose from, unless the pair is itself an
    abbreviation."""
    c = named(extract(lexicon, "ACE-I/ARB is recommended in patients with hypertension."))
    ace, arb = c["angiotensin-converting enzyme inhibitor"], c["angiotensin ii receptor antagonist"]
    assert_one_or_group(ace, arb)


# --- roles -----------------------------------------------------------------------------
def test_a_drug_the_terminology_lacks_is_known_by_its_stem(lexicon) -> None:
    """New drugs reach guidelines before a sample terminology knows them; their stems
    (-gliflozin, -ciguat, ...) still make them Medications."""
    for text, drug in [
        ("Sotagliflozin may be considered in patients with diabetes.", "sotagliflozin"),
        ("Vericiguat may be considered in patients with HFrEF.", "vericiguat"),
        ("Routine use of argatroban may be considered in adults with HIT.", "argatroban"),
        ("Levosimendan may be considered in adults with low output.", "levosimendan"),
        ("Aficamten may be considered in adults with obstructive HCM.", "aficamten"),
        ("Ambrisentan may be considered in adults with PAH.", "ambrisentan"),
        ("Macitentan may be considered in adults with PAH.", "macitentan"),
        ("Iloprost may be considered in adults with PAH.", "iloprost"),
        ("Selexipag may be considered in adults with PAH.", "selexipag"),
        ("Tafamidis may be considered in adults with ATTR amyloidosis.", "tafamidis"),
    ]:
        result = extract(lexicon, text)
        assert ("Medication", drug) in roles(result)
        assert [a.role for a in result.actions] == ["Medication"]


def test_a_past_procedure_is_a_procedure_and_eligibility_a_condition(lexicon) -> None:
    """ "prior PCI" is a procedure in the patient's background (contract §3); "eligible for
    anticoagulation" is a state of the patient, whatever drug it names."""
    assert ("Procedure", "prior percutaneous coronary intervention") in roles(
        extract(lexicon, "In patients with prior PCI, aspirin is recommended.")
    )
    assert ("Condition", "eligible for anticoagulation") in roles(
        extract(
            lexicon,
            "Vericiguat may be considered in patients with HFrEF, eligible for anticoagulation.",
        )
    )


def test_meaning_changing_qualifiers_stay_in_the_span(lexicon) -> None:
    """ "high-intensity statin" and "known CAD" are other concepts than "statin" and "CAD"
    (contract §4)."""
    assert roles(
        extract(lexicon, "High-intensity statin therapy is recommended in patients with known CAD.")
    ) == {
        ("Medication", "high-intensity statin"),
        ("Condition", "known coronary artery disease"),
    }


# --- clause conditions, negation and exceptions -----------------------------------------
def test_a_state_clause_gives_its_subject(lexicon) -> None:
    """ "if LV dysfunction is present": the condition is LV dysfunction."""
    assert ("Condition", "left ventricular dysfunction") in roles(
        extract(lexicon, "Surgery is recommended if LV dysfunction is present.")
    )


def test_except_and_do_not_require_negate_their_clause(lexicon) -> None:
    """An exception ("except when ...") and a need denied ("who do not require ...") apply
    the recommendation only without the thing named."""
    c = named(
        extract(
            lexicon,
            "Ablation is recommended in patients with atrial flutter, except when a mechanical "
            "valve is present.",
        )
    )
    assert c["mechanical valve"].negated and not c["atrial flutter"].negated
    c = named(
        extract(
            lexicon,
            "In patients with angina who do not require anticoagulation, aspirin is recommended.",
        )
    )
    assert c["anticoagulation"].negated and not c["angina"].negated


def test_an_adverb_before_treated_with_is_not_part_of_the_condition(lexicon) -> None:
    """ "Patients with angina already treated with a nitrate" says when the treatment
    started; the condition is the angina, not "angina already"."""
    result = extract(
        lexicon,
        "Ranolazine should be considered in patients with angina currently treated with a "
        "beta-blocker.",
    )
    assert ("Condition", "angina") in roles(result)
    assert not [c for c in result.concepts if "currently" in c.text.lower()]


def test_an_example_in_brackets_joins_the_alternatives_of_its_head(lexicon) -> None:
    """ "Known heart disease, risk factors (including diabetes) or symptoms": the bracket
    names one of the risk factors, so it is one more alternative of the same OR list."""
    result = extract(
        lexicon,
        "In patients with known heart disease, cardiovascular risk factors (including "
        "diabetes), or symptoms of heart disease, a baseline ECG is recommended.",
    )
    groups = {c.normalized: c.or_group for c in result.concepts if c.role == "Condition"}
    assert groups.get("diabetes mellitus") is not None
    assert len({g for g in groups.values() if g}) == 1, groups


def test_two_patient_groups_joined_by_and_are_alternatives(lexicon) -> None:
    """ "Patients with A and patients with B" names two groups the row applies to; a
    patient need not be in both (the contract: a distributive "and" is an OR)."""
    c = named(
        extract(
            lexicon,
            "Elective surgery is not recommended in patients with severe pulmonary "
            "hypertension and patients with advanced liver disease.",
        )
    )
    first, second = c["severe pulmonary hypertension"], c["advanced liver disease"]
    assert_one_or_group(first, second)


def test_pointers_to_criteria_elsewhere_and_framing_words_are_no_concepts(lexicon) -> None:
    """Rows point at criteria printed in another table ("criteria listed in Table 2"), put
    a coined name in quotes and add emphasis ("especially"): the pointer and the emphasis
    are no concepts, and the quoted name is one concept, whatever "and" it holds."""
    result = extract(
        lexicon,
        "Monitoring is recommended in high-risk patients (criteria listed in Table 2) with "
        "syncope, especially if recurrent.",
    )
    texts = [c.text.lower() for c in result.concepts]
    assert not [t for t in texts if "table" in t or "listed" in t or t == "especially"], texts
    result = extract(
        lexicon,
        "The “ablate and pace” strategy should be considered in patients with AF.",
    )
    # (the framing word "strategy" after a quoted name is left out: the name is the act)
    assert [c.text for c in result.concepts if "ablate" in c.text] == ["“ablate and pace”"]


def test_a_purpose_without_its_object_is_no_concept(lexicon) -> None:
    """ "... is recommended for diagnosis" says why the test is done, not what the patient
    has: a bare "diagnosis" (or "method") names nothing; "diagnosis of X" still names X.
    ("urgent" stays with the act: how soon it must be done changes what is asked for.)"""
    result = extract(
        lexicon,
        "In suspected tamponade, urgent echocardiography is recommended for diagnosis.",
    )
    texts = [c.text.lower() for c in result.concepts]
    assert "diagnosis" not in texts and "urgent echocardiography" in texts, texts
    result = extract(lexicon, "Cardiac MRI is recommended for the diagnosis of acute myocarditis.")
    assert any("acute myocarditis" in t for _, t in roles(result)), roles(result)


def test_a_failed_therapy_keeps_its_role_and_a_controlled_state_stays_a_condition(
    lexicon,
) -> None:
    """ "If vagal manoeuvres fail" and "when beta-blockers are not tolerated" name the therapy
    tried before: a procedure or a drug, not a disease; "SVT controlled by medication" is the
    arrhythmia (a condition), though a drug word names how it is controlled."""
    r = roles(extract(lexicon, "Adenosine is recommended if vagal manoeuvres fail."))
    assert ("Procedure", "failure of vagal manoeuvres") in r, r
    r = roles(
        extract(
            lexicon,
            "Ivabradine should be considered in patients with sinus tachycardia when "
            "beta-blockers are not tolerated.",
        )
    )
    # a therapy not tolerated is a state of its own (the contract: "statin intolerance")
    assert ("Condition", "beta-blocker intolerance") in r, r
    r = roles(
        extract(
            lexicon,
            "In patients with SVT controlled by medication, beta-blockers are recommended "
            "to be continued.",
        )
    )
    assert ("Condition", "supraventricular tachycardia controlled by medication") in r, r


def test_examples_of_a_drug_therapy_are_drug_therapy_but_lifestyle_stays_a_procedure(
    lexicon,
) -> None:
    """ "Medical therapy including pain relief and rate control" lists kinds of the drug
    therapy: each is a Medication, like its head; a lifestyle measure listed the same way
    is still a Procedure (the contract files lifestyle and diet measures there)."""
    r = roles(
        extract(
            lexicon,
            "Medical therapy including pain relief and blood pressure control is recommended "
            "in all patients with acute aortic dissection.",
        )
    )
    assert {("Medication", "pain relief"), ("Medication", "blood pressure control")} <= r, r
    r = roles(
        extract(
            lexicon,
            "Optimal medical therapy, including lifestyle changes, is recommended in "
            "patients with CCS.",
        )
    )
    assert ("Procedure", "lifestyle change") in r, r


def test_the_direction_word_of_a_measured_quantity_is_no_concept_of_its_own(lexicon) -> None:
    """In "an elevated resting heart rate (>80 bpm)" the value already says how elevated the
    rate is: one parameter, and no stray "elevated" condition beside it."""
    result = extract(
        lexicon,
        "Beta-blockers are recommended in patients with an elevated resting heart rate (>80 bpm).",
    )
    texts = [c.text.lower() for c in result.concepts]
    assert "elevated" not in texts, texts
    assert any(c.role == "ClinicalParameter" and "heart rate" in c.text for c in result.concepts)


def test_in_the_presence_of_opens_a_condition_like_with(lexicon) -> None:
    """ "Patients with AF in the presence of a mechanical valve" names two concepts of the
    cohort, as "with" would: the valve is not part of the arrhythmia's name (and, a device,
    it is a Procedure even as context: the contract, roles)."""
    r = roles(
        extract(
            lexicon,
            "Anticoagulation is recommended in patients with AF in the presence of a "
            "mechanical valve.",
        )
    )
    assert {("Condition", "atrial fibrillation"), ("Procedure", "mechanical valve")} <= r, r


def test_a_numbered_item_and_a_case_lead_are_no_part_of_a_concept(lexicon) -> None:
    """Cells number the items of a list ("1) ...") and open clauses with "However, in the
    case of ..."; the number and the lead are framing, the concept is what follows."""
    result = extract(
        lexicon,
        "1) Pacing is indicated in complete heart block after cardiac surgery. However, in "
        "the case of heart block with a slow escape rhythm, pacing may be considered earlier.",
    )
    texts = [c.text.lower() for c in result.concepts]
    assert not [t for t in texts if t.startswith(("1", "case", "however")) or t == "earlier"]
    assert "complete heart block" in texts


def test_a_laboratory_marker_named_alone_is_its_measurement(lexicon) -> None:
    """ "Blood tests (CK, troponin)" asks for the markers to be measured: a Procedure, though
    the terminology files a marker as a substance; "elevated troponin" is a finding."""
    result = extract(
        lexicon,
        "Troponin and C-reactive protein are recommended at admission in patients with "
        "elevated natriuretic peptides.",
    )
    r = roles(result)
    assert ("Procedure", "troponin") in r and ("Procedure", "c-reactive protein") in r
    assert ("Condition", "elevated natriuretic peptide") in r


def test_examples_after_including_are_concepts_of_their_own(lexicon) -> None:
    """ "Blood tests including CRP and troponin" lists what the tests are: each marker is a
    concept, and none of them is glued to the head's name."""
    r = roles(
        extract(
            lexicon,
            "Blood tests including C-reactive protein and troponin are recommended in "
            "patients with chest pain.",
        )
    )
    assert {("Procedure", "blood test"), ("Procedure", "troponin")} <= r
    assert ("Procedure", "c-reactive protein") in r
    assert not [name for _, name in r if "including" in name]


def test_examples_after_such_as_are_concepts_sharing_a_label(lexicon) -> None:
    """ "A disease such as X or Y": the head and each example are concepts, and examples
    listed after "such as" share one OR label (the contract, section 6)."""
    c = named(
        extract(
            lexicon,
            "Pacing may be considered in patients with a neuromuscular disease such as "
            "myotonic dystrophy or Kearns-Sayre syndrome.",
        )
    )
    assert "neuromuscular disease" in c
    first, second = c["myotonic dystrophy"], c["kearns-sayre syndrome"]
    assert_one_or_group(first, second)


def test_a_finding_on_a_test_is_no_treatment_the_patient_is_on(lexicon) -> None:
    """ "Without ST depression on the resting ECG": "on" says where the finding is seen,
    not a treatment the patient is on; the finding is the negated condition and the test
    its background, not negated (most independent golds split the two; the dev split
    first kept them as one concept)."""
    c = named(
        extract(
            lexicon,
            "Exercise testing is recommended in patients without ST depression on the resting ECG.",
        )
    )
    finding = c["st depression"]
    assert (finding.role, finding.negated) == ("Condition", True)
    test = c["resting electrocardiogram"]
    assert (test.role, test.negated) == ("Procedure", False)


def test_or_over_after_a_value_is_its_bound_not_a_comparator(lexicon) -> None:
    """ "Aged 65 years or over" bounds the age: "over" here is no "preferred over Y"."""
    c = named(
        extract(lexicon, "Opportunistic screening is advised in people aged 65 years or over.")
    )
    age = c["age"]
    assert (age.operator, age.threshold, age.unit) == (">=", 65.0, "years")
    assert age.text == "aged 65 years or over"


def test_fibrinolysis_and_vaccination_are_procedures(lexicon) -> None:
    """The contract (section 3) files administrations named as acts under Procedure."""
    r = roles(
        extract(lexicon, "Vaccination against influenza should be offered to patients with CAD.")
    )
    assert ("Procedure", "vaccination against influenza") in r
    r = roles(extract(lexicon, "Systemic fibrinolysis is advised in patients with shock."))
    assert ("Procedure", "systemic fibrinolysis") in r


def test_an_exception_written_first_ends_at_its_comma(lexicon) -> None:
    """ "Unless there is a contraindication, X is recommended": the exception is one negated
    condition ("there is" names nothing), and X after the comma is the recommended action."""
    result = extract(
        lexicon, "Unless there is a contraindication, a statin is advised after an infarction."
    )
    c = named(result)
    assert c["contraindication"].negated
    assert not c["statin"].negated
    assert [a.normalized for a in result.actions] == ["statin"]


def test_demographic_groups_are_conditions(lexicon) -> None:
    """Women, men, adults or children restrict who a row is for (the contract, section 2);
    a state word before them ("pregnant women", "older adults") makes one group."""
    r = roles(
        extract(lexicon, "Low-dose aspirin is advised in pregnant women at risk of pre-eclampsia.")
    )
    assert ("Condition", "pregnant women") in r
    r = roles(extract(lexicon, "A statin is advised for adults with diabetes."))
    assert ("Condition", "adults") in r and ("Condition", "diabetes mellitus") in r
    r = roles(extract(lexicon, "A statin is advised for patients with diabetes."))
    assert not [name for _, name in r if "patient" in name]


def test_a_drug_alone_or_with_a_companion_is_the_action(lexicon) -> None:
    """ "X alone or with Y": X is what is recommended, with or without Y beside it; "alone"
    is no part of the name."""
    result = extract(
        lexicon,
        "For patients who cannot take a statin, ezetimibe alone or with a fibrate is advised.",
    )
    assert [a.normalized for a in result.actions] == ["ezetimibe"]
    r = roles(result)
    assert ("Medication", "fibrate") in r
    assert ("Condition", "cannot take a statin") in r  # a clausal state (contract §3)


def test_a_target_that_is_recommended_is_the_action(lexicon) -> None:
    """When the row recommends a goal ("an HbA1c target below 7%") and nothing else, the
    target is the action (the contract, section 3)."""
    result = extract(lexicon, "In adults with diabetes, an HbA1c target below 7% is advised.")
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("ClinicalParameter", "hemoglobin a1c")
    ]
    result = extract(lexicon, "A statin is advised in patients with an LDL-C above 3 mmol/L.")
    assert [a.normalized for a in result.actions] == ["statin"]


def test_durations_and_dangling_prepositions_are_no_part_of_a_concept(lexicon) -> None:
    """ "Lifelong" says how long, not what (the contract, section 2); a phrase cut before its
    object ("relatives of") loses the preposition left hanging."""
    r = roles(extract(lexicon, "Aspirin is advised lifelong in patients after an infarction."))
    assert not [name for _, name in r if "lifelong" in name]
    r = roles(extract(lexicon, "Screening is advised in first-degree relatives of carriers."))
    assert not [name for _, name in r if name.endswith(" of")]


def test_a_lead_clause_ends_before_the_action_not_inside_its_list(lexicon) -> None:
    """ "In patients with A, triple therapy with X, Y and Z is advised": the comma that closes
    the lead clause is the one before the action's head, not a comma of the drugs listed
    after it; a cohort's own list ("with A, B or C, X and Y are ...") still ends at the last."""
    result = extract(
        lexicon,
        "In patients with AF undergoing PCI, triple therapy with aspirin, clopidogrel and an "
        "OAC is advised.",
    )
    assert {a.normalized for a in result.actions} == {
        "aspirin",
        "clopidogrel",
        "oral anticoagulant",
    }
    result = extract(
        lexicon, "In patients with diabetes, CKD or gout, aspirin and a statin are advised."
    )
    assert {a.normalized for a in result.actions} == {"aspirin", "statin"}
    assert ("Condition", "gout") in roles(result)


def test_a_time_window_from_a_named_event_is_a_parameter(lexicon) -> None:
    """ "Within 12 h of symptom onset" is a criterion: the time since the event, at most the
    value (the contract, section 5). A window of nothing named ("within 2 h") and a
    duration ("for 4 weeks") are when and how long, never concepts."""
    c = named(extract(lexicon, "Lysis is advised within 12 h of symptom onset in STEMI."))
    window = c["time since symptom onset"]
    assert (window.role, window.operator, window.threshold, window.unit) == (
        "ClinicalParameter",
        "<=",
        12.0,
        "h",
    )
    assert window.text == "within 12 h of symptom onset"
    c = named(extract(lexicon, "An echo is advised within 48 hours of admission in AHF."))
    assert c["time since admission"].threshold == 48.0
    r = roles(extract(lexicon, "Primary PCI is advised within 2 h in patients with STEMI."))
    assert not [name for _, name in r if "within" in name or name.startswith("time")]
    r = roles(extract(lexicon, "Anticoagulation is continued for 4 weeks after cardioversion."))
    assert not [name for _, name in r if "week" in name]


def test_who_it_is_for_then_a_colon_then_the_action(lexicon) -> None:
    """Tables that list patient groups write "Group with X: PCI is not recommended" or, with
    no verb, "Group with X: CABG": before the colon is who the row is for, after it what is
    recommended."""
    result = extract(lexicon, "Three-vessel disease with diabetes: PCI is not recommended.")
    assert [a.normalized for a in result.actions] == ["percutaneous coronary intervention"]
    r = roles(result)
    assert ("Condition", "diabetes mellitus") in r and ("Condition", "three-vessel disease") in r
    result = extract(lexicon, "Patients with HFrEF and LBBB: CRT is advised to reduce mortality.")
    assert [a.normalized for a in result.actions] == ["cardiac resynchronization therapy"]
    assert ("Outcome", "mortality") in roles(result)


def test_a_score_value_in_brackets_is_the_scores(lexicon) -> None:
    """A score has no unit: "a high SYNTAX score (>32)" or "(0-22)" after its name is that
    score's value, one parameter; "high" only says what the value says."""
    c = named(extract(lexicon, "Surgery is advised in patients with a high SYNTAX score (>32)."))
    score = c["syntax score"]
    assert (score.role, score.operator, score.threshold) == ("ClinicalParameter", ">", 32.0)
    c = named(extract(lexicon, "PCI is advised in patients with a low SYNTAX score (0 - 22)."))
    assert c["syntax score"].threshold == [0.0, 22.0]


def test_the_who_functional_class_is_a_parameter_not_a_who_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in WHO functional class II–III": the capital WHO names the organisation's class of
    pulmonary hypertension, read like NYHA's; it never opens a "who" clause that leaves
    "functional class II–III" as a condition."""
    found = named(
        extract(lexicon, "Riociguat is advised in adults with PAH in WHO functional class II–III.")
    )
    fc = found["world health organization functional class"]
    assert (fc.role, fc.operator, fc.threshold) == ("ClinicalParameter", "between", [2.0, 3.0])
    assert not [n for n in found if n.startswith("functional class")], found


def test_a_rate_left_after_its_value_names_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "increases by 0.3 m/s or more per year": "per year" says how fast, no condition."""
    found = named(
        extract(
            lexicon,
            "Surgery may be advised when the jet velocity increases by 0.3 m/s or more per year.",
        )
    )
    assert "per year" not in found and "year" not in found, found
    assert found["jet velocity increase"].operator == ">=", found
