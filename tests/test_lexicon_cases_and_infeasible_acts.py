"""How sure a case is ("in suspected cases of X"), an act that cannot be done ("if PCI
cannot be performed") and aims that speed or shorten something ("to hasten recovery"). Every
sentence here is the team's own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "Chemotherapy is recommended in confirmed cases of cardiac lymphoma.",
            "confirmed cardiac lymphoma",
        ),
        ("Biopsy is advised in suspected cases of sarcoidosis.", "suspected sarcoidosis"),
        ("Biopsy is advised in cases of suspected sarcoidosis.", "suspected sarcoidosis"),
    ],
)
def test_how_sure_a_case_is_belongs_to_the_disease(lexicon, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """ "in suspected cases of X" says X is suspected: one condition, "suspected X", as
    "in cases of suspected X" reads, never a bare "suspected"."""
    found = named(extract(lexicon, text))
    assert found[name].role == "Condition", found
    assert "suspected" not in found and "confirmed" not in found, found


def test_a_list_after_suspected_cases_keeps_its_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The cases listed after "suspected cases of" are alternatives, any one enough."""
    found = named(
        extract(
            lexicon,
            "Biopsy is advised in suspected cases of sarcoidosis, amyloidosis and lymphoma.",
        )
    )
    groups = {found[n].or_group for n in ("suspected sarcoidosis", "amyloidosis", "lymphoma")}
    assert len(groups) == 1 and None not in groups, found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "Emergency surgery should be considered in shock if PCI of the culprit artery cannot be performed.",
            "percutaneous coronary intervention of the culprit artery not feasible",
        ),
        (
            "A surgical window should be considered when pericardiocentesis cannot be performed.",
            "pericardiocentesis not feasible",
        ),
        (
            "Surgical ablation may be considered if catheter ablation cannot be done.",
            "catheter ablation not feasible",
        ),
    ],
)
def test_an_act_that_cannot_be_performed_is_a_state(lexicon, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """ "if X cannot be performed" selects the patients in whom X is not feasible (the
    contract: clausal states are Conditions); X is not recommended by it."""
    result = extract(lexicon, text)
    found = named(result)
    assert found[name].role == "Condition", found
    assert name.replace(" not feasible", "") not in [a.normalized for a in result.actions]


def test_a_state_that_cannot_be_tolerated_still_reads_so(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The older reading stays: a drug that cannot be tolerated is an intolerance."""
    found = named(extract(lexicon, "Ivabradine is advised if beta-blockers cannot be tolerated."))
    assert found["beta-blocker intolerance"].role == "Condition", found


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("Colchicine is advised in adults with myocarditis to hasten recovery.", "recovery"),
        (
            "Early mobilisation is advised after surgery to shorten the hospital stay.",
            "hospital stay",
        ),
        ("Diuretics are advised in congestion to accelerate decongestion.", "decongestion"),
    ],
)
def test_an_aim_to_speed_or_shorten_is_an_outcome(lexicon, text: str, outcome: str) -> None:  # type: ignore[no-untyped-def]
    """ "to hasten / accelerate / shorten X" names what the act is for, like "to reduce X":
    an Outcome, not part of the condition before it."""
    found = named(extract(lexicon, text))
    assert found[outcome].role == "Outcome", found
    assert not any("hasten" in n or "shorten" in n or "accelerate" in n for n in found), found


def test_two_certainties_of_the_cases_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in suspected or confirmed cases of X": suspected X or confirmed X, never a bare
    "suspected" beside them."""
    found = named(
        extract(lexicon, "CMR is advised in suspected or confirmed cases of myocarditis.")
    )
    assert {"suspected myocarditis", "confirmed myocarditis"} <= set(found), found
    assert found["suspected myocarditis"].or_group == found["confirmed myocarditis"].or_group


def test_shortening_right_after_the_framing_is_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended to shorten DAPT": shortening it is what is recommended, like "to
    reduce salt intake"; only after an act is "to shorten X" its aim."""
    result = extract(
        lexicon, "It is recommended to shorten DAPT to 1 month in adults at high bleeding risk."
    )
    assert any(a.normalized.startswith("shortening of") for a in result.actions), result.actions
