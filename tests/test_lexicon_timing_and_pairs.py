"""Words that say when an act is done (around an operation, at diagnosis), how strong a
shock is, what an act is for ("for conversion to sinus rhythm") and two names joined by a
slash: read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize(
    ("text", "role", "name"),
    [
        (
            "Resuming warfarin post-operatively is advised in adults with a mechanical valve.",
            "Medication",
            "warfarin",
        ),
        (
            "It is recommended to check serum sodium pre-operatively in adults facing major "
            "abdominal surgery.",
            "Procedure",
            "serum sodium measurement",
        ),
        (
            "Starting a statin peri-operatively should be considered in adults with PAD.",
            "Medication",
            "statin",
        ),
    ],
)
def test_when_around_an_operation_is_no_part_of_the_name(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    role: str,
    name: str,
) -> None:
    """ "pre-operatively" says when the act is done, as "for 6 months" says how long: the
    drug or test is the same, so its name is written without the adverb."""
    result = extract(lexicon, text)
    assert (role, name) in roles(result)
    assert not [c for c in result.concepts if "operatively" in c.normalized]


def test_shock_energy_is_like_a_dose(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The energy of a shock ("≤150 J biphasic", "360 J") says how strong it is, as a dose
    says how much: no concept, and the act keeps its name."""
    result = extract(
        lexicon,
        "Synchronised cardioversion (≤150 J biphasic) is recommended in unstable adults, "
        "repeated at 360 J if needed.",
    )
    found = named(result)
    assert found["synchronised cardioversion"].role == "Procedure"
    assert not [c for c in result.concepts if " j" in f" {c.normalized}"]


@pytest.mark.parametrize(
    "text",
    [
        "Echocardiography is advised at diagnosis and at the first evaluation in adults with "
        "Marfan syndrome.",
        "Valve repair may be considered at the earliest once symptoms appear in adults with "
        "Marfan syndrome.",
    ],
)
def test_when_a_test_is_done_names_no_condition(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "at diagnosis", "at the first evaluation", "at the earliest" time the act; they
    restrict nobody, so none of them becomes a concept."""
    names = set(named(extract(lexicon, text)))
    assert "marfan syndrome" in names
    assert not [n for n in names if n.startswith("at ")], names


def test_a_preposition_cut_from_its_value_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at a maximal diameter ≥48 mm": once the value is read as a parameter, the "at a"
    left in front of it names nothing."""
    result = extract(
        lexicon,
        "Root surgery is advised at a maximal diameter ≥48 mm in adults with a bicuspid valve.",
    )
    found = named(result)
    assert found["maximal diameter"].role == "ClinicalParameter"
    assert not [n for n in found if n in {"at a", "at least", "at the"}], set(found)


@pytest.mark.parametrize(
    ("text", "aim"),
    [
        (
            "Biphasic shocks are advised for conversion to sinus rhythm in stable adults.",
            "conversion to sinus rhythm",
        ),
        (
            "Intravenous ajmaline may be considered for acute conversion of wide-complex "
            "tachycardia.",
            "acute conversion of wide-complex tachycardia",
        ),
    ],
)
def test_ending_a_rhythm_is_the_aim_of_the_act(lexicon, text: str, aim: str) -> None:  # type: ignore[no-untyped-def]
    """ "for conversion to sinus rhythm", "for acute conversion of X" name what the act is
    meant to achieve, an Outcome, like "for termination of X"; how it is ended ("acute")
    stays in the aim."""
    assert ("Outcome", aim) in roles(extract(lexicon, text))


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        # an abbreviation and a plain word
        (
            "Carotid duplex is advised in adults with a recent TIA/stroke.",
            "recent transient ischemic attack",
            "stroke",
        ),
        ("Statins are advised after stroke/TIA in adults.", "stroke", "transient ischemic attack"),
        # a state word before the pair holds for both
        (
            "In adults with breathlessness and raised NT-proBNP/BNP, echocardiography is advised.",
            "raised n-terminal pro-b-type natriuretic peptide",
            "raised b-type natriuretic peptide",
        ),
    ],
)
def test_a_slash_between_a_known_abbreviation_and_a_word_is_or(  # type: ignore[no-untyped-def]
    lexicon, text: str, first: str, second: str
) -> None:
    """A slash coordinates like "or" (the contract, section 6): "TIA/stroke" is either
    event, and "raised NT-proBNP/BNP" either marker raised, two Conditions in one group."""
    found = named(extract(lexicon, text))
    assert found[first].role == found[second].role == "Condition"
    assert found[first].or_group is not None
    assert found[first].or_group == found[second].or_group


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("Keeping the contrast volume/GFR ratio below 3.7 is advised.", "contrast volume"),
        ("Sacubitril/valsartan is advised in adults with HFrEF.", "sacubitril/valsartan"),
    ],
)
def test_a_slash_inside_one_measure_or_one_product_stays(lexicon, text: str, whole: str) -> None:  # type: ignore[no-untyped-def]
    """A ratio ("volume/GFR ratio") and a fixed combination ("sacubitril/valsartan") are one
    thing each, not two alternatives."""
    names = list(named(extract(lexicon, text)))
    assert any(n.startswith(whole) for n in names), names
    assert "glomerular filtration rate" not in names


