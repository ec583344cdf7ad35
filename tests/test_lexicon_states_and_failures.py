"""States written before the disease that defines a patient group ("pregnant PAH
patients"), a criterion given as a definition ("(defined as ...)") and acts that failed
("if vagal manoeuvres fail"): read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from cardio_assets.records import ExtractedConcept, RowExtraction
from tests.lexicon_fixtures import extract, named, roles


def by_text(result: RowExtraction) -> dict[str, ExtractedConcept]:
    return {c.text: c for c in result.concepts}


@pytest.mark.parametrize(
    ("text", "states", "disease"),
    [
        (
            "In pregnant HCM patients, beta-blockers should be considered.",
            {"pregnancy"},
            "hypertrophic cardiomyopathy",
        ),
        (
            "In untreated pregnant PAH patients, specialist referral is advised.",
            {"untreated", "pregnancy"},
            "pulmonary arterial hypertension",
        ),
    ],
)
def test_a_state_before_the_disease_of_the_group_is_a_condition_of_its_own(  # type: ignore[no-untyped-def]
    lexicon, text: str, states: set[str], disease: str
) -> None:
    """ "pregnant HCM patients" are patients who are pregnant and have HCM: two
    conditions, the state named as a state ("pregnancy"), not one disease called
    "pregnant hypertrophic cardiomyopathy"."""
    found = named(extract(lexicon, text))
    assert found[disease].role == "Condition"
    for state in states:
        assert found[state].role == "Condition"


def test_pregnant_alone_is_pregnancy_and_pregnant_women_stay_a_group(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a pregnant patient" is in pregnancy; "pregnant women" name the demographic group
    as printed (the contract: demographic groups are Conditions)."""
    alone = named(extract(lexicon, "In a pregnant patient with chest pain, an ECG is advised."))
    assert alone["pregnancy"].role == "Condition"
    group = named(extract(lexicon, "In pregnant women on heparin, platelet counts are advised."))
    assert "pregnant women" in group


def test_a_definition_in_brackets_gives_the_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "hyperglycaemia (defined as glucose ≥11.1 mmol/L)": the bracket states the criterion,
    a parameter; "defined as" itself names nothing."""
    result = extract(
        lexicon,
        "Glucose checks are advised in adults with hyperglycaemia (defined as glucose "
        "≥11.1 mmol/L).",
    )
    found = named(result)
    assert found["glucose"].role == "ClinicalParameter"
    assert found["glucose"].threshold == 11.1
    assert not [n for n in found if "defined" in n]


def test_an_act_that_failed_keeps_the_role_of_an_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if vagal manoeuvres and adenosine fail": each was tried and failed, so each is
    named as a failure with the role of what was tried, a Procedure for the manoeuvres as a
    Medication for the drug; the failure is no disease of the patient."""
    result = extract(
        lexicon,
        "Intravenous diltiazem is advised if carotid sinus massage and adenosine fail.",
    )
    assert ("Procedure", "failure of carotid sinus massage") in roles(result)
    assert ("Medication", "failure of adenosine") in roles(result)


