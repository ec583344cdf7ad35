"""Acts named plainly: "history" named as something done (one item of an evaluation,
"including history, physical examination and ECG", or the act advised), as against the
history of a disease a patient has; an act the patients undergo read apart from the disease
it is for; a drug taken just before an event named without "taken" or "immediately"; a
named therapy's "strategy" as the therapy; a therapy of a disease as the therapy and the
disease. In the team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract


def test_history_listed_with_examinations_is_history_taking(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A bare "history" beside a physical examination and an ECG is taking the history:
    one of the acts the evaluation consists of."""
    result = extract(
        lexicon,
        "A baseline review including history, physical examination, and ECG is advised in"
        " adult survivors.",
    )
    (taking,) = [c for c in result.concepts if "history" in c.normalized]
    assert (taking.role, taking.normalized) == ("Procedure", "history taking"), taking


def test_the_act_advised_can_be_a_history(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an accurate history and clinical examination are advised", "assess the medical
    history": the history is taken, never measured."""
    for sentence, name in (
        ("Before surgery, an accurate history and clinical examination are advised.", "history"),
        ("It is advised to assess medical history and symptoms in adults with gout.", "medical"),
    ):
        result = extract(lexicon, sentence)
        (taking,) = [c for c in result.concepts if "history" in c.normalized]
        assert taking.role == "Procedure" and taking.normalized.endswith("history taking"), (
            sentence,
            taking,
        )
        assert name in taking.normalized


def test_a_history_of_a_disease_stays_a_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults with a history of stroke": a past the patient has, a condition."""
    result = extract(lexicon, "Statins are advised in adults with a history of stroke.")
    (past,) = [c for c in result.concepts if "history" in c.normalized]
    assert past.role == "Condition", past


def test_an_act_the_patients_undergo_is_read_apart_from_its_disease(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults undergoing surgery for mitral valve disease", "after stenting for acute
    myocardial infarction": the act the patients have and the disease it is for are two
    concepts, as in the recommended act's "surgery for X"."""
    for sentence, act, disease in (
        (
            "In adults undergoing surgery for mitral valve disease who have angina, bypass"
            " grafting is advised.",
            "surgery",
            "mitral valve disease",
        ),
        (
            "After stenting for acute myocardial infarction, a rehabilitation programme is"
            " advised.",
            "stenting",
            "acute myocardial infarction",
        ),
    ):
        found = {c.normalized: c.role for c in extract(lexicon, sentence).concepts}
        assert found.get(act) == "Procedure" and found.get(disease) == "Condition", (
            sentence,
            found,
        )


def test_a_drug_taken_just_before_an_event_is_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "have taken metformin immediately before angiography", "received clopidogrel shortly
    before surgery": the drug, without the verb saying it was taken or the word saying how
    close to the event."""
    for sentence, drug in (
        (
            "It is advised to check renal function if adults have taken metformin immediately"
            " before angiography.",
            "metformin",
        ),
        (
            "Aspirin is advised in adults who received clopidogrel shortly before surgery.",
            "clopidogrel",
        ),
    ):
        found = [c for c in extract(lexicon, sentence).concepts if drug in c.normalized]
        assert [c.text for c in found] == [drug], (sentence, found)


def test_a_background_act_is_read_apart_from_its_disease(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults treated with stenting for an acute MI": as after "undergoing", the act they
    had and the disease it was for; "on treatment for cancer" names one therapy."""
    found = {
        c.normalized: c.role
        for c in extract(
            lexicon,
            "A shorter course is advised in adults treated with stenting for an acute myocardial"
            " infarction.",
        ).concepts
    }
    assert found.get("stenting") == "Procedure", found
    assert found.get("acute myocardial infarction") == "Condition", found
    therapy = extract(
        lexicon, "Screening for diabetes is advised in adults on treatment for cancer."
    ).concepts
    assert not [c for c in therapy if c.normalized == "cancer" and c.role == "Condition"], therapy


def test_a_named_therapy_strategy_is_the_therapy(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a short DAPT strategy": the therapy named is the act (a drug regimen), the word
    "strategy" only frames it; an adjective before it ("an invasive strategy") is no name."""
    result = extract(lexicon, "A short DAPT strategy is advised in adults at high bleeding risk.")
    (act,) = result.actions
    assert (act.text, act.role) == ("short DAPT", "Medication"), act
    invasive = extract(lexicon, "An early invasive strategy is advised in adults with angina.")
    assert [a.text for a in invasive.actions] == ["early invasive strategy"], invasive.actions


def test_a_therapy_of_a_disease_is_the_therapy_and_the_disease(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "medical therapy of tuberculous pericarditis", "management of acute myocarditis": the
    therapy named by the disease it treats is the therapy, and the disease a condition, as
    in "surgery for X"; a generic object ("treatment of risk factors") keeps the phrase."""
    found = {
        c.normalized: c.role
        for c in extract(
            lexicon,
            "Medical therapy of tuberculous pericarditis is advised to prevent constriction.",
        ).concepts
    }
    assert found.get("medical therapy") == "Medication", found
    assert found.get("tuberculous pericarditis") == "Condition", found
    generic = {
        c.normalized
        for c in extract(
            lexicon, "Optimal treatment of risk factors (e.g. smoking) is advised in all adults."
        ).concepts
    }
    assert "risk factor" not in generic, generic
