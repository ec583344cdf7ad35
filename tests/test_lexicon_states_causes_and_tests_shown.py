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


def test_a_therapy_state_as_one_alternative_of_a_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when beta-blockers are not tolerated or the rate stays high": the clause's "or"
    makes two alternatives, and the therapy's state is still named as a state."""
    found = named(
        extract(
            lexicon,
            "Ivabradine may be advised when beta-blockers are not tolerated or the heart rate "
            "stays high.",
        )
    )
    assert found["beta-blocker intolerance"].role == "Condition", found
    assert found["beta-blocker intolerance"].or_group is not None, found
    assert not [n for n in found if "tolerated" in n], found


def test_a_test_named_as_an_alternative_keeps_what_it_must_show_apart(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "anticoagulation, or a TOE showing no clot": the TOE is one of the acts, and the clot
    it must not find is a negated condition of that act only (outside the OR label)."""
    result = extract(
        lexicon,
        "Before cardioversion, anticoagulation or a TOE showing no atrial clot is advised.",
    )
    found = named(result)
    clot = found["atrial clot"]
    names = [c.normalized for c in result.concepts]
    assert names.count("transesophageal echocardiography") == 1, names  # no second, background TOE
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


def test_a_drug_combined_with_another_is_that_drug_given_with_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "aspirin combined with clopidogrel": aspirin, given with clopidogrel; "combined" is
    no part of the drug's name."""
    found = named(extract(lexicon, "Aspirin combined with clopidogrel is not advised in gout."))
    assert found["aspirin"].role == "Medication" and found["clopidogrel"].role == "Medication"
    assert not [n for n in found if "combined" in n], found


def test_a_referral_for_an_act_recommends_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "referral to an expert centre for ablation": what is recommended is the ablation,
    wherever it is done; a referral to a team, for nothing named, stays the act."""
    result = extract(
        lexicon, "Referral to an expert centre for ablation is advised in adults with recurrent VT."
    )
    assert [a.normalized for a in result.actions] == ["ablation"], result.actions
    result = extract(lexicon, "Referral to the vascular team is advised for limb salvage.")
    assert any("referral" in a.normalized for a in result.actions), result.actions


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Steroids are advised when giant cell arteritis is strongly suspected.",
            "suspected giant cell arteritis",
        ),
        ("Amiodarone may be considered if flutter recurs.", "recurrent flutter"),
    ],
)
def test_a_state_said_by_its_clause_is_named_as_such(lexicon, text: str, state: str) -> None:  # type: ignore[no-untyped-def]
    """ "when X is strongly suspected" names suspected X, "if X recurs" recurrent X; a
    clause with more in it than a short name ("a diuretic added if congestion worsens") is
    never renamed so."""
    found = named(extract(lexicon, text))
    assert found[state].role == "Condition", found
    found = named(
        extract(
            lexicon, "An SGLT2 inhibitor is advised, with a diuretic added if congestion worsens."
        )
    )
    assert not [n for n in found if n.startswith("worsening") and "diuretic" in n], found


def test_look_alikes_of_these_readings_are_left_alone(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Found by a review's own look-alikes: "drugs causing bradycardia" names a kind of
    drug (the bradycardia is no act of its own), "referral for further evaluation" is the
    act itself, "symptoms that develop" keeps its verb, "studies demonstrating benefit" are
    no test of the patient, and a dose titrated to response sets no target."""
    result = extract(
        lexicon, "Drugs causing bradycardia should be withdrawn in adults with AV block."
    )
    assert "bradycardia" not in [a.normalized for a in result.actions], result.actions
    result = extract(
        lexicon, "Referral for further evaluation is advised in adults with an abnormal ECG."
    )
    assert [a.normalized for a in result.actions] == ["referral for further evaluation"]
    found = named(
        extract(
            lexicon, "Symptoms that develop during exercise should be assessed with a stress test."
        )
    )
    assert not [n for n in found if "that during" in n], found
    found = named(
        extract(
            lexicon,
            "Studies demonstrating benefit of statins support their use in adults with CAD.",
        )
    )
    assert "study" not in found and "studies" not in found, found
    found = named(extract(lexicon, "Dose titrated to response is advised for loop diuretics."))
    assert "response" not in found, found
