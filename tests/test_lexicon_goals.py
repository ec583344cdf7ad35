"""Goals a row states: an aim written first or after "for", verbs that weaken a harm or
help reach a value, "to treat X", ending or controlling a rhythm, and a quantity lowered to
a target: read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize(
    ("text", "action", "outcome"),
    [
        (
            "To reduce the risk of stroke, apixaban is recommended in patients with atrial flutter.",
            "apixaban",
            "stroke",
        ),
        (
            "In order to lower the risk of kidney injury, it is recommended to avoid contrast overload.",
            "avoidance of contrast overload",
            "kidney injury",
        ),
    ],
)
def test_an_aim_written_first_is_the_outcome_and_the_rest_the_recommendation(  # type: ignore[no-untyped-def]
    lexicon, text: str, action: str, outcome: str
) -> None:
    """ "To reduce X, Y is recommended" says what "Y is recommended to reduce X" says. Read
    as a lead-in, the aim swallowed the action (Y came out as an Outcome and the row had
    none) or became a condition named "to reduce X"."""
    result = extract(lexicon, text)
    assert action in {a.normalized for a in result.actions}
    assert named(result)[outcome].role == "Outcome"


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("Regular walking should be considered to help prevent heart failure.", "heart failure"),
        (
            "Pacing is indicated in patients with sinus arrest to correct bradycardia.",
            "bradycardia",
        ),
    ],
)
def test_help_to_and_correct_introduce_an_outcome(lexicon, text: str, outcome: str) -> None:  # type: ignore[no-untyped-def]
    """ "to help prevent X" is "to prevent X"; "to correct X" states a goal like "to reverse X"."""
    found = named(extract(lexicon, text))
    assert found[outcome].role == "Outcome"
    assert not any(name.startswith("to ") for name in found)


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        (
            "Use of a reduced-dose anticoagulant to attenuate the risk of bleeding after "
            "surgery is not recommended.",
            "bleeding",
        ),
        (
            "An SGLT2 inhibitor is recommended in adults with heart failure to lessen "
            "hospital admissions.",
            "hospital admission",
        ),
        (
            "Early cardioversion is advised to mitigate the risk of stroke in adults with "
            "atrial flutter.",
            "stroke",
        ),
    ],
)
def test_verbs_that_weaken_a_harm_introduce_an_outcome(lexicon, text: str, outcome: str) -> None:  # type: ignore[no-untyped-def]
    """ "to attenuate / lessen / mitigate X" states a goal as "to reduce X" does: X is an
    Outcome, and the goal is no part of the act's name."""
    found = named(extract(lexicon, text))
    assert found[outcome].role == "Outcome", found
    assert not any(" to " in name or name.startswith("to ") for name in found), found


@pytest.mark.parametrize(
    ("text", "disease"),
    [
        (
            "Urgent drainage is recommended to treat purulent pericardial effusion.",
            "purulent pericardial effusion",
        ),
        (
            "Thrombolysis to manage patients with massive pulmonary embolism is recommended.",
            "massive pulmonary embolism",
        ),
    ],
)
def test_to_treat_names_the_disease_treated(lexicon, text: str, disease: str) -> None:  # type: ignore[no-untyped-def]
    """ "recommended to treat X" is "for the treatment of X": X is the condition the act is
    for, without "to treat" in its span (and "patients with" read as the cohort's)."""
    found = named(extract(lexicon, text))
    assert found[disease].role == "Condition"
    assert not any(c.text.lower().startswith("to ") for c in found.values())


