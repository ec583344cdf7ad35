"""An alternative written before the recommendation ("Instead of X, Y …"), coordinated
groups of people sharing one noun, bounded times before or after an event, counts, grades of
risk before an operation and volumes compared with a threshold: read by rule, in the team's
own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


@pytest.mark.parametrize(
    ("text", "action", "comparator"),
    [
        (
            "Instead of a pacemaker, an implantable loop recorder should be considered in "
            "patients with rare episodes of syncope.",
            ("Procedure", "implantable loop recorder"),
            "pacemaker",
        ),
        (
            "Rather than warfarin, apixaban is recommended in patients with atrial fibrillation.",
            ("Medication", "apixaban"),
            "warfarin",
        ),
    ],
)
def test_an_alternative_written_first_is_the_comparator_and_the_rest_the_action(  # type: ignore[no-untyped-def]
    lexicon, text: str, action: tuple[str, str], comparator: str
) -> None:
    """ "Instead of X, Y is recommended" says the same as "Y instead of X": Y is what is
    recommended and X what it replaces. Read as one alternative phrase, the row had no
    action at all and Y took the role the comparator slot usually holds."""
    result = extract(lexicon, text)
    assert [(a.role, a.normalized) for a in result.actions] == [action]
    assert comparator in named(result)
    assert comparator not in {a.normalized for a in result.actions}


@pytest.mark.parametrize(
    "text",
    [
        "In competitive or recreational athletes with chest pain, an exercise test is recommended.",
        "In competitive/recreational athletes with chest pain, an exercise test is recommended.",
    ],
)
def test_two_groups_of_people_sharing_one_noun_are_two_conditions(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "competitive or recreational athletes" are two groups of people, either of them: the
    shared noun goes to both (the contract distributes a shared head), one OR label, and no
    bare "competitive" or "athletes" concept."""
    found = named(extract(lexicon, text))
    assert_one_or_group(found["competitive athlete"], found["recreational athlete"])
    assert "competitive" not in found and "athletes" not in found


