"""Imperative rows whose verb names the act, read by rule in the team's own sentences:
"Implant a pacemaker in …", "Refer patients after X to Y", "Do not close a defect in …" are
the rows "It is (not) recommended to implant / refer / close …", and are named so; before, the
verb stayed in the act's name ("implant a permanent pacemaker") or was an act of its own
("refer"). Choosing verbs ("Choose X", "Select X") and "Prefer X to Y" too.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text,act,condition",
    [
        (
            "Implant a dual-chamber pacemaker in patients with symptomatic sinus node disease.",
            "dual-chamber pacemaker",
            "symptomatic sinus node disease",
        ),
        (
            "Refer patients with suspected cardiac amyloidosis to a specialised centre.",
            "referral to a specialised centre",
            "suspected cardiac amyloidosis",
        ),
    ],
)
def test_an_imperative_verb_is_read_as_the_recommended_act(
    lexicon, text: str, act: str, condition: str
) -> None:  # type: ignore[no-untyped-def]
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert named(result)[condition].role == "Condition", result.concepts


def test_do_not_with_an_act_verb_is_advice_against_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Do not close a ventricular septal defect in …": before, the whole imperative was one
    condition."""
    result = extract(
        lexicon, "Do not close a ventricular septal defect in patients with Eisenmenger syndrome."
    )
    assert len(result.actions) == 1, result.actions
    act = result.actions[0].normalized
    assert "ventricular septal defect" in act and not act.startswith("do not"), act
    assert named(result)["eisenmenger syndrome"].role == "Condition", result.concepts


