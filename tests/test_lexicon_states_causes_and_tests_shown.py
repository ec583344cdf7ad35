"""A therapy's state wherever its clause stands, a cause ruled out or a state caused, and a
test named as an alternative with what it must show. Every sentence here is the team's own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "state", "negated"),
    [
        (
            "Ivabradine may be considered in adults in whom beta-blockers are contraindicated.",
            "contraindication to beta-blocker",
            False,
        ),
        (
            "Ivabradine may be considered in adults with a fast heart rate, or in whom "
            "beta-blockers are not tolerated.",
            "beta-blocker intolerance",
            False,
        ),
        (
            "Steroids are not advised for gout, except when NSAIDs are contraindicated.",
            "contraindication to non-steroidal anti-inflammatory drug",
            True,
        ),
    ],
)
def test_a_therapy_state_reads_alike_after_if_in_whom_or_except(
    lexicon, text: str, state: str, negated: bool
) -> None:  # type: ignore[no-untyped-def]
    """ "in whom X is contraindicated" says what "if X is contraindicated" says: the
    patients' state towards X is the condition (named as the contract names it), never a
    drug whose name ends in "are contraindicated"; after "except" it is negated."""
    found = named(extract(lexicon, text))
    assert found[state].role == "Condition" and found[state].negated is negated, found
    assert not [n for n in found if "contraindicated" in n or "tolerated" in n], found


def test_a_test_named_as_an_alternative_keeps_what_it_must_show_apart(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "anticoagulation, or a TOE showing no clot": the TOE is one of the acts, and the clot
    it must not find is a negated condition of that act only (outside the OR label)."""
    result = extract(
        lexicon,
        "Before cardioversion, anticoagulation or a TOE showing no atrial clot is advised.",
    )
    found = named(result)
    clot = found["atrial clot"]
    acts = [a.normalized for a in result.actions]
    assert "transesophageal echocardiography" in acts and "anticoagulation" in acts, acts
    assert clot.role == "Condition" and clot.negated and clot.or_group is None, found


def test_causes_ruled_out_are_negated_and_no_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "shock not caused by bleeding or sepsis": the patients are in shock without those
    causes, so each cause is negated (NOT(OR(...)), as for "without") and the shock is not."""
    found = named(
        extract(
            lexicon,
            "Thrombolysis is advised in adults with shock not caused by bleeding or sepsis.",
        )
    )
    assert not found["shock"].negated, found
    assert found["bleeding"].negated and found["sepsis"].negated, found
    assert found["bleeding"].or_group == found["sepsis"].or_group, found
    assert not [n for n in found if "caused" in n], found


def test_a_state_causing_another_gives_both(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an effusion causing hypotension": the patients have both states; "causing" joins
    them, it names neither."""
    found = named(extract(lexicon, "Drainage is advised in an effusion causing hypotension."))
    assert found["hypotension"].role == "Condition", found
    assert [n for n in found if "effusion" in n] and not [n for n in found if "causing" in n]
