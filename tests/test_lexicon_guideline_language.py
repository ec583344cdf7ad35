"""The lexicon on the ways real guideline rows are written (extraction issue, section 3).

Every sentence here is the team's own, written to reproduce one way recommendation tables
phrase a criterion; none is taken from a guideline. Each test says why its rule exists.
The rules follow data/gold/ANNOTATION_CONVENTIONS.md (the contract). Real abbreviation list,
real bundled SNOMED CT sample store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.config import load_abbreviations
from cardio_assets.logic.lexicon import LexiconExtractor, term_lookup_from_searcher
from cardio_assets.records import ExtractedConcept, RowExtraction, RowRecord

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lexicon() -> LexiconExtractor:
    from cardio_assets.terminology.location import open_store

    abbreviations = load_abbreviations(ROOT / "configs" / "abbreviations.txt")
    return LexiconExtractor(
        abbreviations, term_lookup_from_searcher(open_store(), abbreviations.mapping)
    )


def row_of(text: str, **fields: object) -> RowRecord:
    """A Class I recommendation row of this text (``fields``: more RowRecord fields)."""
    return RowRecord(  # type: ignore[arg-type]
        id="lang:table_000:r0",
        guideline="lang",
        guideline_title="Guideline language",
        table_id="table_000",
        row_index=0,
        header=["Recommendations", "Class", "Level"],
        row_text=text,
        class_="I",
        level="A",
        **fields,
    )


def extract(lexicon: LexiconExtractor, text: str, **fields: object) -> RowExtraction:
    """One MAIN pass over a row of this text (``fields``: more RowRecord fields)."""
    result = lexicon.extract(row_of(text, **fields), "MAIN")
    assert result.error is None, result.error
    return result


def named(result: RowExtraction) -> dict[str, ExtractedConcept]:
    return {c.normalized: c for c in result.concepts}


def roles(result: RowExtraction) -> set[tuple[str, str]]:
    return {(c.role, c.normalized) for c in result.concepts}


def assert_one_or_group(first: ExtractedConcept, second: ExtractedConcept) -> None:
    """Both concepts carry an OR label, and the same one."""
    assert first.or_group is not None and first.or_group == second.or_group


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
    assert ("Condition", "diabetes") in roles(result)
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
    assert groups.get("diabetes") is not None
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
    assert [c.text for c in result.concepts if "ablate" in c.text] == ["“ablate and pace” strategy"]


def test_a_purpose_without_its_object_is_no_concept(lexicon) -> None:
    """ "... is recommended for diagnosis" says why the test is done, not what the patient
    has: a bare "diagnosis" (or "method") names nothing; "diagnosis of X" still names X."""
    result = extract(
        lexicon,
        "In suspected tamponade, urgent echocardiography is recommended for diagnosis.",
    )
    texts = [c.text.lower() for c in result.concepts]
    assert "diagnosis" not in texts and "echocardiography" in texts, texts
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
    assert ("Condition", "adults") in r and ("Condition", "diabetes") in r
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
    assert ("Condition", "diabetes") in r and ("Condition", "three-vessel disease") in r
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
    """ "Angina refractory to medical therapy" is a state of the patient, not the therapy;
    "recent stroke" is an event the patient had (a Condition), while "prior PCI" is a
    procedure in the background."""
    r = roles(
        extract(lexicon, "Surgery is advised in patients with angina refractory to drug therapy.")
    )
    assert ("Condition", "angina refractory to drug therapy") in r
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


def test_an_act_done_to_the_patients_is_the_action(lexicon) -> None:
    """ "It is recommended that patients with X are screened for Y" and "... to screen
    patients with X for Y" recommend screening for Y in patients with X; "are enrolled in a
    programme" recommends the programme."""
    for text in (
        "It is recommended that adults with gout are regularly screened for heart failure.",
        "It is recommended to screen adults with gout for heart failure.",
    ):
        result = extract(lexicon, text)
        assert [a.normalized for a in result.actions] == ["screening for heart failure"], text
        assert ("Condition", "gout") in roles(result)
    result = extract(
        lexicon, "It is recommended that people with HF are enrolled in a walking programme."
    )
    assert [a.normalized for a in result.actions] == ["walking programme"]


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
        ("qtc", 500.0),
        ("qtc", 480.0),
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
    value, "develop" no concept; steroids are drugs; "once-yearly" stays one word."""
    c = named(extract(lexicon, "Sport is advised for athletes free from arrhythmias."))
    assert c["arrhythmia"].negated and "athletes" in c
    r = roles(extract(lexicon, "ECG is advised in patients who develop QTc ≥500 ms."))
    assert ("ClinicalParameter", "qtc") in r and not [n for _, n in r if n == "develop"]
    assert ("Medication", "corticosteroid") in roles(
        extract(lexicon, "Corticosteroids are not recommended in acute pericarditis.")
    )
    r = roles(extract(lexicon, "Once-yearly follow-up is recommended after surgery."))
    assert ("Procedure", "once-yearly follow-up") in r


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


def test_where_or_by_whom_the_act_is_done_is_a_condition_of_its_own(lexicon) -> None:
    """ "Lead extraction in experienced centres": the setting restricts the recommendation, so it
    is a Condition named with its qualifier, and the action stays the act alone."""
    result = extract(
        lexicon, "Lead extraction in experienced centres is recommended for device infection."
    )
    assert [a.normalized for a in result.actions] == ["lead extraction"]
    assert ("Condition", "experienced centre") in roles(result)
    result = extract(lexicon, "Septal myectomy by an experienced team may be considered.")
    assert [a.normalized for a in result.actions] == ["septal myectomy"]
    assert ("Condition", "experienced team") in roles(result)


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
