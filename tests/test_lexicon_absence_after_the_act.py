""" "In the absence of X" right after the act, wherever the act stands: those without X.
Every sentence here is the team's own.
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
