"""A sentence that opens with its aim and names its act as a list: "To evaluate X,
measurement of A, B, and C is recommended". In the team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract


def test_an_aim_lead_ends_before_a_listed_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The last comma before the verb belongs to the list of what is measured; the aim ends
    where "measurement of" starts the subject, so every item measured is an act."""
    result = extract(
        lexicon,
        "To evaluate for kidney damage, measurement of serum creatinine, urea, potassium, and"
        " uric acid is advised for all adults with hypertension.",
    )
    acts = {a.normalized for a in result.actions}
    assert {"urea", "potassium", "uric acid"} <= {a.split(" measurement")[0] for a in acts}, acts
    assert any("creatinine" in a for a in acts), acts


def test_an_aim_listing_its_own_items_keeps_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "To reduce stroke, MI, and death, a statin is advised": the list is the aim's; the act
    after the last comma is the statin alone."""
    result = extract(lexicon, "To reduce stroke, MI, and death, a statin is advised in adults.")
    assert [a.normalized for a in result.actions] == ["statin"], result.actions
