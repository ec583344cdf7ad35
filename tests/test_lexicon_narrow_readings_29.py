"""Look-alikes of this phase's newer rules, each found by a review with its own sentences:
a "because" clause that does not end the sentence, years that are a relative's or a
device's, a purpose written after "for", a hedge before "where"; then (a second review) an
aim naming a "use of" of its own, a regimen with a change, generic or reasoned therapies for
a disease, a quoted adjective before "strategy", a manner word before a shared watch. In the
team's own words.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract, named


def test_a_because_clause_ends_at_its_comma_or_bracket(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The reason is dropped, never the advice around it: "Because fainting is often benign,
    X is advised …", "…, because potassium may rise, X …", "X (because …) is advised …"."""
    opening = extract(
        lexicon,
        "Because fainting is often benign, tilt testing is advised in adults aged 40 years or"
        " older.",
    )
    assert [a.normalized for a in opening.actions] == ["tilt testing"], opening.actions
    assert any(c.normalized == "age" for c in opening.concepts), opening.concepts
    inner = named(
        extract(
            lexicon,
            "In adults with HFrEF, because potassium may rise, monitoring of potassium is"
            " advised after starting an MRA.",
        )
    )
    assert any("monitoring" in n for n in inner) and not any("because" in n for n in inner), inner
    bracket = named(
        extract(
            lexicon,
            "Anticoagulation (because the embolic risk is high) is advised in adults with AF and"
            " mitral stenosis.",
        )
    )
    assert "mitral stenosis" in bracket and not any("because" in n for n in bracket), bracket


def test_years_of_a_relative_or_a_device_are_not_the_patients_age(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "premature CAD in a male relative <55 years of age", "abandoned leads >10 years old":
    the years are the relative's or the lead's, never a criterion on the patient's age."""
    for sentence in (
        "Lipid testing is advised in adults with premature CAD in a male relative <55 years of"
        " age.",
        "Extraction is advised in adults with abandoned leads >10 years old.",
    ):
        result = extract(lexicon, sentence)
        assert not [c for c in result.concepts if c.normalized == "age"], (sentence, result)


def test_a_purpose_after_for_is_no_disease_of_the_patients(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "on anticoagulation for stroke prevention", "receiving antibiotic prophylaxis for
    endocarditis": what the therapy prevents is not a condition the patients have."""
    for sentence, prevented in (
        ("In adults on anticoagulation for stroke prevention, NOACs are advised.", "stroke"),
        (
            "In adults receiving antibiotic prophylaxis for endocarditis, amoxicillin is advised.",
            "endocarditis",
        ),
    ):
        result = extract(lexicon, sentence)
        wrong = [c for c in result.concepts if c.role == "Condition" and prevented in c.normalized]
        assert not wrong, (sentence, result.concepts)


def test_a_hedge_before_where_leaves_the_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(particularly where ST elevation is present)": as with "when", the clause word is no
    part of the state."""
    found = named(
        extract(
            lexicon,
            "Early angiography is advised in adults with chest pain (particularly where ST"
            " elevation is present).",
        )
    )
    assert not any(n.startswith("where") for n in found), found


def test_family_history_listed_as_an_act_is_taken(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Family history, ECG and echocardiography are advised": the family history is taken,
    one act of three; "a family history of X" stays the patients' past."""
    result = extract(
        lexicon, "Family history, ECG and echocardiography are advised in first-degree relatives."
    )
    assert "family history taking" in [a.normalized for a in result.actions], result.actions


def test_an_aim_naming_a_use_of_its_own_keeps_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "To reduce bleeding from anticoagulation, use of NSAIDs, and alcohol excess,
    assessment of A, B, and C is advised": the aim's own "use of NSAIDs" is no act; the
    subject's list starts at the last act noun before the verb."""
    result = extract(
        lexicon,
        "To reduce bleeding from anticoagulation, use of NSAIDs, and alcohol excess, assessment"
        " of renal function, haemoglobin, and liver function is advised.",
    )
    acts = " ".join(a.normalized for a in result.actions)
    assert "renal function" in acts and "liver function" in acts, result.actions
    assert "non-steroidal" not in acts and "alcohol" not in acts, result.actions


def test_a_regimen_with_a_change_keeps_the_regimen(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a DAPT strategy with de-escalation to clopidogrel": the de-escalation changes the
    regimen and is no item of it; DAPT stays an act beside it."""
    result = extract(
        lexicon, "A DAPT strategy with de-escalation to clopidogrel may be considered in adults."
    )
    acts = [a.normalized for a in result.actions]
    assert "dual antiplatelet therapy" in acts, acts


def test_generic_or_reasoned_therapies_for_a_disease_stay_one(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "on long-term therapy for X", "on OAC for an indication other than AF", "amiodarone as
    maintenance therapy of sinus rhythm": a generic therapy named by its disease, a reason
    rather than a disease, a role the drug plays: no disease of the patients is read apart."""
    for sentence, not_a_state in (
        ("Adults on long-term therapy for gout should continue it.", "gout"),
        ("In adults on OAC for an indication other than AF, aspirin is not advised.", "indication"),
        ("Amiodarone as maintenance therapy of sinus rhythm is advised in adults.", "sinus rhythm"),
    ):
        states = [
            c.normalized
            for c in extract(lexicon, sentence).concepts
            if c.role == "Condition" and c.normalized.startswith(not_a_state)
        ]
        assert not states, (sentence, states)


def test_a_quoted_adjective_before_strategy_keeps_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an 'ischaemia-guided' strategy" names no act of its own; only a coined name of acts
    ("wait-and-see") stands for the strategy."""
    result = extract(lexicon, "An 'ischaemia-guided' strategy is advised in adults with angina.")
    assert any("strategy" in a.normalized for a in result.actions), result.actions


def test_a_manner_word_before_a_shared_watch_goes(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "under careful clinical and echo surveillance": "careful" says how closely, and the
    two watches share "surveillance" (no "careful clinical" left as a drug)."""
    result = extract(
        lexicon,
        "Drug therapy under careful clinical and echo surveillance is advised in adults"
        " with a small aortic tear.",
    )
    names = [c.normalized for c in result.concepts]
    assert "clinical surveillance" in names and "echo surveillance" in names, names
    assert not any("careful" in n for n in names), names