def test_a_bound_on_a_time_before_an_event_goes_with_the_schedule(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Stopping smoking >4 weeks before surgery": how long before the operation is a
    schedule (no concept), bound included; leaving ">" or "at least" behind glued it to the
    act's name."""
    for text, act in [
        ("Stopping smoking >4 weeks before elective surgery is recommended.", "stopping smoking"),
        ("Weight loss at least 3 months before pregnancy is recommended.", "weight loss"),
    ]:
        result = extract(lexicon, text)
        assert act in {a.normalized for a in result.actions}, text


def test_an_electrophysiological_study_written_ep_study_is_expanded(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an EP study" is an electrophysiological study, as "EPS" is."""
    result = extract(lexicon, "In athletes with palpitations, an EP study is recommended.")
    assert "electrophysiological study" in {a.normalized for a in result.actions}


def test_a_count_of_risk_factors_is_a_parameter_named_number_of(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients with two or more clinical risk factors": the criterion is how many risk
    factors they have, a ClinicalParameter "number of …" >= 2, not a condition named with
    its count."""
    result = extract(
        lexicon, "Statins may be considered in patients with two or more cardiac risk factors."
    )
    (count,) = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert count.normalized.startswith("number of cardiac risk factor")
    assert (count.operator, count.threshold) == (">=", 2.0)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "In patients undergoing low bleeding risk surgery, aspirin should be continued.",
            "low bleeding risk surgery",
        ),
        ("Heparin should be stopped 12 h before planned delivery.", "planned delivery"),
        ("Blood pressure should be checked before regional anaesthesia.", "regional anaesthesia"),
    ],
)
def test_what_a_patient_undergoes_is_a_procedure_whatever_grade_comes_first(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str
) -> None:
    """A grade word first ("high", "low") usually makes a cohort phrase a state ("high
    risk"); when the head is something the patient undergoes ("low bleeding risk surgery"),
    the phrase is that surgery. Delivery and anaesthesia are procedures too."""
    assert named(extract(lexicon, text))[name].role == "Procedure"


def test_a_grade_before_a_state_still_makes_a_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "high bleeding risk" names no act: it stays a Condition."""
    result = extract(lexicon, "In patients at high bleeding risk, a shorter regimen is advised.")
    assert {c.role for c in result.concepts if "risk" in c.normalized} == {"Condition"}


def test_a_volume_after_a_comparison_is_a_threshold_not_a_dose(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "expected blood loss ≥500 mL" measures a volume against a threshold; "500 mL" given
    to the patient would be a dose, which is no concept (and stays dropped)."""
    found = named(
        extract(
            lexicon,
            "Cell salvage is recommended in patients with an expected blood loss of ≥800 mL.",
        )
    )
    loss = found["expected blood loss"]
    assert (loss.role, loss.operator, loss.threshold, loss.unit) == (
        "ClinicalParameter",
        ">=",
        800.0,
        "mL",
    )
    given = extract(lexicon, "Saline 500 mL is recommended before contrast imaging.")
    assert not any(c.unit == "mL" for c in given.concepts)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "Pacing is indicated for high-degree or complete heart block.",
            "high-degree or complete heart block",
        ),
        (
            "Ablation is recommended for symptomatic, recurrent atrial flutter.",
            "symptomatic recurrent atrial flutter",
        ),
    ],
)
def test_what_follows_for_is_read_without_it(lexicon, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """ "recommended for high-degree or complete block": read with "for" glued to its first
    word, the grade range split into "high-degree" and "complete block"; read without it,
    a grade range and a run of course words stay one condition (contract §6)."""
    found = named(extract(lexicon, text))
    assert found[name].role == "Condition"


def test_a_comma_and_using_name_the_means_of_the_act(lexicon) -> None:
    """ "Screening for X is advised in adults over 65, using A or B": after a comma, "using"
    names the tests the act is done with (its components), not a state of the patients; a
    quantity named as the means is the test that measures it."""
    result = extract(
        lexicon,
        "Screening for kidney disease is advised in adults with diabetes, using serum "
        "creatinine or urine albumin testing.",
    )
    roles = {c.normalized: c.role for c in result.concepts}
    assert not any(name.startswith("using") for name in roles)
    assert roles.get("urine albumin testing") == "Procedure"
    assert roles.get("serum creatinine measurement") == "Procedure"
    assert roles.get("diabetes mellitus", roles.get("diabetes")) == "Condition"


def test_patients_using_a_drug_are_on_it(lexicon) -> None:
    """ "women using oral contraceptives": right after the patient noun, "using" says which
    therapy the group is on, like "taking"."""
    result = extract(lexicon, "Counselling is advised in women using oral contraceptives.")
    roles = {c.normalized: c.role for c in result.concepts}
    assert roles.get("oral contraceptive") == "Medication"


def test_a_recommending_verb_ends_the_concept_before_it(lexicon) -> None:
    """ "When dabigatran is used in combination with aspirin, …", "… in whom a rate-control
    strategy is indicated": a framing verb inside what the sentence rules took as one
    concept ends it; the concept is the noun phrase before the verb."""
    found = named(
        extract(
            lexicon,
            "When dabigatran is used in combination with aspirin, a lower dose may be "
            "considered in adults with AF.",
        )
    )
    assert not any(" is used" in name for name in found)
    assert "dabigatran" in found


def test_cutting_something_down_right_after_the_framing_is_the_act(lexicon) -> None:
    """ "It is recommended to reduce sugar intake to lower weight": cutting down the intake
    is what is recommended (a Procedure), the weight is the goal; "to reduce the risk of X"
    stays a goal. How much is allowed ("to 100 g per week") is a dose, no part of the act."""
    result = extract(lexicon, "It is recommended to reduce sugar intake to lower body weight.")
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("Procedure", "reduction of sugar intake")
    ]
    limited = extract(lexicon, "It is recommended to limit red meat to 350 g per week.")
    assert [a.normalized for a in limited.actions] == ["limitation of red meat"]
    goal = extract(lexicon, "It is recommended to reduce the risk of falls with exercise.")
    assert not any(a.normalized.startswith("reduction") for a in goal.actions)


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("In mitral stenosis, commissurotomy is the intervention of choice.", "commissurotomy"),
        ("Nifedipine and labetalol are the drugs of choice in pregnancy.", "nifedipine"),
        ("Thiazides are the first-line antihypertensive drugs in older adults.", "thiazide"),
    ],
)
def test_the_intervention_of_choice_is_recommended(lexicon, text: str, act: str) -> None:
    """ "X is the intervention / are the drugs of choice", "X are the first-line drugs":
    chosen first, so recommended; the framing is no part of X's name."""
    result = extract(lexicon, text)
    assert act in [a.normalized for a in result.actions]
    assert not any("choice" in c.normalized for c in result.concepts)


def test_a_small_word_in_capitals_ending_a_name_stays(lexicon) -> None:
    """ "In calcific AS, …" ends on the abbreviation of aortic stenosis, not on the word
    "as"."""
    result = extract(lexicon, "In calcific AS, valve replacement is advised.")
    assert "calcific AS" in [c.text for c in result.concepts]


def test_a_due_to_clause_set_off_by_a_comma_is_a_rationale(lexicon) -> None:
    """ ", due to lower bleeding rates." ending the row, or "Due to X, …" opening it, says
    why; "syncope due to hypotension" without a comma names a cause and stays."""
    ending = named(
        extract(
            lexicon,
            "Apixaban is advised in adults with AF, due to lower bleeding rates and fewer strokes.",
        )
    )
    assert not any("bleeding" in name or "stroke" in name for name in ending)
    opening = named(
        extract(lexicon, "Due to the risk of falls, sedatives are not advised in older adults.")
    )
    assert not any("fall" in name for name in opening)
    cause = named(extract(lexicon, "Tilt testing is advised in adults with syncope due to OH."))
    assert "syncope due to orthostatic hypotension" in cause


def test_a_due_to_clause_about_the_act_itself_is_a_rationale_without_a_comma(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "due to their interactions" or "due to a lack of data" gives a reason that belongs to
    the act (its own effects, or missing evidence), never a state of the patients, so it
    goes even without a comma; the patients named after it stay ("in young children")."""
    found = named(
        extract(
            lexicon,
            "Ranolazine is not advised in adults with epilepsy due to its drug interactions.",
        )
    )
    assert "epilepsy" in found and not any("interaction" in name for name in found), found
    found = named(
        extract(
            lexicon,
            "Statins are not advised due to the frequency of their side effects in young children.",
        )
    )
    assert not any("side effect" in name for name in found), found
    assert any("children" in name for name in found), found
    found = named(
        extract(lexicon, "Warfarin is not advised in breastfeeding mothers due to a lack of data.")
    )
    assert not any("data" in name for name in found), found


def test_sports_are_acts_and_intentions_lead_to_them(lexicon) -> None:
    """Sports, like exercise, are something a person does (Procedure) wherever they are
    named; "adults planning surgery": the intention leads in, what is intended is the
    concept (a pregnancy intended is a state of its own: test_lexicon_states_and_failures)."""
    result = extract(
        lexicon, "Cardiac screening is advised before collision sports in adults with an ICD."
    )
    assert {c.normalized: c.role for c in result.concepts}.get("collision sport") == "Procedure"
    planned = named(extract(lexicon, "Counselling is advised in adults planning surgery."))
    assert "surgery" in planned and "planning surgery" not in planned


def test_when_patients_are_on_a_drug_names_the_drug(lexicon) -> None:
    """ "When patients are treated with a VKA, …", "… while they are receiving X": the
    clause names the therapy the patients are on (background), not a state of theirs."""
    result = extract(lexicon, "When patients are treated with warfarin, bridging is advised.")
    roles = {c.normalized: c.role for c in result.concepts}
    assert roles.get("warfarin") == "Medication"
    assert not any(name.startswith("patient") for name in roles)


def test_a_limit_and_an_emphasis_are_no_part_of_what_is_cut_down(lexicon) -> None:
    """ "to restrict salt, in particular processed food, to a maximum of 5 g": the limit is
    a dose; "in particular" only stresses one item of what is cut down."""
    result = extract(
        lexicon,
        "It is recommended to restrict salt, in particular processed food, to a maximum of "
        "5% of energy intake.",
    )
    names = [a.normalized for a in result.actions]
    assert names == ["restriction of salt", "restriction of processed food"]


def test_a_lead_with_no_comma_ends_at_the_noun_of_the_act(lexicon) -> None:
    """ "In adults with asthma participation in swimming is advised": with no comma, the
    noun that names the act ("participation in", "referral to", "use of") starts it."""
    result = extract(lexicon, "In adults with asthma participation in swimming is advised.")
    assert [a.normalized for a in result.actions] == ["swimming"]
    assert "asthma" in {c.normalized for c in result.concepts if c.role == "Condition"}


def test_a_relative_clause_with_its_own_verb_ends_the_concept(lexicon) -> None:
    """ "pacemakers that are switched off before surgery": the clause says more about the
    devices; "drugs that may prolong the QT interval" is a kind named by its clause and
    stays whole."""
    found = named(
        extract(
            lexicon,
            "A check is advised in adults with pacemakers that are switched off before surgery.",
        )
    )
    assert "pacemaker" in found or "pacemakers" in found
    assert not any("switched" in name for name in found)
    kinds = named(
        extract(lexicon, "Drugs that may prolong the QT interval are not advised in adults.")
    )
    assert any(name.startswith("drugs that may prolong") for name in kinds)


def test_engaging_in_or_resuming_leads_in_to_the_act(lexicon) -> None:
    """ "before engaging in sports", "after resuming exercise": the sport or exercise is the
    concept; the lead-in gerund names nothing."""
    found = named(extract(lexicon, "An ECG is advised in adults before engaging in sports."))
    assert "sport" in found and not any(name.startswith("engaging") for name in found)


def test_what_tailors_the_act_is_no_criterion_even_as_a_list(lexicon) -> None:
    """ "according to age, kidney function, and frailty": what the act is tailored to, not
    whom it is for; a whole plain list goes, not only its first item."""
    result = extract(
        lexicon,
        "It is advised to adapt the statin dose according to age, kidney function, and frailty.",
    )
    names = {c.normalized for c in result.concepts}
    assert not {"kidney function", "frailty"} & names


def test_two_verbs_of_a_that_clause_are_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended that X is begun and kept up": both verbs only say what is done
    with X; the second one joined by "and" is no act of its own."""
    result = extract(
        lexicon,
        "It is recommended that cardiac rehabilitation is begun and strengthened after valve surgery.",
    )
    assert [a.normalized for a in result.actions] == ["cardiac rehabilitation"]
    assert not any("strengthened" in c.normalized for c in result.concepts)


def test_individual_before_a_noun_is_no_patient_and_providing_only_leads_in(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Providing individual coaching plans …": "individual" before another noun is an
    adjective, not the patients, and "providing" only leads in to the act (like
    "maintaining"); "the individual patient" is still the patients."""
    result = extract(
        lexicon,
        "Providing individual coaching plans should be considered to strengthen self-care "
        "and adherence in adults with heart failure.",
    )
    assert [a.normalized for a in result.actions] == ["individual coaching plan"]
    assert {"self-care", "adherence"} <= {
        c.normalized for c in result.concepts if c.role == "Outcome"
    }
    patient = extract(
        lexicon, "Statins should be tailored to the individual patient with diabetes."
    )
    assert not any(c.normalized == "individual" for c in patient.concepts)


@pytest.mark.parametrize(
    "where",
    [
        "when performed by experienced surgeons",
        "if done in a specialised centre",
        "when performed by expert cardiologists",
    ],
)
def test_who_or_where_an_act_is_done_is_no_patient_state(lexicon, where: str) -> None:  # type: ignore[no-untyped-def]
    """ "X is advised, when performed by experienced surgeons": by whom or where X is done
    is its setting, not a condition of the patient."""
    result = extract(lexicon, f"Valve repair is advised in adults with Marfan syndrome {where}.")
    assert {c.normalized for c in result.concepts if c.role == "Condition"} <= {
        "adult",
        "adults",
        "marfan syndrome",
    }
    assert [a.normalized for a in result.actions] == ["valve repair"]


def test_the_patients_an_act_is_given_to_with_a_clause_are_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Giving X to patients who have Y is not recommended": the patients named after "to",
    with a clause of their own, are the cohort; the act is X alone."""
    result = extract(
        lexicon, "Administration of apixaban to adults who have a mechanical valve is not advised."
    )
    assert [a.normalized for a in result.actions] == ["apixaban"]
    assert "mechanical valve" in {
        c.normalized for c in result.concepts if c.role in ("Condition", "Procedure")
    }


def test_to_treat_patients_with_a_disease_with_a_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to treat adults with X with Y": the adults with X are the cohort and Y, after the
    last "with", is what they are given; "to treat women with X during pregnancy" gives no
    drug and keeps its reading."""
    result = extract(
        lexicon, "It is not advised to routinely treat adults with stable angina with ranolazine."
    )
    assert [a.normalized for a in result.actions] == ["ranolazine"]
    assert "stable angina" in {c.normalized for c in result.concepts if c.role == "Condition"}


def test_people_who_aim_to_reduce_or_aim_for_an_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended that adults with X aim to reduce salt and increase walking": what
    they aim for is the act (the reduction, then the second aim by its object); the adults
    with X are the cohort, not part of an act."""
    result = extract(
        lexicon,
        "It is advised that adults living with hypertension aim to reduce salt intake and increase daily walking.",
    )
    assert [a.normalized for a in result.actions] == ["reduction of salt intake", "daily walking"]
    assert "hypertension" in {c.normalized for c in result.concepts if c.role == "Condition"}


@pytest.mark.parametrize(("word", "group"), [("older", "older people"), ("young", "young people")])
def test_an_age_word_before_patients_names_a_group_of_people(
    lexicon, word: str, group: str
) -> None:  # type: ignore[no-untyped-def]
    """ "older patients", "young patients": the generic head goes (the contract), but the
    age word alone is no condition; it names the group of people of that age, as the
    contract's "older people" does. The span stays the printed word."""
    found = named(extract(lexicon, f"Tilt testing is advised in {word} patients with fainting."))
    assert group in found and found[group].text.lower() == word, found


def test_an_age_word_after_another_state_is_a_group_of_its_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "sedentary older patients": the patients are sedentary, and older people; the two
    words are no one state named "sedentary older"."""
    found = named(
        extract(lexicon, "Beta-blockers may be advised in sedentary older patients with gout.")
    )
    assert "older people" in found and "sedentary" in found, found


def test_a_prefix_joined_by_a_hyphen_and_where_after_the_patients_cut_no_wrong_segment(
    lexicon,
) -> None:  # type: ignore[no-untyped-def]
    """ "in-stent", "on-site": a preposition joined to its noun by a hyphen is a prefix, no
    segment of the cohort; "patients where X is suspected" says what holds for them, like
    "in whom", and the word "where" names nothing."""
    found = named(
        extract(lexicon, "Balloon dilation is advised in adults with late in-stent stenosis.")
    )
    assert "late in-stent stenosis" in found, found
    found = named(
        extract(
            lexicon, "Dose reduction is advised in patients where the drug is suspected as a cause."
        )
    )
    assert not any("where" in n for n in found), found


@pytest.mark.parametrize(
    "text", ["a short life expectancy (<3 years)", "a good life expectancy (>3 years)"]
)
def test_a_bracketed_time_after_life_expectancy_is_its_value(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "a short life expectancy (<3 years)": the bracket gives the life expectancy's value
    (one parameter, its word of degree folded into the value), never the patients' age."""
    found = named(extract(lexicon, f"Open surgery is advised in adults with gout and {text}."))
    assert "life expectancy" in found and found["life expectancy"].threshold == 3, found
    assert "age" not in found


def test_adult_before_patients_names_the_group_of_adults(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adult patients with X": the generic patient noun goes, but "adult" is the
    demographic group the contract makes a condition, not a determiner like "all"."""
    found = named(extract(lexicon, "Statins are advised in adult patients with gout."))
    assert "adult" in found and found["adult"].role == "Condition", found