def test_a_decision_based_on_the_presence_of_a_state_has_it_as_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X, based on the presence of Y": Y is a state the patient has that decides whether
    X is done, a criterion of the row, not part of X's name (what a choice is otherwise
    weighed on is no criterion: test_lexicon_parts_and_decisions.py)."""
    found = named(
        extract(
            lexicon,
            "Early risk scoring of suspected PE, based on the presence of shock, is advised.",
        )
    )
    assert "shock" in found, set(found)
    assert not [n for n in found if "based" in n]


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        # a dose of a drug is how much of it: the drug stays, the dose words go
        (
            "Ezetimibe is advised when the LDL goal is missed on a maximum tolerated dosage of a statin.",
            "statin",
            "maximum",
        ),
        # when a delivery is timed is no condition
        (
            "Induction of labour is advised at about 37 weeks of gestation in women on heparin.",
            "women",
            "week",
        ),
        # how a schedule is adapted is no concept
        (
            "Yearly imaging (adapted to clinical status) is advised after aortic repair.",
            "aortic repair",
            "adapted",
        ),
        # having received a drug is the drug
        (
            "Platelet testing may be considered in adults who recently received ticagrelor.",
            "ticagrelor",
            "received",
        ),
        # a lone participle left over from a relative clause ("that can be treated and prevented")
        (
            "Pacing is not advised for block due to causes that can be treated and prevented.",
            "pacing",
            "prevented",
        ),
    ],
)
def test_words_about_amount_timing_and_tailoring_name_nothing(  # type: ignore[no-untyped-def]
    lexicon, text: str, kept: str, dropped: str
) -> None:
    """Doses, the timing of a delivery, how a schedule is adapted, the verb of having
    received a drug and a participle left over name no concept; what they qualify stays."""
    found = named(extract(lexicon, text))
    assert any(kept in n for n in found), set(found)
    assert not [n for n in found if dropped in n]


def test_radiotherapy_is_a_procedure_and_a_dashed_aside_is_a_bracket(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Radiotherapy is an act (a Procedure, background for those undergoing it); an aside
    between em dashes ("—including A and B—") is read as a bracket, not glued to words."""
    result = extract(lexicon, "In adults undergoing radiotherapy, ECG monitoring is advised.")
    assert ("Procedure", "radiotherapy") in roles(result)
    found = named(
        extract(
            lexicon,
            "Control of risk factors—including blood pressure and diabetes—is advised before surgery.",
        )
    )
    assert not [n for n in found if "—" in n], set(found)


def test_a_negation_in_a_cohort_stops_at_a_semicolon(lexicon) -> None:
    """ "without symptoms; or second-degree block": the semicolon closes the denied clause,
    so the block after it is a condition the patient has."""
    result = extract(
        lexicon,
        "Pacing may be considered in adults with long pauses without symptoms; or "
        "second-degree AV block.",
    )
    negated = {c.normalized: c.negated for c in result.concepts}
    assert negated.get("symptom") is True
    assert any(name.startswith("second-degree") and not neg for name, neg in negated.items())


def test_not_undergoing_an_act_negates_it(lexicon) -> None:
    """ "in adults with AF, not undergoing ablation or cardioversion": the patients do not
    undergo these acts; both are negated, no leftover "not"."""
    result = extract(
        lexicon,
        "In adults with AF, not undergoing ablation or cardioversion, rate control is advised.",
    )
    negated = {c.normalized: c.negated for c in result.concepts}
    assert negated.get("ablation") is True and negated.get("cardioversion") is True
    assert "not" not in negated


def test_causes_excluded_are_absent(lexicon) -> None:
    """ "after exclusion of reversible causes": the causes ruled out are absent (negated),
    and the exclusion does not carry over to the next criterion of a comma list; the
    surgical "exclusion of the left atrial appendage" is an act, not a negation."""
    result = extract(
        lexicon,
        "Pacing is advised in adults with AV block, after exclusion of reversible causes, "
        "stable condition and optimal treatment.",
    )
    negated = {c.normalized: c.negated for c in result.concepts}
    assert negated.get("reversible cause") is True
    assert negated.get("stable condition") is False
    act = extract(lexicon, "Exclusion of the left atrial appendage may be considered in AF.")
    assert not any(c.negated for c in act.concepts)


def test_a_finding_during_a_test_stays_one_condition(lexicon) -> None:
    """ "VT induced during EPS", "AV block during sleep": when a finding shows is part of the
    finding, which keeps its role; "during pregnancy" is a state of its own."""
    result = extract(
        lexicon, "Pacing is advised in adults with complete AV block during exercise testing."
    )
    roles = {c.normalized: c.role for c in result.concepts}
    assert any(
        name.endswith("during exercise testing") and role == "Condition"
        for name, role in roles.items()
    )
    separate = extract(lexicon, "LMWH is advised during pregnancy in women with thrombosis.")
    assert "pregnancy" in {c.normalized for c in separate.concepts}