def test_as_an_adjunct_to_names_the_co_therapy(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X as an adjunct to Y": Y is given beside X (co-therapy), not part of X's name; a
    slash between Y's drugs is either one."""
    found = named(
        extract(
            lexicon,
            "Colchicine is advised as an adjunct to aspirin/NSAIDs in adults with relapsing "
            "pericarditis.",
        )
    )
    assert found["colchicine"].role == "Medication"
    assert (
        found["aspirin"].role == found["non-steroidal anti-inflammatory drug"].role == "Medication"
    )
    assert found["aspirin"].or_group == found["non-steroidal anti-inflammatory drug"].or_group
    assert not [n for n in found if "adjunct" in n]


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Tilt testing is advised in adults who suffer from recurrent fainting.",
            "recurrent fainting",
        ),
        (
            "Exercise testing is advised in adults who experience palpitations.",
            "palpitation",
        ),
        (
            "Surgery is advised in adults who present with exertional chest pain.",
            "exertional chest pain",
        ),
    ],
)
def test_verbs_of_having_a_state_are_no_part_of_it(lexicon, text: str, state: str) -> None:  # type: ignore[no-untyped-def]
    """ "who experience X", "who present with X", "who suffer from X" say the patients have
    X, as "who have X" does: the Condition is X alone."""
    found = named(extract(lexicon, text))
    assert found[state].role == "Condition"
    assert not [n for n in found if n.startswith(("experience", "present", "suffer"))]


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "Stress echocardiography is not advised routinely before hip surgery.",
            "stress echocardiography",
        ),
        (
            "Ambulatory monitoring may be considered in rare cases after fainting.",
            "ambulatory monitoring",
        ),
        (
            "Loop recorders are advised in a few instances after unexplained falls.",
            "loop recorder",
        ),
    ],
)
def test_how_often_or_in_how_many_cases_names_no_condition(lexicon, text: str, act: str) -> None:  # type: ignore[no-untyped-def]
    """ "routinely", "in selected cases", "in a few instances" hedge how often the act is
    done; they name nobody the row is for, so no concept holds them."""
    found = named(extract(lexicon, text))
    assert act in found, set(found)
    assert not [n for n in found if any(w in n for w in ("routinely", "case", "instance"))]


