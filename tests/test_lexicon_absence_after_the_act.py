""" "In the absence of X" right after the act, wherever the act stands: those without X; "have
no X" as the second half of a clause, "a negative family history of X", the examples of an
absent head, "who show neither A nor B", and such an absence inside "unless". Every sentence
here is the team's own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text",
    [
        "Ivabradine or digoxin in the absence of hypotension may be given to adults with HF.",
        "Digoxin may be given to adults with HF in the absence of hypotension.",
    ],
)
def test_an_absence_after_the_act_is_negated(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """The drug is for patients without hypotension whether the sentence names the drug
    first or last (the contract: "in the absence of X" gives X negated); it is no part of the
    drug."""
    result = extract(lexicon, text)
    found = named(result)
    assert found["hypotension"].role == "Condition" and found["hypotension"].negated, found
    assert "digoxin" in [a.normalized for a in result.actions], result.actions


@pytest.mark.parametrize(
    ("text", "had"),
    [
        ("Digoxin in the absence of AF and with sinus rhythm is not recommended.", "sinus rhythm"),
        (
            "Statins in the absence of ASCVD, but with diabetes, may be considered.",
            "diabetes mellitus",
        ),
    ],
)
def test_what_the_patients_do_have_after_the_absence_is_not_negated(
    lexicon, text: str, had: str
) -> None:  # type: ignore[no-untyped-def]
    """ "in the absence of A and with B": B is present; the absence does not reach it."""
    found = named(extract(lexicon, text))
    assert had in found and not found[had].negated, found


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        (
            "Brisk walking is advised in older adults who are fit and have no condition that"
            " limits their mobility.",
            "condition that limits their mobility",
        ),
        (
            "Genetic screening is advised in adults with aortic disease and a negative family"
            " history of dissection.",
            "family history of dissection",
        ),
    ],
)
def test_have_no_and_a_negative_family_history_name_what_is_absent(
    lexicon, text: str, absent: str
) -> None:  # type: ignore[no-untyped-def]
    """ "who are fit and have no X" (the verb kept on the second half of the clause) and "a
    negative family history of X" say X is absent: X, negated; before, "no X" and "negative
    family history of X" were conditions the patients have."""
    found = named(extract(lexicon, text))
    assert found[absent].negated, found


@pytest.mark.parametrize(
    ("text", "examples"),
    [
        (
            "Colchicine should be considered in coronary disease provided no interacting drugs"
            " (e.g. clarithromycin) are taken.",
            ["clarithromycin"],
        ),
        (
            "Stopping the beta-blocker may be considered in adults who have no other reason to"
            " take it, such as angina or hypertension.",
            ["angina", "hypertension"],
        ),
    ],
)
def test_the_examples_of_an_absent_head_are_absent(lexicon, text: str, examples: list[str]) -> None:  # type: ignore[no-untyped-def]
    """ "no interacting drugs (e.g. X)", "no other reason to take it, such as A or B": each
    example is one way the absent head could be present, so each is absent too; before, the
    examples were conditions (or drugs) the patients have."""
    found = named(extract(lexicon, text))
    for example in examples:
        assert found[example].negated, found


@pytest.mark.parametrize(
    "text",
    [
        "Return to sport may be considered in athletes who show neither scar nor complex"
        " arrhythmias.",
        "Statins are advised when an adult has neither diabetes nor kidney disease.",
    ],
)
def test_neither_a_nor_b_is_both_absent_with_one_or_label(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "who show / has neither A nor B": both absent, NOT(OR(A, B)) with one OR label as
    "without A or B" is read (the contract); before, "show neither A" was a condition, or the
    two absences had no label."""
    absent = [c for c in extract(lexicon, text).concepts if c.negated]
    assert len(absent) == 2, absent
    assert absent[0].or_group and absent[0].or_group == absent[1].or_group, absent


def test_an_absence_inside_unless_is_turned_round(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "continued unless the patient is in sinus rhythm and has no stroke risk factors": the
    row is for those not in sinus rhythm or with risk factors, so the risk factors are
    present, not absent (a first reading of "has no X" added a second negation instead of
    turning the first round)."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation should be continued unless the patient is in sinus rhythm and has"
            " no stroke risk factors.",
        )
    )
    assert found["sinus rhythm"].negated, found
    assert not found["stroke risk factor"].negated, found


@pytest.mark.parametrize(
    "text",
    [
        "Treatment with neither digoxin nor verapamil is advised in pre-excited AF.",
        "Aspirin is not advised in primary prevention, where it has no proven benefit.",
    ],
)
def test_neither_before_the_verb_and_has_no_benefit_are_no_absence(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """Guard: "Treatment with neither A nor B is advised" names the acts advised against, and
    "has no proven benefit" says what the act does not bring: no patient state is absent."""
    result = extract(lexicon, text)
    assert not [c for c in result.concepts if c.normalized.startswith("no ")], result.concepts
    assert not [c for c in result.concepts if c.negated and "benefit" in c.normalized], result


@pytest.mark.parametrize(
    "text",
    [
        "Neither aspirin nor clopidogrel is advised in adults with AF.",
        "Treatment with neither digoxin nor verapamil is advised in pre-excited AF.",
    ],
)
def test_neither_a_nor_b_advised_names_both_acts(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "Neither A nor B is advised" (a class III row): A and B are the acts advised against,
    the row's polarity says "not", so neither is an absent state; before, they were negated
    drugs (and the pipeline then added each a second time as the act), or "neither A" was a
    drug's name."""
    result = extract(lexicon, text)
    acts = [a for a in result.actions]
    assert len(acts) == 2 and not any(a.normalized.startswith("neither") for a in acts), acts
    assert not any(c.negated for c in result.concepts if c.role == "Medication"), result.concepts
