"""What a test shows, an absence inside one alternative, and clauses that end on a verb.
Every sentence here is the team's own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "finding", "test"),
    [
        (
            "Anticoagulation should be considered if echocardiography reveals a left "
            "ventricular thrombus.",
            "left ventricular thrombus",
            "echocardiography",
        ),
        (
            "An ICD may be considered if CMR shows extensive scar.",
            "extensive scar",
            "cardiac magnetic resonance",
        ),
        (
            "Brain imaging is recommended when clinical examination suggests a focal deficit.",
            "focal deficit",
            "clinical examination",
        ),
    ],
)
def test_what_a_test_shows_is_the_finding_and_the_test_is_background(
    lexicon, text: str, finding: str, test: str
) -> None:  # type: ignore[no-untyped-def]
    """ "if <test> shows X" says the same as "if X is seen on <test>": the condition is the
    finding; the test was done whatever it showed, so it is a background procedure, and
    "<test> shows X" is never one condition's name."""
    result = extract(lexicon, text)
    found = named(result)
    assert found[finding].role == "Condition" and not found[finding].negated, found
    assert found[test].role == "Procedure" and not found[test].negated, found
    assert test not in [a.normalized for a in result.actions], result.actions
    assert not [name for name in found if "show" in name or "reveal" in name], found


def test_findings_listed_after_a_colon_keep_the_test_apart(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when the ECG shows: A; B": the items are the findings, the test is no condition."""
    text = (
        "A loop recorder should be considered when the resting ECG shows: bifascicular block; "
        "sinus pauses of 3 s or more."
    )
    found = named(extract(lexicon, text))
    assert "bifascicular block" in found, found
    assert found["resting electrocardiogram"].role == "Procedure", found
    assert not [name for name in found if "show" in name], found


def test_an_absence_said_of_one_patient_group_stays_out_of_the_groups_or(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in patients with A without B, or with C": the patient groups are A and C; B is
    absent with A only (negated, no OR label)."""
    found = named(
        extract(
            lexicon,
            "Pacing is advised in adults with sinus node disease without a reversible cause, "
            "or with AV block.",
        )
    )
    assert found["reversible cause"].negated and found["reversible cause"].or_group is None
    assert found["sinus node disease"].or_group is not None, found
    assert found["sinus node disease"].or_group == found["av block"].or_group, found


@pytest.mark.parametrize(
    "text",
    [
        "Pacing should be considered if the ECG shows pre-excitation without structural heart "
        "disease, or a long QT interval.",
        "Pacing should be considered if the ECG shows pre-excitation in the absence of "
        "structural heart disease, or a long QT interval.",
    ],
)
def test_an_absence_inside_one_alternative_is_negated_outside_the_or_group(
    lexicon, text: str
) -> None:  # type: ignore[no-untyped-def]
    """ "A without B, or C": B is absent (negated, the contract's reading of "without"), but
    it is no third alternative beside A and C; A and C stay alternatives."""
    found = named(extract(lexicon, text))
    absent = found["structural heart disease"]
    assert absent.negated and absent.or_group is None, found
    assert found["pre-excitation"].or_group is not None, found
    assert found["pre-excitation"].or_group == found["long qt interval"].or_group, found
    assert not found["pre-excitation"].negated, found


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Repeat imaging is recommended if symptoms develop.", "symptom"),
        (
            "Pacing is recommended when pre-excitation occurs during exercise.",
            "pre-excitation during exercise",
        ),
        (
            "Amiodarone may be considered if atrial fibrillation recurs after ablation.",
            "recurrent atrial fibrillation",
        ),
        (
            "Diuretic escalation should be considered when breathlessness worsens.",
            "worsening breathlessness",
        ),
    ],
)
def test_a_clause_ending_on_its_verb_names_the_state(lexicon, text: str, state: str) -> None:  # type: ignore[no-untyped-def]
    """ "if symptoms develop": the condition is the symptoms; a verb that only says the state
    comes about is no part of its name (when it comes stays: "during exercise"), and one
    that says it comes back or gets worse is named as such ("recurrent", "worsening")."""
    found = named(extract(lexicon, text))
    assert state in found and found[state].role == "Condition", found
    verbs = {"develop", "develops", "occur", "occurs", "recur", "recurs", "worsen", "worsens"}
    assert not [name for name in found if verbs & set(name.split())], found
