"""Readings of the team's own sentences: two aims joined by "and", each with its own verb
("to relieve symptoms and lower morbidity and mortality"); a bracket spelling out what does
not matter ("whatever the AF pattern (paroxysmal or permanent)"); "X is the recommended
first-line test", a recommendation of X; "should (not) take part in X", what the patients
are advised (against); "combining X (dose) with Y", both acts; "A or B are options", "X is a
possible alternative"; "each taken twice daily" after a list of drugs, a schedule.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def _outcomes(lexicon, text: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {c.normalized for c in extract(lexicon, text).concepts if c.role == "Outcome"}


def test_a_second_verb_after_and_starts_a_second_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Each verb of the aim leads in to its own object; before, the first object ran on
    into the second verb ("symptoms and lower both morbidity")."""
    found = _outcomes(
        lexicon,
        "Resynchronisation therapy is advised in heart failure with LBBB to relieve symptoms"
        " and lower both morbidity and mortality.",
    )
    assert {"symptom", "morbidity", "mortality"} <= found, found
    assert not any(" and " in name for name in found), found


def test_lower_before_a_body_part_is_no_second_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "to prevent stroke and lower limb amputation": "lower" names the limb, no verb
    of a second aim, so the limb is not lost from the amputation."""
    found = _outcomes(
        lexicon, "Statins are advised in leg artery disease to prevent stroke and lower limb loss."
    )
    assert not any(name.startswith("limb") for name in found), found


def test_a_bracket_after_what_does_not_matter_goes_with_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "whatever the AF pattern (paroxysmal, persistent or permanent)": the bracket lists
    the patterns that do not matter, so none of them is a condition of the row; before, they
    were an OR group of conditions."""
    result = extract(
        lexicon,
        "Anticoagulation is advised in people with AF at high stroke risk, whatever the AF"
        " pattern (paroxysmal, persistent or permanent).",
    )
    found = named(result)
    assert not {"paroxysmal", "persistent", "permanent"} & set(found), found
    assert found["atrial fibrillation"].role == "Condition", found


def test_a_bracket_naming_patients_or_a_value_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "regardless of symptoms (in those with a stroke score of 2 or more)": the bracket
    names whom the act is for, not what does not matter, and is read as before."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is advised in AF regardless of symptoms (in those with a CHA2DS2-VA"
            " score of 2 or more).",
        )
    )
    assert found["cha2ds2-va score"].threshold == 2, found


def test_the_recommended_first_line_test_is_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "CCTA is the recommended first-line diagnostic test": CCTA is what is recommended;
    before, the whole clause was one procedure."""
    result = extract(
        lexicon,
        "In people with stable chest pain, CCTA is the recommended first-line diagnostic test.",
    )
    assert [a.normalized for a in result.actions] == ["computed tomography coronary angiography"], (
        result.actions
    )


@pytest.mark.parametrize(
    ("text", "act", "polarity"),
    [
        (
            "Athletes with probable or definite myocarditis should not take part in competitive"
            " sport.",
            "competitive sport",
            "not recommended",
        ),
        (
            "Adults with coronary disease should take part in a rehabilitation programme.",
            "rehabilitation programme",
            "recommended",
        ),
    ],
)
def test_taking_part_in_an_activity_names_the_activity(
    lexicon, text: str, act: str, polarity: str
) -> None:  # type: ignore[no-untyped-def]
    """ "should (not) take part in X": X is what the patients are advised to do or advised
    against; before, the patients became the act ("athlete") or "part in" stayed in its name."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert result.actions[0].polarity == polarity, result.actions


def test_combining_names_both_drugs_combined(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Combining aspirin (75–100 mg daily) with rivaroxaban": both drugs are the acts, the
    dose bracket after the first no bar to reading it; before, "combining aspirin" was one
    drug and rivaroxaban no act."""
    result = extract(
        lexicon,
        "Combining aspirin (75-100 mg daily) with low-dose rivaroxaban should be considered in"
        " adults with peripheral artery disease.",
    )
    assert {a.normalized for a in result.actions} == {"aspirin", "low-dose rivaroxaban"}, result


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        (
            "Reduced-dose apixaban or rivaroxaban are options after six months in adults with"
            " venous thromboembolism.",
            {"reduced-dose apixaban", "rivaroxaban"},
        ),
        (
            "Conduction-system pacing is a possible alternative in adults with heart failure and"
            " a long QRS.",
            {"conduction-system pacing"},
        ),
        ("Aspirin is an option in adults with chronic coronary syndrome.", {"aspirin"}),
        (
            "Clopidogrel is another option in adults with chronic coronary syndrome.",
            {"clopidogrel"},
        ),
        (
            "Apixaban and edoxaban are the options of choice in adults with AF and CKD.",
            {"apixaban", "edoxaban"},
        ),
    ],
)
def test_an_option_or_a_possible_alternative_is_recommended(
    lexicon, text: str, acts: set[str]
) -> None:  # type: ignore[no-untyped-def]
    """ "A or B are options", "X is an option", "the options of choice", "X is a possible
    alternative": the verb phrase recommends what stands before it; before, it stayed in the
    last item's name ("rivaroxaban are option")."""
    result = extract(lexicon, text)
    assert {a.normalized for a in result.actions} == acts, result.actions
    assert "choice" not in named(result), result.concepts


def test_a_schedule_said_of_every_drug_listed_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ticagrelor 60 mg or rivaroxaban 2.5 mg, each taken twice daily": how often each is
    taken is a schedule, no drug of the list; before, "each taken twice daily" was a third
    drug in their OR group."""
    result = extract(
        lexicon,
        "Aspirin plus ticagrelor 60 mg or rivaroxaban 2.5 mg, each taken twice daily, may be"
        " considered in chronic coronary syndrome.",
    )
    assert not [c for c in result.concepts if "taken" in c.normalized], result.concepts


def test_combining_a_and_b_names_both(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Combining antiplatelet and anticoagulant therapy is not advised": "combining" only
    leads in to the two therapies joined by "and"; before, it stayed in the first one's name
    ("combining antiplatelet")."""
    result = extract(
        lexicon,
        "Combining antiplatelet and anticoagulant therapy is not advised in stable coronary"
        " disease.",
    )
    assert not any("combining" in a.normalized for a in result.actions), result.actions
    assert len(result.actions) == 2, result.actions