def test_a_row_with_a_verb_of_its_own_reads_as_before(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "Repair of X is recommended" has its own verb: the act noun stays the act, never
    "It is recommended to repair of …"."""
    result = extract(
        lexicon, "Repair of aortic coarctation is recommended in adults with hypertension."
    )
    assert [a.normalized for a in result.actions] == ["repair of aortic coarctation"], result


def test_screen_as_an_imperative_names_the_screening(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Screen patients aged 65 or more for AF": the act is the screening (before: no act,
    and "screen" a condition)."""
    result = extract(lexicon, "Screen patients aged 65 years or more for atrial fibrillation.")
    assert [a.normalized for a in result.actions] == ["screening"], result.actions
    assert "screen" not in named(result), result.concepts


@pytest.mark.parametrize("verb", ["prescribe", "insert"])
def test_do_not_prescribe_or_insert_is_advice_against_the_object(lexicon, verb: str) -> None:  # type: ignore[no-untyped-def]
    """ "Do not prescribe X", "Do not insert X": X is what is advised against; before, the
    imperative stayed in the act's name ("do not prescribe …")."""
    result = extract(lexicon, f"Do not {verb} a loop diuretic in patients with hypovolaemia.")
    assert result.actions and not result.actions[0].normalized.startswith("do not"), result.actions


@pytest.mark.parametrize(
    "text,act,people",
    [
        (
            "Offer an influenza vaccination to all older people with diabetes.",
            "influenza vaccination",
            "diabetes mellitus",
        ),
        (
            "Do not prescribe hormone replacement therapy to postmenopausal women with a "
            "previous venous thromboembolism.",
            "hormone replacement therapy",
            "previous venous thromboembolism",
        ),
    ],
)
def test_the_people_an_imperative_gives_to_are_its_cohort(
    lexicon, text: str, act: str, people: str
) -> None:  # type: ignore[no-untyped-def]
    """ "Offer X to all adults with Y", "Do not prescribe X to women with Y": the people given
    to are who the act is for, like "in patients with Y" (before, "to all adults" stayed in the
    act's name)."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert named(result)[people].role == "Condition", result.concepts


@pytest.mark.parametrize(
    "text,outcome",
    [
        (
            "Offer cardiac rehabilitation to improve patients' exercise capacity.",
            "patients' exercise capacity",
        ),
        ("Offer a supervised walking programme to help patients walk further.", None),
    ],
)
def test_a_purpose_naming_patients_is_no_recipient(lexicon, text: str, outcome: str | None) -> None:  # type: ignore[no-untyped-def]
    """Guard: "Offer X to improve patients' capacity": "to" opens the act's goal; the patients
    named in it are not whom the act is given to (no condition "improve")."""
    found = named(extract(lexicon, text))
    assert not any(name in ("improve", "help", "patient") for name in found), found
    if outcome:
        assert found[outcome].role == "Outcome", found


def test_referral_to_a_place_is_no_recipient(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "Offer referral to a specialist centre to patients with X": the centre stays in
    the act; only the people after it are the cohort."""
    result = extract(
        lexicon, "Offer referral to a specialist centre to patients with suspected amyloidosis."
    )
    assert [a.normalized for a in result.actions] == ["referral to a specialist centre"]
    assert named(result)["suspected amyloidosis"].role == "Condition", result.concepts


def test_a_purpose_before_an_imperative_is_its_outcome(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "To cut readmissions, consider giving X in …": the purpose opening the row is the
    act's goal, as it is after the act (before, with the imperative behind it, both the
    purpose and "consider giving X" were acts)."""
    result = extract(
        lexicon,
        "To cut hospital admissions, consider giving torasemide in patients with chronic "
        "heart failure and congestion.",
    )
    assert [a.normalized for a in result.actions] == ["torasemide"], result.actions
    found = named(result)
    assert found["hospital admission"].role == "Outcome", found
    assert found["chronic heart failure"].role == "Condition", found


def test_a_prescribing_gerund_names_only_the_drugs(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Prescribing either A or B is recommended": the gerund and "either" frame the act
    (before, "prescribing either A" was the first drug's name)."""
    result = extract(
        lexicon,
        "Prescribing either bisoprolol or carvedilol is recommended in patients with HFrEF.",
    )
    assert sorted(a.normalized for a in result.actions) == ["bisoprolol", "carvedilol"]


@pytest.mark.parametrize(
    ("text", "act", "condition"),
    [
        (
            "Choose a DOAC for patients with AF who have no mechanical valve.",
            "direct oral anticoagulant",
            "atrial fibrillation",
        ),
        (
            "Select radial access in patients undergoing coronary angiography.",
            "radial access",
            None,
        ),
    ],
)
def test_a_choosing_verb_is_taken_off_its_act(lexicon, text: str, act: str, condition) -> None:  # type: ignore[no-untyped-def]
    """ "Choose X for …", "Select X in …": the verb recommends what it picks, like "Use X";
    before, the verb stayed in the act's name ("choose a direct oral anticoagulant")."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    if condition:
        assert named(result)[condition].role == "Condition", result.concepts


@pytest.mark.parametrize(
    ("text", "act", "comparator"),
    [
        ("Prefer apixaban to warfarin in patients with AF and CKD.", "apixaban", "warfarin"),
        (
            "Prefer switching to a DOAC over continuing a VKA in adults with AF.",
            "direct oral anticoagulant",
            "vitamin k antagonist",
        ),
    ],
)
def test_prefer_x_to_y_names_x_and_its_comparator(
    lexicon, text: str, act: str, comparator: str
) -> None:  # type: ignore[no-untyped-def]
    """ "Prefer X to Y in …", "Prefer X over Y" say what "X is preferred over Y" says: X is
    the act, Y its comparator (and "over" marks it even after a "to" inside X); before, the
    whole "prefer X to Y" was one drug."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert named(result)[comparator].role == "Medication", result.concepts


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Prefer a loop diuretic to relieve congestion in acute HF.", "loop diuretic"),
        ("Favour apixaban in older adults who are prone to falls.", "apixaban"),
    ],
)
def test_prefer_with_no_comparator_names_its_act(lexicon, text: str, act: str) -> None:  # type: ignore[no-untyped-def]
    """ "Prefer X to relieve Y" ("to" opens a purpose) names no comparator: the verb is taken
    off like "Use X"; before, "prefer" stayed in the act's name."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert not any("relieve" in c.normalized for c in result.concepts), result.concepts


def test_a_to_after_the_patients_is_no_comparator(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "Prefer a DOAC in adults with AF who are referred to cardioversion": the act ends
    before its patients, so "to cardioversion" is no comparator and "referred" no state."""
    result = extract(lexicon, "Prefer a DOAC in adults with AF who are referred to cardioversion.")
    assert [a.normalized for a in result.actions] == ["direct oral anticoagulant"], result
    assert "referred" not in named(result), result.concepts
