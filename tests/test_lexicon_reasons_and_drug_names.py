"""Why a recommendation is given (a harm list, "as they may provoke ..."), a drug named by
its biological or chaperone form, and "as an alternative" after a drug: read by rule, in the
team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize(
    ("text", "kept", "reasons"),
    [
        (
            "Sotalol is not recommended in adults with renal failure, owing to the risk of "
            "torsade de pointes and severe bradycardia.",
            "renal failure",
            {"torsade de pointes", "severe bradycardia"},
        ),
        (
            "Beta-blockers are not advised in acute asthma, as they may provoke bronchospasm "
            "and hypoxaemia.",
            "acute asthma",
            {"bronchospasm", "hypoxaemia"},
        ),
    ],
)
def test_every_harm_of_a_reason_is_left_out(
    lexicon, text: str, kept: str, reasons: set[str]
) -> None:  # type: ignore[no-untyped-def]
    """A reason lists what the act could cause; each harm of the list is why the advice is
    given, none is a state of the patients it is for (the last item after "and" included),
    while the patients named before the reason stay."""
    found = named(extract(lexicon, text))
    assert kept in found, found
    assert not reasons & set(found), found


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "Epoetin alfa may be considered in adults with anaemia of kidney disease.",
            "epoetin alfa",
        ),
        ("Migalastat may be considered in adults with Fabry disease.", "migalastat"),
        (
            "Enzyme replacement therapy may be considered in adults with Fabry disease.",
            "enzyme replacement therapy",
        ),
        ("Nicotine replacement is advised in smokers with CAD.", "nicotine replacement"),
    ],
)
def test_drugs_known_by_their_form_are_medication(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """A biological named "X alfa", an enzyme inhibitor or chaperone ending in -stat, and a
    substance given to replace what the body lacks ("nicotine / enzyme replacement") are
    drugs even when the terminology does not know them; a valve replacement stays surgery."""
    assert ("Medication", drug) in roles(extract(lexicon, text))
    valve = roles(extract(lexicon, "Valve replacement is advised in adults with severe AS."))
    assert ("Medication", "valve replacement") not in valve, valve


def test_as_an_alternative_is_no_part_of_the_drug_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with X as an alternative" says X is the other choice: the drug is named alone, as it
    is anywhere else in the row."""
    found = named(
        extract(
            lexicon,
            "In major bleeding on dabigatran, idarucizumab should be considered, with "
            "prothrombin complex concentrate as an alternative.",
        )
    )
    assert "prothrombin complex concentrate" in found, found
    assert not [n for n in found if "alternative" in n], found


def test_missing_evidence_given_as_the_reason_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ ", as no reduction in events has been shown": the evidence that is missing is why the
    advice is given; it is not a state of the patients."""
    found = named(
        extract(
            lexicon,
            "Starting a statin is not advised in adults on dialysis, as no reduction in "
            "cardiovascular events has been shown in this setting.",
        )
    )
    assert not [n for n in found if "reduction" in n], found
    assert "dialysis" in found, found


@pytest.mark.parametrize(
    ("text", "name", "span", "negated"),
    [
        (
            "Aspirin is advised instead of a DOAC, unless bleeding risk is high.",
            "high bleeding risk",
            "bleeding risk is high",
            True,
        ),
        (
            "Adding low-dose rivaroxaban should be considered in leg artery disease when"
            " bleeding risk is not high.",
            "high bleeding risk",
            "bleeding risk is not high",
            True,
        ),
        (
            "If natriuresis remains insufficient, adding a thiazide should be considered.",
            "insufficient natriuresis",
            "natriuresis remains insufficient",
            False,
        ),
        (
            "Exercise may be considered in adults with an ICD, provided no ventricular "
            "arrhythmia has been recorded in the last 3 months.",
            "ventricular arrhythmia",
            "ventricular arrhythmia",
            True,
        ),
    ],
)
def test_a_state_said_by_its_predicate_is_named_by_it(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, span: str, negated: bool
) -> None:
    """ "bleeding risk is high" is the state "high bleeding risk" (the span stays as printed,
    the name puts the grade first, as the golds do); "bleeding risk is not high" is that
    state, absent (before, the whole clause was a condition the patients have); "no
    arrhythmia has been recorded" is the arrhythmia, absent: the words saying it was recorded
    are no part of its name."""
    concept = named(extract(lexicon, text))[name]
    assert (concept.text, concept.negated) == (span, negated), concept