def test_a_goal_to_reach_or_achieve_is_an_outcome(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The contract: goals after "to reach / achieve …" are Outcomes ("to reach the blood
    pressure target" -> Outcome "blood pressure target"); a value to reach stays a target
    parameter."""
    goal = named(
        extract(lexicon, "Dual therapy is recommended to reach the blood pressure target.")
    )
    assert goal["blood pressure target"].role == "Outcome"
    value = extract(lexicon, "Statins are advised to achieve an LDL-C goal below 2.1 mmol/L.")
    assert [c.role for c in value.concepts if "cholesterol" in c.normalized] == [
        "ClinicalParameter"
    ]


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "It is recommended to introduce supervised exercise training in patients with angina.",
            "supervised exercise training",
        ),
        ("It is recommended to individualize glucose targets in older adults.", "glucose target"),
        (
            "Catheter ablation is recommended to be performed in experienced centres.",
            "catheter ablation",
        ),
    ],
)
def test_lead_in_verbs_and_a_passive_infinitive_are_no_part_of_the_act(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str
) -> None:
    """ "to introduce X", "to individualize X": lead-in verbs are no part of a span (the
    contract); "X is recommended to be performed" names X as the act and nothing else."""
    result = extract(lexicon, text)
    assert act in {a.normalized for a in result.actions}
    assert not any(c.text.lower().startswith("to ") for c in result.concepts)


@pytest.mark.parametrize("aim", ["rate control", "acute conversion", "termination"])
def test_for_rate_control_of_a_disease_is_the_goal_and_the_disease(lexicon, aim: str) -> None:  # type: ignore[no-untyped-def]
    """ "for rate control of AF", "for acute conversion of AF": controlling or ending the
    rhythm is the stated goal, an Outcome by the contract; the disease it is done in is a
    condition the patient has."""
    result = extract(lexicon, f"Diltiazem may be considered for {aim} of atrial flutter or AF.")
    roles = {c.normalized: c.role for c in result.concepts}
    assert any(n.startswith(aim) and r == "Outcome" for n, r in roles.items()), roles
    assert roles.get("atrial fibrillation") == "Condition"
    assert [a.normalized for a in result.actions] == ["diltiazem"]


def test_prevention_and_treatment_of_a_disease_is_one_aim(lexicon) -> None:
    """ "for the prevention and treatment of X": the care named beside the aim shares its
    object; X is the goal (an Outcome), neither "prevention" nor "treatment of X" is a
    concept of its own."""
    result = extract(
        lexicon, "Fondaparinux is advised for the prevention and treatment of DVT in adults."
    )
    roles = {c.normalized: c.role for c in result.concepts}
    assert roles.get("deep venous thrombosis", roles.get("deep vein thrombosis")) == "Outcome"
    assert "prevention" not in roles
    assert not any(name.startswith("treatment of") for name in roles)


def test_to_allow_introduces_a_goal(lexicon) -> None:
    """ "to allow wound healing": what the act lets happen is its stated goal (an Outcome),
    like "to improve" or "to restore"."""
    result = extract(
        lexicon, "In adults with leg ulcers, compression is advised to allow wound healing."
    )
    roles = {c.normalized: c.role for c in result.concepts}
    assert roles.get("wound healing") == "Outcome"


@pytest.mark.parametrize(
    ("text", "goal", "cohort"),
    [
        (
            "For limb salvage in adults with critical ischaemia, bypass surgery is advised.",
            "limb salvage",
            "critical ischaemia",
        ),
        ("For stomach protection, a proton pump inhibitor is advised.", "stomach protection", None),
        (
            "Early bypass is advised in adults with critical ischaemia for limb salvage.",
            "limb salvage",
            "critical ischaemia",
        ),
    ],
)
def test_a_goal_named_after_for_is_an_outcome_also_when_written_first(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    goal: str,
    cohort: str | None,
) -> None:
    """ "For limb salvage, …" names what the act is meant to achieve, like "for glucose
    control" at the end of a sentence; the patients may follow the goal in the same lead."""
    result = roles(extract(lexicon, text))
    assert ("Outcome", goal) in result
    assert ("Condition", goal) not in result
    if cohort:
        assert ("Condition", cohort) in result


@pytest.mark.parametrize(
    ("text", "expected", "not_a_concept"),
    [
        (
            "Cabergoline may be considered to stop lactation in women with cardiomyopathy.",
            ("Outcome", "lactation"),
            "to stop lactation",
        ),
        (
            "Group sessions should be considered to induce lasting habits.",
            ("Outcome", "lasting habit"),
            "to induce lasting habit",
        ),
        (
            "Referral is recommended to a centre with a heart team.",
            ("Procedure", "referral"),
            "to a centre with a heart team",
        ),
        ("Statins are advised to adults with diabetes.", ("Condition", "diabetes mellitus"), None),
    ],
)
def test_a_trailing_to_phrase_is_an_aim_a_place_or_the_patients(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    expected: tuple[str, str],
    not_a_concept: str | None,
) -> None:
    """After the recommended act, "to" leads an aim whatever its verb ("to stop lactation":
    the goal is about lactation), a place ("to a centre", no concept) or the patients ("to
    adults with diabetes"); none of them is a condition named with its "to"."""
    result = extract(lexicon, text)
    found = roles(result)
    assert expected in found
    assert not any(name.startswith("to ") for _, name in found)
    if not_a_concept:
        assert not_a_concept not in {name for _, name in found}


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        (
            "Metformin is advised for glucose-lowering treatment in adults with T2DM.",
            "glucose lowering",
        ),
        ("Statins are advised for LDL-C lowering in adults over 40 years.", "cholesterol lowering"),
    ],
)
def test_a_lowering_named_after_for_is_the_goal_even_before_the_patients(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    goal: str,
) -> None:
    """ "for glucose-lowering treatment" says what the drug is given for, as "for glucose
    control" does: an Outcome (contract §2), also when the patients follow it."""
    found = roles(extract(lexicon, text))
    assert any(role == "Outcome" and name.endswith(goal) for role, name in found)
    assert not any(role == "Medication" and "lowering" in name for role, name in found)


