"""Narrowings after two reviews of the session's rules, each in the team's own sentences:
a topic only after a choice is named, "when to" read as a question with its verb left out,
subjects that point back, a thing tried that the names alone would call a condition, a
state clause joined to another by "and", what a test grades kept in its own role; a result
clause ending at its comma, a setting followed by a clause of its own, a count that is no
volume, and a second group's threshold read apart from what the first phrase defines.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract


def test_a_sentence_opening_with_regarding_keeps_its_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Regarding the timing of valve surgery, early repair is advised": the opening names
    the subject matter of the row, not an act the row is about; early repair stays the act."""
    result = extract(
        lexicon,
        "Regarding the timing of valve surgery, early repair is advised in adults with severe"
        " mitral regurgitation.",
    )
    assert "early repair" in {a.normalized for a in result.actions}, result.actions


def test_when_to_leaves_its_verb_out_of_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Guidance on when to pause warfarin": the drug is warfarin; "to pause" says what the
    guidance is about and names nothing."""
    result = extract(
        lexicon, "Guidance on when to pause warfarin before dental surgery is advised."
    )
    drugs = [c for c in result.concepts if c.role == "Medication"]
    assert [d.text for d in drugs] == ["warfarin"], drugs
    assert [a.normalized for a in result.actions] == ["guidance"], result.actions


def test_two_things_tried_both_stay_named(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If cardioversion and amiodarone have failed or are contraindicated": both were
    tried; the failure and the contraindication name both, and neither loses its name."""
    result = extract(
        lexicon,
        "If cardioversion and amiodarone have failed or are contraindicated, rate control is"
        " advised.",
    )
    names = {c.normalized for c in result.concepts}
    assert {"cardioversion", "amiodarone"} <= names, names
    assert any(n.startswith("failure of") and "cardioversion" in n for n in names), names


def test_one_state_of_two_alternatives_names_both(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when beta-blockers or nitrates are contraindicated": the drugs stay clean names and
    the contraindication is a condition of its own, not glued to the second drug."""
    result = extract(lexicon, "Verapamil, when beta-blockers or nitrates are contraindicated.")
    drugs = {c.text for c in result.concepts if c.role == "Medication"}
    assert {"beta-blockers", "nitrates"} <= drugs, drugs
    assert any(
        c.role == "Condition" and c.normalized.startswith("contraindication to")
        for c in result.concepts
    ), result.concepts


def test_a_state_clause_after_and_is_read_on_its_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if the heart rate stays high and beta-blockers are contraindicated": two clauses,
    both to hold; the second is the drug's contraindication, and the first is not folded
    into the drug's name."""
    result = extract(
        lexicon, "Digoxin, if the heart rate stays high and beta-blockers are contraindicated."
    )
    conditions = {c.normalized for c in result.concepts if c.role == "Condition"}
    assert "contraindication to beta-blocker" in conditions, conditions
    assert not [
        c for c in result.concepts if c.role == "Medication" and "contraindicated" in c.text
    ]


def test_a_subject_that_points_back_makes_no_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when such drugs are ineffective or contraindicated": the drugs are named elsewhere;
    no condition is named after "such drugs"."""
    result = extract(
        lexicon, "Ivabradine is advised when such drugs are ineffective or contraindicated."
    )
    assert not [c for c in result.concepts if "such drug" in c.normalized], result.concepts


def test_what_a_test_grades_keeps_a_measure_a_measure(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to assess the severity of valve narrowing and the contractile reserve": the
    narrowing is a condition, the reserve a measured quantity, as it was before; "disease"
    alone names nothing to grade."""
    result = extract(
        lexicon,
        "Stress imaging is advised to assess the severity of valve narrowing and the"
        " contractile reserve.",
    )
    roles = {c.normalized: c.role for c in result.concepts}
    assert roles.get("contractile reserve") == "ClinicalParameter", roles
    assert roles.get("valve narrowing") == "Condition", roles
    bare = extract(lexicon, "Imaging is advised to assess the severity of disease.")
    assert not [c for c in bare.concepts if c.role == "Condition"], bare.concepts


def test_a_result_clause_ends_at_its_comma(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If INR is high, so that bleeding is more likely, vitamin K should be given": the
    result clause ends at its comma; the act after it is the row's."""
    result = extract(
        lexicon, "If INR is high, so that bleeding is more likely, vitamin K should be given."
    )
    assert [a.normalized for a in result.actions] == ["vitamin k"], result.actions


def test_a_setting_followed_by_a_clause_of_its_own_keeps_that_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… by trained operators and antibiotic cover is advised": who does the first act is a
    setting, but "and" opens a clause with its own verb, read as the row's."""
    result = extract(
        lexicon,
        "Lead extraction should be performed by trained operators and antibiotic prophylaxis"
        " is advised.",
    )
    assert any("antibiotic prophylaxis" in c.normalized for c in result.concepts), result.concepts


def test_a_count_told_is_no_volume(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who have had 2 procedures": how many the patient had, with no bound to meet, is no
    volume criterion."""
    result = extract(
        lexicon,
        "Closer follow-up is advised in adults who have undergone 2 procedures on the aorta.",
    )
    assert not [c for c in result.concepts if c.unit == "procedures"], result.concepts


def test_a_second_groups_threshold_is_not_what_the_first_defines(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Anaemia is defined as Hb <13 g/dL in men or <12 g/dL in women": the women's value is
    an Hb threshold of its own, not an alternative to what the first phrase defines."""
    result = extract(
        lexicon, "Iron studies are advised if Hb is <13 g/dL in men or <12 g/dL in women."
    )
    values = sorted(
        (c.normalized, c.threshold, c.or_group)
        for c in result.concepts
        if c.role == "ClinicalParameter"
    )
    assert [(n, t) for n, t, _ in values] == [("hb", 12.0), ("hb", 13.0)], values
