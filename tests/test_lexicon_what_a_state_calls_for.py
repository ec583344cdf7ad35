"""A state of the patients and the therapy or procedure it calls for ("AF requiring
anticoagulation"), a state they go on to have, the therapy they are on already, and the
team or rank that goes with an act. Every sentence here is the team's own; each names the
phrasing it stands for.
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


def test_a_state_developing_in_a_named_group_is_a_second_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults with gout developing kidney stones": the patients have gout and go on to
    have the stones, two states (like "who develop"); right after the patients it is their
    state as written."""
    found = named(
        extract(
            lexicon,
            "Hydration is advised in adults with gout developing kidney stones during therapy.",
        )
    )
    assert found["gout"].role == "Condition"
    assert found["kidney stone"].role == "Condition"


def test_pre_treated_with_is_treated_with(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "pre-treated with X": the patients are on X already, X their background therapy; the
    prefix names nothing of its own."""
    result = extract(
        lexicon, "Heparin should be considered in adults pre-treated with oral warfarin."
    )
    assert not any(c.text.strip("- ") in ("pre", "") for c in result.concepts), result.concepts
    assert "oral warfarin" in {c.text for c in result.concepts if c.role == "Medication"}


def test_a_team_including_its_members_is_one_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a vascular team including a neurologist": who is in the team is part of its name,
    not an example of an act (the neurologist had become a drug)."""
    result = extract(
        lexicon,
        "It is recommended that adults with stroke are assessed by a heart team including a "
        "neurologist.",
    )
    acts = [c for c in result.concepts if c.role in ("Procedure", "Medication")]
    assert [c.text for c in acts] == ["heart team including a neurologist"], acts


def test_first_line_imaging_is_the_acts_rank(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X as first-line imaging": the rank says how X is used, like "as first-line therapy";
    the act is X."""
    result = extract(
        lexicon, "It is advised to use ultrasound as first-line imaging to diagnose gallstones."
    )
    assert [a.normalized for a in result.actions] == ["ultrasound"]


def test_a_need_denied_is_negated(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults with flutter not requiring anticoagulation": the therapy is NOT called for;
    read as "requiring" alone it said the patients were on it."""
    found = named(
        extract(lexicon, "Review is advised in adults with flutter not requiring anticoagulation.")
    )
    assert found["flutter"].role == "Condition"
    assert found["anticoagulation"].negated is True


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        (
            "Transfusion is advised in adults with bleeding requiring surgery.",
            "bleeding requiring surgery",
        ),
        (
            "Aspirin is advised in women at high risk of developing pre-eclampsia.",
            "high risk of developing pre-eclampsia",
        ),
        (
            "Vaccination is advised in adults living in developing countries.",
            "developing country",
        ),
    ],
)
def test_a_need_or_a_development_that_qualifies_stays_in_its_name(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    whole: str,
) -> None:
    """ "bleeding requiring surgery" is how severe the bleeding is, "the risk of developing
    X" a risk (the patients do not have X), "developing countries" an adjective: none is a
    state and what it calls for."""
    names = {c.normalized for c in extract(lexicon, text).concepts}
    assert whole in names, names


def test_a_lead_in_and_a_duration_only_around_a_therapy(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Prolongation of the procedure should be avoided": the prolongation is what is
    avoided, kept (only before a therapy is "prolongation of" a lead-in); "symptoms
    persisting beyond 3 months" is how long a state lasts, the state's duration (a
    criterion, as the golds read it), not a therapy's duration to drop; "As first-line
    imaging, X is advised" still names X."""
    result = extract(
        lexicon, "Prolongation of the ablation procedure should be avoided in adults with HF."
    )
    assert any("prolongation" in a.normalized for a in result.actions), result.actions
    names = {
        c.normalized
        for c in extract(
            lexicon,
            "Echocardiography is advised in adults with symptoms persisting beyond 3 months.",
        ).concepts
    }
    assert {"symptom duration", "symptom"} <= names, names
    result = extract(lexicon, "As first-line imaging, ultrasound is advised in adults with gout.")
    assert [a.normalized for a in result.actions] == ["ultrasound"]


@pytest.mark.parametrize(
    "text",
    [
        "Review is advised in adults with flutter undergoing rate control.",
        "Review is advised in adults with flutter requiring rate control.",
    ],
)
def test_what_the_patients_undergo_is_done_even_when_unknown(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "undergoing / requiring rate control": what follows is something done to the
    patients, a Procedure, even where the terminology does not know it (it had been read as
    a state they have)."""
    found = named(extract(lexicon, text))
    assert found["rate control"].role == "Procedure"


def test_a_need_kept_whole_stays_the_patients_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults with flutter in need of a pacemaker": the need is read whole as their state
    ("requirement for pacemaker"), which the rule above leaves a Condition."""
    found = named(
        extract(lexicon, "Pacing is advised in adults with flutter in need of a pacemaker.")
    )
    assert found["requirement for pacemaker"].role == "Condition", found