def test_aiming_at_a_value_names_the_target(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X, ultimately aiming at an LDL-C <1.8 mmol/L": like "to reach", what follows is the
    target X is given for; "aiming" is no act and no name."""
    result = extract(
        lexicon,
        "In adults with diabetes, fibrate therapy, ultimately aiming at a triglyceride level <1.7 mmol/L, is advised.",
    )
    assert not any("aiming" in c.normalized for c in result.concepts)
    target = next(c for c in result.concepts if c.role == "ClinicalParameter")
    assert (target.operator, target.threshold) == ("<", 1.7)


def test_for_the_control_of_a_quantity_names_the_goal(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for (acute) control of the heart rate": like "for the prevention of X", what the act
    is for; the quantity controlled is the outcome, no condition of the patient."""
    result = extract(
        lexicon,
        "In adults with atrial flutter, digoxin may be considered for acute control of ventricular rate.",
    )
    outcomes = [c.normalized for c in result.concepts if c.role == "Outcome"]
    assert outcomes == ["ventricular rate"]
    assert not any("control" in c.normalized for c in result.concepts)


@pytest.mark.parametrize(
    ("verb", "act"), [("re-evaluated", "re-evaluation"), ("reassessed", "re-assessment")]
)
def test_a_care_act_done_again_is_the_act_and_reassessing_is_an_aim(  # type: ignore[no-untyped-def]
    lexicon, verb: str, act: str
) -> None:
    """ "that patients are re-evaluated after X in order to reassess Y": the act done to the
    patients is the evaluation done again (its "re-" is no word of the cohort), X is what
    they went through, and "to reassess" leads an aim, like "to assess"."""
    result = extract(
        lexicon,
        f"It is recommended that patients are {verb} after hip surgery in order to reassess "
        "their mobility.",
    )
    assert [a.normalized for a in result.actions] == [act]
    found = named(result)
    assert found["hip surgery"].role == "Procedure"
    assert not [c for c in result.concepts if "patients" in c.normalized]


@pytest.mark.parametrize("cohort", ["in gout", "in gout with anaemia"])
def test_two_events_prevented_and_a_disease_after_name_the_aims_and_the_patients(  # type: ignore[no-untyped-def]
    lexicon, cohort: str
) -> None:
    """ "for fracture or fall prevention in gout": both events are what the act prevents
    (outcomes, never alternatives of each other), and the disease written right after
    "prevention in" is the patients the row is for, not where the events happen."""
    result = extract(
        lexicon, f"Vitamin D is not recommended for fracture or fall prevention {cohort}."
    )
    found = named(result)
    assert found["fracture"].role == found["fall"].role == "Outcome"
    assert found["fracture"].or_group is None
    assert found["gout"].role == "Condition"


@pytest.mark.parametrize(
    ("wording", "values"),
    [
        ("UA is recommended to be lowered to <0.36 mmol/L", [("<", 0.36)]),
        (
            "it is recommended that UA should finally be reduced to a target range of "
            "0.30 - 0.36 mmol/L",
            [("between", [0.3, 0.36])],
        ),
        (
            "it is recommended that UA should generally be targeted to <0.36 and down to "
            "0.30 mmol/L",
            [("<", 0.36), (">=", 0.3)],
        ),
    ],
)
def test_a_quantity_to_be_lowered_to_a_value_is_its_target(  # type: ignore[no-untyped-def]
    lexicon, wording: str, values: list
) -> None:
    """ "UA should be lowered to <0.36 mmol/L" says what "to lower UA to <0.36 mmol/L" says:
    the quantity with its target value is the recommended act, not a procedure named "UA";
    "<0.36 and down to 0.30 mmol/L" is below the first and not below the second, the unit
    written once belonging to both."""
    result = extract(lexicon, f"In adults with gout, {wording}.", abbreviations={"UA": "uric acid"})
    targets = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.operator, c.threshold) for c in targets] == values
    assert all(c.unit == "mmol/L" for c in targets)
    assert result.actions and {a.role for a in result.actions} == {"ClinicalParameter"}


