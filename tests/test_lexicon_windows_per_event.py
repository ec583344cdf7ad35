"""A wait counted from each of several events, read by rule in the team's own sentences:
"4 weeks after a TAVI and 3 months after an MI" gives each event its own wait, so the events
are the alternatives a patient may have had (one OR label), whatever joins the pairs.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text,events",
    [
        (
            "Elective hernia repair should be deferred until 4 weeks after TAVI and 3 months "
            "after a myocardial infarction.",
            ["transcatheter aortic valve implantation", "myocardial infarction"],
        ),
        (
            "Restarting heavy lifting may be considered at least 2 weeks after pacemaker "
            "implantation, at least 6 weeks after sternotomy, and at least 8 weeks after "
            "heart transplantation.",
            ["pacemaker implantation", "sternotomy", "heart transplantation"],
        ),
        (
            "Postpone dental surgery for at least 3 months after elective stenting, and for "
            "6 months after a stroke, when possible.",
            ["elective stenting", "stroke"],
        ),
    ],
)
def test_events_each_with_its_own_wait_are_alternatives(lexicon, text: str, events: list) -> None:  # type: ignore[no-untyped-def]
    """Before, the events were conditions every patient had to meet together (no label)."""
    found = named(extract(lexicon, text))
    labels = {found[event].or_group for event in events}
    assert len(labels) == 1 and None not in labels, found


def test_one_wait_after_one_event_and_a_wait_without_one_group_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "3 months after ablation and a check at 12 months" has one event only; the
    ablation and the check keep no label."""
    result = extract(
        lexicon,
        "Rhythm monitoring is recommended 3 months after catheter ablation and Holter "
        "monitoring at 12 months.",
    )
    assert all(c.or_group is None for c in result.concepts), result.concepts


def test_the_same_event_twice_is_no_alternative_to_itself(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "1 month after surgery and again 12 months after surgery" names one event."""
    result = extract(
        lexicon,
        "Echocardiography is recommended 1 month after valve surgery and 12 months after "
        "valve surgery.",
    )
    assert all(c.or_group is None for c in result.concepts), result.concepts
