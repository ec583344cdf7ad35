"""The acts done to the patients ("that patients with X are screened for Y", "to screen
patients with X for Y", "that patients are discharged from / observed in Y"): read by rule,
in the team's own sentences (cardio_assets/logic/lexicon/care_verbs.py).
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


def test_an_act_done_to_the_patients_is_the_action(lexicon) -> None:
    """ "It is recommended that patients with X are screened for Y" and "... to screen
    patients with X for Y" recommend screening for Y in patients with X; "are enrolled in a
    programme" recommends the programme."""
    for text in (
        "It is recommended that adults with gout are regularly screened for heart failure.",
        "It is recommended to screen adults with gout for heart failure.",
    ):
        result = extract(lexicon, text)
        assert [a.normalized for a in result.actions] == ["screening"], text
        assert named(result)["heart failure"].function == "purpose"  # what is looked for
        assert ("Condition", "gout") in roles(result)
    result = extract(
        lexicon, "It is recommended that people with HF are enrolled in a walking programme."
    )
    assert [a.normalized for a in result.actions] == ["walking programme"]


@pytest.mark.parametrize(
    ("text", "act", "cohort"),
    [
        (
            "It is recommended that adults with a low-risk faint are discharged from the "
            "emergency department.",
            "discharge from the emergency department",
            "low-risk faint",
        ),
        (
            "It is recommended that adults with an unclear faint are observed in a faint unit.",
            "observation in a faint unit",
            "unclear faint",
        ),
    ],
)
def test_that_patients_are_sent_or_kept_somewhere_names_the_act_and_the_place(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    act: str,
    cohort: str,
) -> None:
    """ "It is recommended that patients with X are discharged from / observed in / transferred
    to Y": what is done to them is the act, with its place ("discharge from Y"); X is whom it
    is for, as with "are screened for Y"."""
    result = extract(lexicon, text)
    found = named(result)
    assert [a.normalized for a in result.actions] == [act]
    assert found[cohort].role == "Condition"


def test_to_screen_for_names_the_screening_before_the_patients(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended to screen for Y in patients with X": the screening is the act
    even when what it looks for comes before the patients."""
    result = extract(lexicon, "It is recommended to screen for anaemia in adults with gout.")
    assert [a.normalized for a in result.actions] == ["screening"]
    assert {"anaemia", "gout"} <= {c.normalized for c in result.concepts}


def test_care_given_in_a_place_is_one_act_and_qualified_patients_are_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to treat high-risk patients in expert centres", "to follow up women with X": a few
    words may qualify the patients, and where they are cared for stays with the care
    ("treatment in expert centres"); "follow up" names the follow-up."""
    treated = extract(lexicon, "It is recommended to treat frail patients in expert centres.")
    assert [a.normalized for a in treated.actions] == ["treatment in expert centre"]
    assert "frail" in {c.normalized for c in treated.concepts if c.role == "Condition"}
    followed = extract(lexicon, "It is recommended to follow up women with gout for anaemia.")
    assert [a.normalized for a in followed.actions] == ["follow-up"]
    assert "gout" in {c.normalized for c in followed.concepts}


def test_patients_informed_about_something_is_the_informing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "that patients undergoing X are informed about Y, ahead of the procedure": informing
    them is the act, X what they undergo; "the procedure" points back to X and names no
    concept of its own."""
    result = extract(
        lexicon,
        "It is recommended that patients undergoing ablation are informed about the risks "
        "ahead of the procedure.",
    )
    acts = [a.normalized for a in result.actions]
    assert acts and acts[0].startswith("informing about"), acts
    names = {c.normalized for c in result.concepts}
    assert "ablation" in names and not any("procedure" in n for n in names)


@pytest.mark.parametrize(
    ("text", "cohort", "act"),
    [
        (
            "Adults with HFrEF should be enrolled in a nurse-led exercise programme.",
            "heart failure with reduced ejection fraction",
            "nurse-led exercise programme",
        ),
        (
            "Women with severe aortic dilatation should be counselled against pregnancy.",
            "severe aortic dilatation",
            "counselling against pregnancy",
        ),
        (
            "Adults with HF should be educated on fluid restriction.",
            "heart failure",
            "education on fluid restriction",
        ),
        (
            "Adults with CHD should be vaccinated against influenza.",
            "coronary heart disease",
            "vaccination against influenza",
        ),
    ],
)
def test_patients_as_the_subject_of_a_care_verb_are_the_cohort(  # type: ignore[no-untyped-def]
    lexicon, text: str, cohort: str, act: str
) -> None:
    """ "Patients with X should be enrolled in Y / counselled against Y": the patients are
    whom the row is for, and the act is the programme they join, or the care the verb
    names with its object; neither the patients nor their disease is the act."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert named(result)[cohort].role == "Condition", result.concepts


def test_that_a_thing_be_assessed_names_its_assessment_not_a_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended that frailty be assessed with a scale in adults over 75": the
    subject of a care verb that names no person is what the verb acts on, so the act is its
    assessment (the tool how it is done) and the patients are those the trailing phrase names."""
    result = extract(
        lexicon,
        "It is recommended that frailty be assessed with a validated scale in adults aged 75"
        " years or older.",
    )
    found = named(result)
    assert result.actions[0].normalized == "frailty assessment", result.actions
    assert found["validated scale"].role == "Procedure", found
    assert "frailty" not in found and any(n.startswith("adult") for n in found), found
    measured = extract(
        lexicon,
        "It is recommended that LVEF be measured in patients with breast cancer before"
        " chemotherapy.",
    )
    assert [a.normalized for a in measured.actions] == [
        "left ventricular ejection fraction measurement"
    ], measured.actions
    assert "breast cancer" in named(measured), named(measured)  # the patients, read as such


@pytest.mark.parametrize("verb", ["undertake", "adopt", "attend", "complete", "maintain"])
def test_that_patients_do_an_act_names_the_act_and_the_cohort(lexicon, verb: str) -> None:  # type: ignore[no-untyped-def]
    """ "It is recommended that adults with gout <verb> a programme": the patients are the
    cohort and what they are to do is the act, as with "undergo" or "receive"."""
    result = extract(
        lexicon, f"It is recommended that adults with gout {verb} a structured exercise programme."
    )
    found = named(result)
    assert [a.normalized for a in result.actions] == ["structured exercise programme"], result
    assert "gout" in found and found["gout"].role == "Condition", found


@pytest.mark.parametrize(
    "text",
    [
        "Adults should do at least 150 min a week of moderate-intensity aerobic activity.",
        "Adults with gout should engage in moderate-intensity aerobic activity.",
        "Adults with gout should strive for moderate-intensity aerobic activity.",
    ],
)
def test_patients_who_should_do_something_name_the_act(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "Adults should do / engage in / strive for X": the patients are whom the row is for
    and X is what they are advised to do (before, "Adults" became the act and X was lost)."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == ["moderate-intensity aerobic activity"], result
    assert not [a for a in result.actions if "adult" in a.normalized]


def test_an_amount_of_exercise_after_the_activity_is_no_part_of_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "aerobic exercise of at least 30 min on 5 days a week": how much is a dose of the
    activity (the contract's doses and schedules), not part of its name."""
    result = extract(
        lexicon, "Aerobic exercise of at least 30 min on 5 days a week is advised in adults."
    )
    assert [a.normalized for a in result.actions] == ["aerobic exercise"], result.actions