@pytest.mark.parametrize(
    ("wording", "value"),
    [
        (
            "serum uric acid level should be brought down to 0.30–0.36 mmol/L",
            ("between", [0.3, 0.36]),
        ),
        ("serum uric acid level should be kept below 0.36 mmol/L", ("<", 0.36)),
        ("serum uric acid level should be lowered to below 0.36 mmol/L", ("<", 0.36)),
    ],
)
def test_a_quantity_named_in_several_words_lowered_below_a_value(  # type: ignore[no-untyped-def]
    lexicon, wording: str, value: tuple
) -> None:
    """ "serum uric acid level should be kept below N": the quantity may take several words
    and "below" (or "to below") is the target's bound; before, only a one-word quantity
    ("UA") was read so and "below" was lost, leaving the quantity as an act."""
    result = extract(lexicon, f"In adults with gout, {wording}.")
    targets = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.operator, c.threshold) for c in targets] == [value], result.concepts
    assert {a.role for a in result.actions} == {"ClinicalParameter"}, result.actions


@pytest.mark.parametrize("clause", ["if this fails", "if these are unsuccessful", "if it fails"])
def test_the_act_to_try_when_the_first_fails_is_an_act(lexicon, clause: str) -> None:  # type: ignore[no-untyped-def]
    """ "A and, if this fails, B": B is the next act to try, recommended like A; the failed
    first act is no state of the patients and B no background therapy."""
    result = extract(
        lexicon,
        f"Carotid massage and, {clause}, verapamil are advised for acute conversion of AVNRT.",
    )
    assert {a.normalized for a in result.actions} == {"carotid massage", "verapamil"}


@pytest.mark.parametrize(
    ("text", "aim", "who"),
    [
        (
            "Anticoagulation is advised to prevent stroke in atrial fibrillation.",
            "stroke",
            "atrial fibrillation",
        ),
        ("Statins are advised to reduce mortality in diabetes.", "mortality", "diabetes mellitus"),
    ],
)
def test_an_aim_pursued_in_a_disease_names_the_disease_apart(  # type: ignore[no-untyped-def]
    lexicon, text: str, aim: str, who: str
) -> None:
    """ "to prevent stroke in AF": the aim is the stroke; AF names the patients it is
    prevented in, a condition of its own, not part of the goal's name."""
    found = named(extract(lexicon, text))
    assert found[aim].role == "Outcome", found
    assert found[who].role == "Condition", found


def test_a_change_in_a_quantity_stays_one_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an increase in exercise capacity": what changes is part of the aim's name."""
    found = named(
        extract(lexicon, "Training is advised to achieve an increase in exercise capacity.")
    )
    assert "increase in exercise capacity" in found, found


def test_the_kind_of_prevention_is_no_event_prevented(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for long-term secondary prevention": "secondary" is the kind of prevention, not an
    event it prevents; the aim is secondary prevention ("for stroke prevention" still names
    the stroke)."""
    found = named(extract(lexicon, "Aspirin is advised for long-term secondary prevention."))
    assert "secondary prevention" in found and "secondary" not in found, found
    stroke = named(extract(lexicon, "Aspirin is advised for stroke prevention."))
    assert stroke["stroke"].role == "Outcome", stroke
