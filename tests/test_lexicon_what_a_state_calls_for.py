"""A state of the patients and the therapy or procedure it calls for ("AF requiring
anticoagulation"). Every sentence here is the team's own; each names the phrasing it stands
for.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "state", "called_for", "role"),
    [
        (
            "Rate control is advised in adults with flutter requiring anticoagulation.",
            "flutter",
            "anticoagulation",
            "Medication",
        ),
        (
            "Hydration is advised in adults with kidney disease needing contrast imaging.",
            "kidney disease",
            "contrast imaging",
            "Procedure",
        ),
        (
            "Close review is advised in adults with gout in need of colchicine.",
            "gout",
            "colchicine",
            "Medication",
        ),
    ],
)
def test_a_state_and_what_it_calls_for_are_two_concepts(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    state: str,
    called_for: str,
    role: str,
) -> None:
    """ "X requiring / needing / in need of Y": X is what the patients have, Y the therapy or
    procedure X calls for, each named by its own head; read as one name, the state took the
    role of the therapy ("AF requiring anticoagulation" as a Medication)."""
    found = named(extract(lexicon, text))
    assert found[state].role == "Condition"
    assert found[called_for].role == role


def test_a_need_right_after_the_patients_is_their_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients requiring pacing": nothing is named before the need, so the need itself is
    what the patients have."""
    found = named(extract(lexicon, "Review is advised in adults requiring urgent pacing."))
    (state,) = [c for c in found.values() if c.role == "Condition" and "pacing" in c.normalized]
    assert "requir" in state.normalized