def test_how_recent_an_event_is_leaves_the_event(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "stroke within the past 6 months": how recent it is qualifies the event; the
    condition is the stroke, not a concept named with the window."""
    found = named(
        extract(
            lexicon,
            "Carotid duplex is advised before bypass surgery in adults with stroke within the past 6 months.",
        )
    )
    assert found["stroke"].role == "Condition"
    assert not [n for n in found if "past" in n]


def test_an_act_as_it_is_for_another_group_is_recommended_for_this_one(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Anticoagulation for X should be similar to that in adults with Y": the act is
    recommended for this group, as for the other; the other group is a comparison, not a
    condition of the row."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation for focal tachycardia should be similar to that in adults with flutter.",
        )
    )
    assert found["anticoagulation"].role == "Medication"
    assert found["focal tachycardia"].role == "Condition"
    assert not [n for n in found if "flutter" in n or "similar" in n], set(found)


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold", "unit", "events"),
    [
        (
            "Carotid imaging should be considered in patients with a TIA or stroke within the "
            "past 3 months.",
            "time since transient ischemic attack or stroke",
            "<=",
            3.0,
            "months",
            {"transient ischemic attack", "stroke"},
        ),
        (
            "Elective surgery should be postponed in patients with a recent (<2 months) "
            "myocardial infarction.",
            "time since myocardial infarction",
            "<",
            2.0,
            "months",
            {"myocardial infarction"},
        ),
    ],
)
def test_a_time_counted_back_from_now_is_the_time_since_the_event(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: float, unit: str, events: set[str]
) -> None:
    """ "a stroke within the past 3 months", "a recent (<2 months) MI": how recent the event
    is, a criterion on the time since it (contract §5), beside the event itself; the time
    is said of the event, so it shares no OR label with it."""
    found = named(extract(lexicon, text))
    since = found[name]
    assert (since.role, since.operator, since.threshold, since.unit) == (
        "ClinicalParameter",
        operator,
        threshold,
        unit,
    )
    assert since.or_group is None
    for event in events:
        assert found[event].role == "Condition"


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold"),
    [
        (
            "Strenuous training is not advised during the first 4 months after viral myocarditis.",
            "time since viral myocarditis",
            "<=",
            4.0,
        ),
        (
            "In the first 2 months after a stroke, driving a bus is not advised.",
            "time since stroke",
            "<=",
            2.0,
        ),
        (
            "A troponin sample should be repeated within the first 3 hours after admission.",
            "time since admission",
            "<=",
            3.0,
        ),
        (
            "A nurse-led review within 1–2 weeks of discharge is advised for patients with HF.",
            "time since discharge",
            "between",
            [1.0, 2.0],
        ),
    ],
)
def test_a_window_counted_from_a_named_event_is_the_time_since_it(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: object
) -> None:
    """ "during / in the first N months after X" and "within A–B weeks of X" bound the time
    since X (contract §5: "in the first N days" is <=), one parameter with the event in its
    name, not a bare "first N months" left as a condition and X read apart."""
    result = extract(lexicon, text)
    params = [
        (c.normalized, c.operator, c.threshold)
        for c in result.concepts
        if c.role == "ClinicalParameter"
    ]
    assert params == [(name, operator, threshold)]
    assert not [c for c in result.concepts if "first" in c.normalized], result.concepts


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Echocardiography should be repeated within 6–12 weeks to reassess LVEF.",
            "left ventricular ejection fraction",
        ),
        (
            "Primary PCI is advised within 90-120 minutes in adults with STEMI.",
            "st segment elevation myocardial infarction",
        ),
    ],
)
def test_a_window_of_a_range_counted_from_nothing_is_when_to_act(
    lexicon, text: str, kept: str
) -> None:  # type: ignore[no-untyped-def]
    """ "within 6–12 weeks" with no event after it says when to act, like "within 24 h": no
    criterion, and the words after it keep their own reading."""
    found = named(extract(lexicon, text))
    assert kept in found, set(found)
    assert not [n for n in found if "week" in n or "minute" in n], set(found)


def test_for_the_first_months_after_a_procedure_is_how_long_the_act_goes_on(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for the first 3 months after valve repair" says how long the drug is given, a
    duration (no concept), while the repair stays the background the row is for."""
    result = extract(
        lexicon,
        "Aspirin alone should be considered for the first 3 months after mitral valve repair.",
    )
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"], result.concepts
    assert any(c.normalized == "mitral valve repair" for c in result.concepts), result.concepts


def test_a_time_back_from_now_of_no_event_named_is_no_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if it has not been measured in the previous 6 months" names when, of no event: no
    time-since parameter, and no concept carries the words."""
    result = extract(
        lexicon,
        "An HbA1c test is recommended before surgery if it has not been measured in the previous 6 months.",
    )
    assert not any(c.normalized.startswith("time since") for c in result.concepts)
    assert not any("previous" in c.text for c in result.concepts)


def test_a_bracket_of_exercise_amounts_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(up to 150 min/week)", "(3 days per week, 10 exercises, 8–10 repetitions)": how much
    of an activity, like a dose of a drug, is no concept."""
    result = extract(
        lexicon,
        "Brisk walking (up to 150 min/week) and strength training (3 days per week, 10 "
        "exercises, 8–10 repetitions) are advised in older adults.",
    )
    names = {c.normalized for c in result.concepts}
    assert {"brisk walking", "strength training"} <= names
    assert not any(any(ch.isdigit() for ch in name) for name in names)
    # how long each session lasts, beside how often, is the same kind of amount
    result = extract(
        lexicon, "Cycling (at least 40 min, 3–4 days per week) is advised in adults with obesity."
    )
    assert not any(any(ch.isdigit() for ch in c.normalized) for c in result.concepts)


@pytest.mark.parametrize(
    "text",
    [
        "An eating pattern rich in oats, beans, and berries is advised in adults with obesity.",
        "A diet that includes lentils, seeds and oily fish is advised in adults with obesity.",
    ],
)
def test_the_foods_a_diet_is_made_of_are_no_concepts(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "a diet rich in A, B and C": the foods only say what the diet is; the diet is the
    act, and who it is for is read as before."""
    names = {c.normalized for c in extract(lexicon, text).concepts}
    assert not names & {"oat", "bean", "berry", "lentil", "seed", "oily fish"}, names
    assert {"obesity", "adults"} <= names


def test_in_the_long_term_is_when_not_what(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to reduce stroke in the long term": when the effect shows is no part of the goal."""
    result = extract(
        lexicon, "Weight loss should be considered for reducing stroke in the long term."
    )
    assert "stroke" in {c.normalized for c in result.concepts if c.role == "Outcome"}


def test_the_first_months_of_therapy_are_a_duration(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at least during the first 3 months of therapy", "for the first 4 cycles": how long
    the act goes on, a duration the contract leaves out."""
    result = extract(
        lexicon,
        "Aspirin is advised in adults with lymphoma and thrombosis risk factors at least "
        "during the first 3 months of therapy.",
    )
    names = {c.normalized for c in result.concepts}
    assert not any("month" in name for name in names)
    assert any(name.startswith("thrombosis risk factor") for name in names)


def test_a_change_of_a_lab_value_stays_one_parameter(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "statin therapy with a ≥30% reduction in triglycerides": "in" after a change names
    what changes, not a disease the therapy is for."""
    result = extract(lexicon, "Statin therapy with a ≥30% reduction in triglycerides is advised.")
    params = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.text, c.operator) for c in params] == [("≥30% reduction in triglycerides", ">=")]


def test_inline_exercise_amounts_are_no_concepts(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "participation in at least 90 min/week of brisk walking", "swimming 2–3 times per
    week", "on 3 days a week": how much exercise is its dose; "within 2 h of surgery" is a
    window and stays."""
    result = extract(
        lexicon,
        "Participation in at least 90 min/week of brisk walking and swimming 2–3 times per "
        "week on 3 days a week are advised in older adults.",
    )
    names = {c.normalized for c in result.concepts}
    assert {"brisk walking", "swimming"} <= names
    assert not any(any(ch.isdigit() for ch in name) for name in names)
    often = extract(lexicon, "Cycling is advised on 3 or more days per week in older adults.")
    assert not any(any(ch.isdigit() for ch in c.normalized) for c in often.concepts)
    weekly = extract(lexicon, "Participation in 120 min of jogging per week is advised.")
    assert [a.normalized for a in weekly.actions] == ["jogging"]
    window = extract(lexicon, "Antibiotics within 2 h of surgery are advised.")
    assert any(c.operator == "<=" and c.threshold == 2 for c in window.concepts)


def test_a_regardless_of_list_goes_whole(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "regardless of age, sex, or LV function": none of the listed things matters, so none
    is a criterion; a clause after it ("in the absence of X", "who have X") is not part of
    it."""
    found = {
        c.normalized: c.negated
        for c in extract(
            lexicon,
            "Walking is advised in adults with angina, regardless of age, sex, or LV "
            "function, in the absence of syncope.",
        ).concepts
    }
    assert "sex" not in found and not any("function" in name for name in found)
    assert found.get("syncope") is True
    clause = {
        c.normalized
        for c in extract(
            lexicon,
            "CRT is advised in adults with HFrEF regardless of NYHA class who have AV block.",
        ).concepts
    }
    assert any(name.endswith("block") for name in clause)


def test_a_plural_written_as_a_choice_still_names_a_timed_quantity(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ventricular pause/s >4 s": "/s" writes the plural as a choice; the pause is still a
    quantity measured in seconds, a parameter named without the "/s"."""
    result = extract(lexicon, "Pacing is advised in adults with ventricular pause/s >4 s.")
    params = [
        (c.normalized, c.operator, c.threshold)
        for c in result.concepts
        if c.role == "ClinicalParameter"
    ]
    assert params == [("ventricular pause", ">", 4.0)]


def test_years_counted_from_an_event_are_the_time_since_it_not_an_age(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "1 year after PCI", ">5 years after CABG": a number of years followed by the event it
    is counted from is the time since that event, never the patient's age; the event stays a
    concept of its own, and "aged >50 years after X" is still an age."""
    found = named(
        extract(
            lexicon,
            "Stress imaging may be considered 2 years after stenting and >5 years after "
            "bypass surgery.",
        )
    )
    assert "age" not in found, found
    since = [c for name, c in found.items() if name.startswith("time since")]
    assert {(c.operator, c.threshold) for c in since} == {("=", 2.0), (">", 5.0)}, since
    assert all(c.role == "ClinicalParameter" for c in since)
    assert {"stenting", "bypass surgery"} <= set(found), found
    aged = named(extract(lexicon, "Screening is advised in women aged >50 years after menopause."))
    assert aged["age"].threshold == 50.0


@pytest.mark.parametrize(
    ("text", "kept", "state"),
    [
        (
            "Loop diuretics are advised for fluid overload in pregnancy.",
            ("Condition", "fluid overload"),
            "pregnancy",
        ),
        (
            "A beta-blocker throughout pregnancy is advised in women with a dilated aorta.",
            ("Medication", "beta-blocker"),
            "pregnancy",
        ),
        (
            "Warfarin is not advised in breastfeeding.",
            ("Medication", "warfarin"),
            "breastfeeding",
        ),
    ],
)
def test_a_state_the_patient_is_in_while_it_applies_is_a_condition_of_its_own(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    kept: tuple[str, str],
    state: str,
) -> None:
    """ "in pregnancy" or "throughout pregnancy" after a disease or a drug says when it
    applies, as "during pregnancy" does: the state is a condition of its own and no part
    of the name before it."""
    result = roles(extract(lexicon, text))
    assert kept in result
    assert ("Condition", state) in result


@pytest.mark.parametrize(
    ("text", "operator", "threshold"),
    [
        ("Switching warfarin to heparin is advised at the 36th week of gestation.", "=", 36),
        ("In women with a mechanical valve, warfarin is advised until the 34th week.", "<=", 34),
        ("Heparin instead of warfarin is advised between weeks 6 and 12.", "between", [6, 12]),
        ("In women with pre-eclampsia, delivery is advised at 37 weeks.", "=", 37),
    ],
)
def test_the_week_of_pregnancy_is_the_gestational_age_it_applies_at(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    operator: str,
    threshold: float | list[float],
) -> None:
    """The week of a pregnancy a step is taken in ("at the 36th week of gestation", "until
    the 34th week", "between weeks 6 and 12") is a criterion, the gestational age, and no
    part of the drug's name; "at 6 weeks" outside a pregnancy only times a test."""
    result = extract(lexicon, text)
    (age,) = [c for c in result.concepts if c.normalized == "gestational age"]
    assert (age.role, age.operator, age.threshold, age.unit) == (
        "ClinicalParameter",
        operator,
        threshold,
        "weeks",
    )
    assert not any("week" in c.normalized for c in result.concepts if c is not age)
    timed = extract(lexicon, "Repeat echocardiography is advised at 6 weeks after ablation.")
    assert not any(c.role == "ClinicalParameter" for c in timed.concepts)


def test_at_the_time_of_an_operation_says_when_like_during(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at the time of valve repair", "at the same time as the surgery": when the act is
    done, like "during"; the operation is what the patients undergo, no part of the act's
    name."""
    found = named(extract(lexicon, "Atrial pacing at the time of cardiac surgery is advised."))
    assert found["atrial pacing"].role == "Procedure"
    assert found["cardiac surgery"].role == "Procedure"
    assert not any(name.startswith("at the") for name in found)


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "Primary stenting is advised over thrombolysis within the indicated time frames.",
            "primary stenting",
        ),
        (
            "Screening for carotid disease is recommended on a regular basis in smokers.",
            "screening",
        ),
        (
            "In adults with heart failure, it is advised to follow up the patients on a routine basis.",
            "follow-up",
        ),
        (
            "Early referral to a heart team is mandatory to improve survival.",
            "early referral to a heart team",
        ),
        # the interval between checks, with or without its length, says how often
        ("Knee imaging is advised at 2-year intervals in runners.", "knee imaging"),
        ("Knee imaging is advised at wide (4 year) intervals in runners.", "knee imaging"),
        ("Knee imaging is advised at intervals of 3 years in runners.", "knee imaging"),
        # ... and so does a frequency word with its count ("once-yearly", "six-monthly")
        ("Once-yearly knee imaging is advised in runners.", "knee imaging"),
        ("Six-monthly knee imaging is advised in runners.", "knee imaging"),
    ],
)
def test_how_often_or_how_soon_without_a_value_is_no_concept(lexicon, text: str, act: str) -> None:  # type: ignore[no-untyped-def]
    """ "on a regular basis", "within the indicated time frames" say how often or how soon
    without a value: no concept, and nothing of them stays in a name; "to follow up
    patients" is their follow-up; "is mandatory" recommends like "is recommended"."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act]
    assert not any(
        w in c.normalized
        for c in result.concepts
        for w in ("basis", "frame", "mandatory", "patient", "interval")
    )
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"]  # no age, no gap


@pytest.mark.parametrize(
    "text",
    [
        "Repeat imaging is advised after 2 years in adults with a dilated aorta.",
        "Imaging is advised in adults with a dilated aorta after 1 year, then every 3 years.",
    ],
)
def test_when_an_act_is_next_done_is_no_age(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "after 2 years", with nothing named that the years count from, says when the act is
    done next: no age of the patient, no concept."""
    result = extract(lexicon, text)
    assert all(c.role != "ClinicalParameter" for c in result.concepts)
    assert "dilated aorta" in named(result)


def test_years_right_after_a_group_of_people_are_their_age(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "women <35 years": the years bound the women's age; the group stays a condition of its
    own, and the parameter is named age, never "women"."""
    result = extract(
        lexicon,
        "Stress testing is not advised in men <30 years and women <35 years without angina.",
    )
    params = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(p.normalized, p.threshold) for p in params] == [("age", 30.0), ("age", 35.0)]
    assert {"men", "women"} <= {c.normalized for c in result.concepts if c.role == "Condition"}


@pytest.mark.parametrize(
    "when",
    [
        "during the first cycle",
        "after each dose increase of the drug",
        "in a case-by-case decision",
        "in an individualised manner",
    ],
)
def test_when_a_check_is_repeated_is_no_concept(lexicon, when: str) -> None:  # type: ignore[no-untyped-def]
    """ "during the first cycle", "after each dose increase", "in a case-by-case decision":
    when or how the act is repeated or decided, no condition of the patient."""
    result = extract(
        lexicon, f"Weekly ECG checks are advised in adults treated with sotalol {when}."
    )
    assert {c.normalized for c in result.concepts} == {
        "electrocardiogram check",
        "adults",
        "sotalol",
    }


def test_a_second_time_for_the_same_act_in_brackets_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "before (or at latest at the time of) surgery": the bracket gives a second time for
    the same act; the event stays named once, no condition "at the time"."""
    result = extract(
        lexicon, "Heparin is advised before (or at the latest at the time of) valve surgery."
    )
    assert {c.normalized for c in result.concepts} == {"heparin", "valve surgery"}


@pytest.mark.parametrize("habit", ["who exercise regularly", "who train on a regular basis"])
def test_people_who_exercise_regularly_have_a_habit_of_regular_exercise(
    lexicon, habit: str
) -> None:  # type: ignore[no-untyped-def]
    """ "adults with X who exercise regularly": how often is no concept of its own, but here
    it names the habit itself, regular exercise, that the patients have."""
    result = extract(lexicon, f"Annual follow-up is advised for adults with HCM {habit}.")
    assert "regular exercise" in {c.normalized for c in result.concepts}


@pytest.mark.parametrize("period", ["at least 4 weeks", "up to 2 months", "at most 10 days"])
def test_a_bounded_period_is_how_long_not_a_condition(lexicon, period: str) -> None:  # type: ignore[no-untyped-def]
    """ "for a period of at least 4 weeks": how long the act goes on, with its bound, like
    "for a minimum of 4 weeks"; no concept, nothing of it in the patients' states."""
    result = extract(lexicon, f"Knee bracing is advised for a period of {period} in runners.")
    assert [a.normalized for a in result.actions] == ["knee bracing"]
    assert not [c for c in result.concepts if "period" in c.normalized]


@pytest.mark.parametrize(
    "standing",
    [
        "as the standard approach",
        "as a preventive measure",
        "as the preferred orthopaedic approach",
        "as the preferred method",
    ],
)
def test_the_standing_of_an_act_is_no_concept(lexicon, standing: str) -> None:  # type: ignore[no-untyped-def]
    """ "Knee bracing is advised as the standard approach": how the act stands among others
    (like "as first choice") names no state of the patients and no other act."""
    result = extract(lexicon, f"Knee bracing is advised {standing} in runners with gout.")
    assert [a.normalized for a in result.actions] == ["knee bracing"]
    names = {c.normalized for c in result.concepts}
    assert not any(w in n for n in names for w in ("approach", "measure", "method", "preferred"))


@pytest.mark.parametrize(
    "text",
    [
        "Knee bracing should be considered by the Heart Team in runners with gout.",
        "Knee bracing is advised in runners with gout, as decided by the multidisciplinary team.",
    ],
)
def test_who_weighs_the_act_is_no_concept(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "X should be considered by the Heart Team", ", as decided by the team": who weighs
    the act names neither a condition of the patients nor another act."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == ["knee bracing"]
    assert not any("team" in c.normalized for c in result.concepts)