@pytest.mark.parametrize(
    ("text", "unmet", "therapy"),
    [
        (
            "If the HbA1c goal is not reached with metformin, adding a GLP-1 receptor agonist "
            "should be considered.",
            "HbA1c goal is not reached",
            "metformin",
        ),
        (
            "If heart rate remains uncontrolled on a beta-blocker, digoxin may be added.",
            "heart rate remains uncontrolled",
            "beta-blocker",
        ),
        (
            "When the lipid target is not achieved despite high-intensity statin, bempedoic "
            "acid may be considered.",
            "lipid target is not achieved",
            "high-intensity statin",
        ),
    ],
)
def test_a_goal_not_met_on_a_therapy_is_a_condition_and_the_therapy_is_background(  # type: ignore[no-untyped-def]
    lexicon, text: str, unmet: str, therapy: str
) -> None:
    """ "if the goal is not reached with drug X": the unmet goal is the patient's state, and
    X is what the patient already takes, a drug of its own with function background; the
    two are not one Medication named "goal is not reached with X"."""
    result = extract(lexicon, text)
    drafts = by_text(result)
    assert drafts[unmet].role == "Condition", drafts
    assert drafts[therapy].role == "Medication", drafts
    assert therapy not in {a.text for a in result.actions}, result.actions


def test_a_drug_or_act_a_group_is_scheduled_for_is_not_part_of_its_disease(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients with lymphoma scheduled to receive anthracyclines": the disease is one
    condition and the drug they are about to start is their background therapy; "scheduled
    to undergo" an operation names the procedure the same way."""
    result = extract(
        lexicon, "In patients with lymphoma scheduled to receive anthracyclines, an ECG is advised."
    )
    drafts = by_text(result)
    assert drafts["lymphoma"].role == "Condition", drafts
    assert drafts["anthracyclines"].role == "Medication", drafts
    assert [a.text for a in result.actions] == ["ECG"], result.actions
    drafts = by_text(
        extract(
            lexicon,
            "In adults with angina scheduled to undergo hip replacement, a stress test is advised.",
        )
    )
    assert drafts["angina"].role == "Condition", drafts
    assert drafts["hip replacement"].role == "Procedure", drafts


def test_in_advance_of_an_operation_says_when_like_before(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Starting statins in advance of vascular surgery": the operation is when the act is
    done (a procedure the patient undergoes), as with "before", not part of the act's name."""
    drafts = by_text(
        extract(lexicon, "Starting statins in advance of vascular surgery should be considered.")
    )
    assert "vascular surgery" in drafts, drafts
    assert not [t for t in drafts if "advance" in t], drafts


def test_a_condition_between_the_framing_and_its_that_is_still_a_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended, if X, that Y" says what "It is recommended that Y, if X" says: X
    (with its "not") is the condition and Y the act."""
    result = extract(
        lexicon,
        "It is recommended, if heart rate is not controlled by a beta-blocker, that digoxin "
        "be added.",
    )
    found = by_text(result)
    assert found["heart rate is not controlled"].role == "Condition", found
    assert [a.text for a in result.actions] == ["digoxin"], result.actions


def test_a_disease_named_beside_the_act_is_what_the_act_is_for(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The recommended phrase can name an act and the diseases it deals with ("management of
    risk factors, including X and Y"; "to treat X, Y and Z"): those diseases are conditions of
    the patient, not further acts, even where the terminology does not know them and only
    their ending says they are disorders. A state alone in the phrase is left alone: "to
    consider amyloidosis" recommends thinking of it, not having it."""
    result = extract(
        lexicon,
        "Management of modifiable risk factors, including smoking, dyslipidaemia and gout, is "
        "recommended before elective surgery.",
    )
    found = named(result)
    assert found["dyslipidaemia"].role == "Condition"
    acts = {a.normalized for a in result.actions}
    assert "management of modifiable risk factor" in acts
    assert "dyslipidaemia" not in acts and "smoking" not in acts

    listed = extract(
        lexicon,
        "It is recommended to treat post-operative atrial flutter, hyperkalaemia and "
        "pericarditis according to the usual protocols.",
    )
    found = named(listed)
    assert found["pericarditis"].role == "Condition"
    assert found["post-operative atrial flutter"].role == "Condition"
    assert not {a.normalized for a in listed.actions} & {"pericarditis", "hyperkalaemia"}

    alone = extract(
        lexicon,
        "It is recommended to consider amyloidosis in patients with unexplained wall thickening.",
    )
    assert [a.normalized for a in alone.actions] == ["amyloidosis"]


def test_a_valve_named_by_its_cusps_is_the_patients_anatomy(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with a tricuspid aortic valve" says what valve the patient was born with, a state
    like "bicuspid aortic valve", not a prosthesis; an operation on the tricuspid valve stays
    a procedure."""
    born = roles(
        extract(lexicon, "Root surgery is advised in adults with tricuspid aortic valves.")
    )
    assert ("Condition", "tricuspid aortic valve") in born
    repaired = roles(
        extract(lexicon, "Tricuspid valve repair is advised in adults with severe TR.")
    )
    assert ("Procedure", "tricuspid valve repair") in repaired


def test_who_do_not_tolerate_names_an_intolerance_of_each_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who do not tolerate A or B" says the same as "who cannot tolerate A or B": each drug
    is an intolerance the patients have (the contract's "statin intolerance"), either of
    them, and no drug is negated."""
    result = extract(
        lexicon,
        "Nebivolol is advised in adults with angina who do not tolerate bisoprolol or ivabradine.",
    )
    states = [c for c in result.concepts if c.normalized.endswith("intolerance")]
    assert [s.normalized for s in states] == ["bisoprolol intolerance", "ivabradine intolerance"]
    assert (
        all(not s.negated for s in states) and states[0].or_group == states[1].or_group is not None
    )


def test_a_generic_state_word_only_carries_its_examples(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if the patient has other diseases (e.g. A, B, or C)": the generic word names no
    state of its own; its examples are the conditions, either of them."""
    result = extract(
        lexicon, "Statins are advised if a patient has other diseases (e.g. gout, asthma, or CKD)."
    )
    conditions = [c for c in result.concepts if c.role == "Condition"]
    assert [c.normalized for c in conditions] == ["gout", "asthma", "chronic kidney disease"]
    assert len({c.or_group for c in conditions}) == 1 and conditions[0].or_group is not None


@pytest.mark.parametrize("state", ["the potential for drug interactions", "a drug interaction"])
def test_a_drug_interaction_is_a_state_not_a_drug(lexicon, state: str) -> None:  # type: ignore[no-untyped-def]
    """ "if there is the potential for drug interactions": an interaction (or its
    likelihood) is a state of the patient, though it names drugs."""
    result = extract(lexicon, f"A low statin dose is advised if there is {state}.")
    found = next(c for c in result.concepts if "interaction" in c.normalized)
    assert found.role == "Condition"


@pytest.mark.parametrize("verb", ["is identified at any site", "is demonstrated on imaging"])
def test_a_state_said_to_be_identified_is_the_state(lexicon, verb: str) -> None:  # type: ignore[no-untyped-def]
    """ "When a renal aneurysm is identified at any site, …": like "is present / detected",
    the clause only says the state holds; the condition is the state alone."""
    result = extract(
        lexicon, f"When a renal aneurysm {verb}, imaging of the whole aorta is advised."
    )
    assert "renal aneurysm" in {c.normalized for c in result.concepts if c.role == "Condition"}


@pytest.mark.parametrize(
    "cohort",
    [
        "gout resistant to allopurinol",
        "gout refractory to allopurinol",
        "gout who are not responsive to allopurinol",
    ],
)
def test_a_state_refractory_to_a_drug_is_the_state_on_that_drug(lexicon, cohort: str) -> None:  # type: ignore[no-untyped-def]
    """ "gout resistant to allopurinol" is gout in patients already taking allopurinol: the
    state is the condition and the drug is the therapy the patients are on (like "despite
    allopurinol", the contract's background), never denied."""
    result = extract(lexicon, f"Febuxostat may be considered in patients with {cohort}.")
    found = named(result)
    assert found["gout"].role == "Condition"
    drug = found["allopurinol"]
    assert drug.role == "Medication" and not drug.negated


def test_a_list_after_a_denied_state_keeps_every_item() -> None:
    """ "without syncope; new palpitations; or chest pain": the semicolon closes what
    "without" denies, and every item after it is still one of the patients' states (none may
    be lost on the way to the "or" that closes the list)."""
    from cardio_assets.logic.lexicon.segments import _cohort_segments

    segments = _cohort_segments("with AF without syncope; new palpitations; or chest pain")
    assert ("without", "syncope") in segments
    assert any("new palpitations" in body for _, body in segments), segments


def test_a_semicolon_after_a_drug_that_did_not_help_returns_to_the_patients() -> None:
    """In a list of states cut by semicolons, "pain refractory to opioids; fever" ends the
    therapy at the semicolon: fever is a state of the patients, not a drug, and the "or"
    before it offers it as one more alternative of the list."""
    from cardio_assets.logic.lexicon.segments import _cohort_segments

    segments = _cohort_segments("with nausea; pain refractory to opioids; or fever")
    assert segments[-1] == ("or with", "fever")
    assert ("background", "opioids") in segments


def test_the_alternative_after_a_drug_that_did_not_help_is_the_state_not_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with gout resistant to allopurinol or with tophi": the patients have gout (on a drug
    that fails) or tophi; the drug they are on is no alternative of the tophi."""
    result = extract(
        lexicon,
        "Febuxostat may be considered in patients with gout resistant to allopurinol or with "
        "tophi.",
    )
    found = named(result)
    assert found["gout"].or_group is not None
    assert found["gout"].or_group == found["tophi"].or_group
    assert found["allopurinol"].or_group is None


@pytest.mark.parametrize(
    ("text", "states"),
    [
        (
            "Knee imaging may be considered in asymptomatic high-risk adult FA.",
            {"asymptomatic", "high-risk", "adults", "former athlete"},
        ),
        (
            "Knee imaging should be considered in FA with high joint risk.",
            {"former athlete", "high joint risk"},
        ),
    ],
)
def test_an_abbreviation_naming_a_group_of_people_is_the_cohort(  # type: ignore[no-untyped-def]
    lexicon, text: str, states: set[str]
) -> None:
    """A table may call its patients by an abbreviation ("FA" for former athletes, as a
    cancer guideline writes "CS" for cancer survivors): the group is a condition the row is
    for, and what is written before it (a symptom state, a risk grade, "adult") is a state of
    its own, as before "patients"."""
    result = extract(lexicon, text, abbreviations={"FA": "former athletes"})
    conditions = {c.normalized for c in result.concepts if c.role == "Condition"}
    assert states <= conditions


@pytest.mark.parametrize(
    "clause",
    ["who have not undergone", "who have never had", "who has not yet received"],
)
def test_an_act_a_patient_has_not_had_is_negated(lexicon, clause: str) -> None:  # type: ignore[no-untyped-def]
    """ "who have not undergone X", "who have never had X": the act or therapy they have not
    had is a negated concept (the contract's "no X"), named without the verb."""
    found = named(
        extract(lexicon, f"Stress imaging is advised in adults with angina {clause} an ablation.")
    )
    assert found["ablation"].negated and not found["angina"].negated
    assert not any("undergone" in n or "never" in n or "received" in n for n in found)


def test_a_state_complicating_a_disease_names_both(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A or B complicating C": the patients have C, and A or B arose in it; C is a
    condition of its own beside the alternatives A and B."""
    found = named(
        extract(
            lexicon, "Dialysis is advised in adults with oliguria or anuria complicating sepsis."
        )
    )
    assert {"oliguria", "anuria", "sepsis"} <= set(found), found
    assert found["oliguria"].or_group == found["anuria"].or_group is not None
    assert found["sepsis"].or_group is None


@pytest.mark.parametrize(
    ("clause", "state"),
    [
        ("who are considering pregnancy", "considering pregnancy"),
        ("planning a pregnancy", "planning a pregnancy"),
        ("contemplating pregnancy", "contemplating pregnancy"),
    ],
)
def test_intending_a_pregnancy_is_a_state_of_its_own(lexicon, clause: str, state: str) -> None:  # type: ignore[no-untyped-def]
    """ "women who are considering pregnancy": the wish is the state the row is for, named
    with its verb; a pregnancy not yet begun is no condition the women have."""
    found = named(extract(lexicon, f"Counselling is advised in women with gout {clause}."))
    assert state in found and found[state].role == "Condition", found
    assert "pregnancy" not in found
