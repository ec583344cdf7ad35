"""A state that goes on under a therapy, read by rule in the team's own sentences: "when
breathlessness persists despite loop diuretics" is the condition "persistent breathlessness",
and the diuretics are what the patient is already on; before, the clause was one concept
("breathlessness persists on loop diuretics") or the verb was left as a concept of its own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text,state,therapy",
    [
        (
            "Adding spironolactone may be considered when oedema persists on loop diuretics.",
            "persistent oedema",
            "loop diuretic",
        ),
        (
            "Cilostazol may be considered in patients with claudication whose pain persists "
            "despite supervised exercise training.",
            "persistent pain",
            "supervised exercise training",
        ),
    ],
)
def test_a_state_that_persists_under_a_therapy_is_a_persistent_condition(
    lexicon, text: str, state: str, therapy: str
) -> None:  # type: ignore[no-untyped-def]
    result = extract(lexicon, text)
    found = named(result)
    assert found[state].role == "Condition", found
    assert found[therapy].role in ("Medication", "Procedure"), found
    assert therapy not in [a.normalized for a in result.actions], result.actions


@pytest.mark.parametrize(
    "text,state",
    [
        (
            "Rate control is recommended when AF persists after cardioversion.",
            "atrial fibrillation",
        ),
        ("Stress imaging is recommended if chest pain persists on exertion.", None),
    ],
)
def test_persisting_is_not_a_kind_and_an_effort_is_no_therapy(
    lexicon, text: str, state: str | None
) -> None:  # type: ignore[no-untyped-def]
    """Guards: "AF persists" is AF still present, not "persistent AF" (a kind of AF of its
    own, a name the terminology holds); "persists on exertion" says where the pain is seen,
    and exertion is no therapy the patient is on."""
    found = named(extract(lexicon, text))
    if state:
        assert state in found and f"persistent {state}" not in found, found
    assert not any(c.role == "Medication" for c in found.values()), found


def test_the_verb_left_by_a_measure_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when NYHA class III symptoms persist": the class is a parameter; "persist" alone
    names nothing (before, it was a condition)."""
    found = named(
        extract(
            lexicon,
            "A myosin inhibitor may be considered when NYHA class III symptoms persist "
            "despite a beta-blocker.",
        )
    )
    assert found["new york heart association class"].role == "ClinicalParameter", found
    assert not any("persist" in name for name in found), found


def test_a_relative_clause_keeps_its_disease(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "AF that persists after cardioversion" names AF; the relative word never
    becomes part of a "persistent …" name."""
    found = named(
        extract(
            lexicon,
            "Ablation should be considered in patients with AF that persists after cardioversion.",
        )
    )
    assert "atrial fibrillation" in found, found
    assert not any(name.endswith("that") for name in found), found
