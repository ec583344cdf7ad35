"""What an act brings told by a participle after the advice ("X is recommended in Y,
reducing symptoms"), an act named as the kind to choose ("X is the recommended
antithrombotic regimen"), and a course given for life ("aspirin for life"). Read by rule,
in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "aims"),
    [
        (
            "Tafamidis is recommended in amyloid cardiomyopathy, reducing symptoms, "
            "admissions and death.",
            {"symptom", "admission", "death"},
        ),
        ("Bisoprolol is indicated in stable angina, relieving chest pain.", {"chest pain"}),
    ],
    ids=["reducing", "relieving"],
)
def test_a_participle_after_the_advice_is_its_aim(lexicon, text, aims):
    # ", reducing X" after the advice says what the act is given for, as ", to reduce X"
    # does: outcomes, not states of the patients.
    result = named(extract(lexicon, text))
    assert {n for n, c in result.items() if c.role == "Outcome"} == aims, result


def test_a_gerund_that_opens_the_advice_stays_the_act(lexicon):
    # Before the advice is said, "reducing X" is the act itself, not an aim.
    result = extract(
        lexicon, "For stable survivors, reducing how often scans are repeated may be considered."
    )
    assert not [c for c in result.concepts if c.role == "Outcome"], result.concepts


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "Surgical repair is the preferred technique for severe mitral regurgitation.",
            "surgical repair",
        ),
        (
            "After valve implantation, aspirin is the recommended antithrombotic regimen.",
            "aspirin",
        ),
    ],
    ids=["technique", "regimen"],
)
def test_an_act_named_as_the_kind_to_choose_is_recommended(lexicon, text, act):
    # "the recommended antithrombotic regimen" recommends the act named before it, as "the
    # recommended regimen" does; the word for its kind names nothing of its own.
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions


def test_a_course_for_life_is_no_part_of_the_drug(lexicon):
    # "for life" says how long the drug is given, as "lifelong" does; "at high risk for life
    # threatening arrhythmia" keeps its words.
    assert "aspirin" in named(extract(lexicon, "Aspirin for life is advised after valve repair."))
    kept = named(
        extract(lexicon, "An ICD is advised in those at high risk for life threatening arrhythmia.")
    )
    assert "high risk for life threatening arrhythmia" in kept, kept
