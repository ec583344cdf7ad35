"""Lists of alternatives said in other ways ("any one of: A; B", "A, B, or both", "neither A
nor B" after "who have"), a drug added to others, the lead before a list of acts, and acts
judged worth doing or not ("is warranted", "is not justified", "warrants consideration of",
"need no"): each case in the team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def _one_or_group(result, names):  # type: ignore[no-untyped-def]
    by_name = named(result)
    groups = {by_name[name].or_group for name in names}
    assert len(groups) == 1 and None not in groups, [(n, by_name[n].or_group) for n in names]


def test_any_one_of_with_its_colon_right_after_of_is_a_list_of_alternatives(lexicon):
    # "any one of: A; B; C" says what "any of the following: A; B; C" says: one is enough.
    result = extract(
        lexicon,
        "Valve replacement should be considered in the presence of any one of: peak velocity "
        "above 5 m/s; heavy valve calcification; syncope on exertion.",
    )
    _one_or_group(result, ["heavy valve calcification", "syncope on exertion", "peak velocity"])


def test_neither_nor_after_who_have_is_one_negated_group(lexicon):
    # "athletes who have neither A on a test nor B on another" lack both: NOT(OR(A, B)), as
    # "without A or B" reads, whatever test each was looked for on.
    result = extract(
        lexicon,
        "Return to play may be considered in athletes who have neither oedema on CMR nor "
        "complex arrhythmias on Holter monitoring.",
    )
    by_name = named(result)
    assert by_name["oedema"].negated and by_name["complex arrhythmia"].negated, by_name
    _one_or_group(result, ["oedema", "complex arrhythmia"])


@pytest.mark.parametrize(
    ("sentence", "given_with"),
    [
        # "X should be added to A or B": A and B are the drugs X is given with, never aims.
        (
            "In recurrent pericarditis, colchicine should be added to aspirin or an NSAID for "
            "6 months.",
            ["aspirin", "non-steroidal anti-inflammatory drug"],
        ),
        # ... and said against: "should not be added to Y" still names Y
        (
            "In stable CAD with AF, a P2Y12 inhibitor should not be added to the oral "
            "anticoagulant beyond 12 months.",
            ["oral anticoagulant"],
        ),
    ],
)
def test_what_a_drug_is_added_to_is_given_beside_it(lexicon, sentence, given_with):
    by_name = named(extract(lexicon, sentence))
    for name in given_with:
        assert by_name[name].role == "Medication", by_name
    if len(given_with) > 1:
        _one_or_group(extract(lexicon, sentence), given_with)


@pytest.mark.parametrize(
    ("sentence", "acts"),
    [
        # "In X, A, a B, or C is recommended": a list of acts after the lead, the middle one a
        # short name ending in an abbreviation.
        (
            "In patients with T2DM and CKD, an SGLT2 inhibitor, a GLP-1 RA, or a statin is "
            "recommended.",
            [
                "sodium glucose cotransporter 2 inhibitor",
                "glucagon-like peptide-1 receptor agonist",
                "statin",
            ],
        ),
        # "A, B, or both": either is given.
        (
            "In T2DM with ASCVD, an SGLT2 inhibitor, a GLP-1 RA, or both are recommended to "
            "lower cardiovascular risk.",
            [
                "sodium glucose cotransporter 2 inhibitor",
                "glucagon-like peptide-1 receptor agonist",
            ],
        ),
        # "A, or B where A is not tolerated": B is the other choice after the lead.
        (
            "For patients with HFmrEF, an ACE inhibitor, or an ARB where ACE inhibitors are not "
            "tolerated, may be considered.",
            ["ace inhibitor", "angiotensin ii receptor antagonist"],
        ),
    ],
)
def test_a_list_of_acts_after_the_lead_is_every_act(lexicon, sentence, acts):
    result = extract(lexicon, sentence)
    assert sorted(a.normalized for a in result.actions) == sorted(acts), result.actions
    _one_or_group(result, acts)


@pytest.mark.parametrize(
    ("sentence", "act", "polarity"),
    [
        # "is warranted / justified / encouraged / appropriate": the act is judged worth doing
        (
            "In AF with a fast ventricular rate, a beta-blocker is warranted.",
            "beta-blocker",
            "recommended",
        ),
        ("Regular exercise is encouraged in patients with CCS.", "regular exercise", "recommended"),
        ("Statins are appropriate in diabetic adults over 40 years.", "statin", "recommended"),
        # "is not justified / warranted / useful": judged not worth doing
        (
            "Routine coronary angiography is not justified before low-risk non-cardiac surgery.",
            "coronary angiography",
            "not recommended",
        ),
        (
            "Echocardiography is not useful in syncope with a clear reflex cause.",
            "echocardiography",
            "not recommended",
        ),
        # "X warrants (careful) consideration of Y": Y is what the state calls for
        (
            "A mobile LV thrombus warrants consideration of oral anticoagulation.",
            "oral anticoagulation",
            "recommended",
        ),
        # "need no Y": Y is advised against for them
        (
            "Patients with a single reflex syncope and a normal ECG need no further "
            "cardiac testing.",
            "further cardiac testing",
            "not recommended",
        ),
    ],
)
def test_acts_judged_worth_doing_or_not(lexicon, sentence, act, polarity):
    result = extract(lexicon, sentence)
    assert [(a.normalized, a.polarity) for a in result.actions] == [(act, polarity)], result.actions


def test_a_state_judged_appropriate_in_a_clause_is_no_second_act(lexicon):
    # "when the bleeding risk is appropriate" says when; the act is the one the row
    # recommends (a guard).
    result = extract(
        lexicon, "Oral anticoagulation is recommended when the bleeding risk is appropriate."
    )
    assert [a.normalized for a in result.actions] == ["oral anticoagulation"], result.actions


def test_drugs_already_given_before_an_imperative_act_stay_the_patients(lexicon):
    # "despite a RAS blocker, a CCB and a diuretic, add X unless Y": the drugs taken so far
    # lead in; only X is the act, however its own clause goes on (a guard).
    result = extract(
        lexicon,
        "In resistant hypertension despite a RAS blocker, a CCB and a diuretic, add "
        "spironolactone unless potassium is above 5.0 mmol/L or eGFR is under 30 mL/min.",
    )
    acts = {a.normalized for a in result.actions}
    assert not acts & {"calcium channel blocker", "diuretic"}, result.actions


@pytest.mark.parametrize(
    ("sentence", "names"),
    [
        # "first-, second- or third-degree X": each prefix cut at its hyphen borrows the
        # word after the last one; three alternatives, one label
        (
            "Cascade screening is recommended in first-, second- or third-degree relatives.",
            ["first-degree relative", "second-degree relative", "third-degree relative"],
        ),
        (
            "PCI may be considered in single-, double- or triple-vessel disease.",
            ["single-vessel disease", "double-vessel disease", "triple-vessel disease"],
        ),
    ],
)
def test_a_list_of_prefixes_shares_the_word_after_the_last(lexicon, sentence, names):
    result = extract(lexicon, sentence)
    _one_or_group(result, names)


# A review's guards (each fails on 9998e2b or reads as it did before it)


def test_a_cohort_list_of_abbreviations_before_the_acts_stays_the_cohort(lexicon):
    # "In patients with PAD, AAA, or CAD, a statin or ezetimibe …": the "or" before CAD
    # closes the cohort's list; the acts are the statin and ezetimibe.
    result = extract(
        lexicon, "In patients with PAD, AAA, or CAD, a statin or ezetimibe is recommended."
    )
    assert sorted(a.normalized for a in result.actions) == ["ezetimibe", "statin"]
    _one_or_group(result, ["peripheral arterial disease", "coronary artery disease"])


def test_a_verb_inside_a_relative_clause_of_the_lead_does_not_advise(lexicon):
    # "In patients in whom X is not appropriate, Y may be considered": Y is recommended.
    result = extract(
        lexicon,
        "In patients in whom long-term anticoagulation is not appropriate, LAA occlusion may "
        "be considered.",
    )
    assert [(a.normalized, a.polarity) for a in result.actions] == [
        ("left atrial appendage occlusion", "recommended")
    ], result.actions


def test_or_both_before_a_noun_is_no_list_ending(lexicon):
    # "A, B, or both drugs": the acts are still A and B.
    result = extract(
        lexicon, "In T2DM, an SGLT2 inhibitor, a GLP-1 RA, or both drugs are recommended."
    )
    acts = {a.normalized for a in result.actions}
    assert {
        "sodium glucose cotransporter 2 inhibitor",
        "glucagon-like peptide-1 receptor agonist",
    } <= acts, result.actions


def test_patients_added_to_a_waiting_list_are_given_no_drug(lexicon):
    result = named(
        extract(
            lexicon, "Patients with advanced HF should be added to the transplant waiting list."
        )
    )
    assert all(c.role != "Medication" for c in result.values()), result


def test_neither_before_been_keeps_both_states_negated(lexicon):
    result = named(
        extract(
            lexicon,
            "Screening is advised in relatives who have neither been tested nor been examined.",
        )
    )
    assert result["been tested"].negated and result["been examined"].negated, result


def test_the_lead_of_any_one_of_is_no_part_of_the_first_item(lexicon):
    result = named(
        extract(
            lexicon,
            "Anticoagulation is recommended in patients with any one of: prior stroke; LV "
            "thrombus; a mechanical valve.",
        )
    )
    assert "prior stroke" in result, result


def test_acts_each_led_by_or_after_the_lead_stay_acts(lexicon):
    # "…, aspirin alone, or dipyridamole plus aspirin, or clopidogrel alone is recommended":
    # items led by "or" that name drugs are the acts' own list (a guard of the mend above).
    result = extract(
        lexicon,
        "In patients with a TIA, aspirin alone, or dipyridamole plus aspirin, or clopidogrel "
        "alone is recommended.",
    )
    assert {"dipyridamole", "clopidogrel"} <= {a.normalized for a in result.actions}, result.actions


def test_the_acts_patients_are_considered_for_are_ahead_of_them(lexicon):
    # "patients (who are) being considered for A or B": A and B are the acts ahead of them,
    # alternatives, as after "scheduled for"; never a state "considered for A".
    result = extract(
        lexicon,
        "Frailty assessment is recommended in adults who are being considered for TAVI or "
        "valve surgery.",
    )
    by_name = named(result)
    assert not any(name.startswith("considered") for name in by_name), by_name
    _one_or_group(result, ["transcatheter aortic valve implantation", "valve surgery"])


def test_once_any_of_these_is_reached_leads_a_list_of_alternatives(lexicon):
    # "once any of these is reached: A; B": one is enough; the lead names nothing.
    result = extract(
        lexicon,
        "In severe MR without symptoms, repair is recommended once any of these is reached: "
        "LVESD ≥40 mm; LVEF ≤60%.",
    )
    by_name = named(result)
    assert "reached" not in by_name, by_name
    _one_or_group(
        result, ["left ventricular end-systolic diameter", "left ventricular ejection fraction"]
    )


def test_a_comma_list_after_one_or_more_of_the_following_is_alternatives(lexicon):
    # "one or more of the following: A, B, C": commas alone end no list with a word, but the
    # lead says one is enough.
    result = extract(
        lexicon,
        "An ICD should be considered in lamin A/C cardiomyopathy with one or more of the "
        "following: NSVT, LVEF <45%, male sex.",
    )
    _one_or_group(result, ["nsvt", "left ventricular ejection fraction", "male sex"])


# A second review's guards (each fails on a532dd4)


def test_patients_not_considered_for_an_act_keep_the_negation(lexicon):
    # "not considered for surgery": a state of its own, never the surgery ahead of them.
    result = named(extract(lexicon, "In patients not considered for surgery, TAVI is recommended."))
    assert "surgery" not in result, result


def test_or_both_before_the_shared_noun_distributes_it(lexicon):
    # "carotid, femoral, or both arteries": either artery, the noun shared.
    result = extract(
        lexicon, "Duplex imaging of the carotid, femoral, or both arteries is recommended."
    )
    assert "femoral artery" in named(result), named(result)
