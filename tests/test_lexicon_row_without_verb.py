"""Rows that name only a patient group (the act is in the table's columns or header) and
recommending verbs with an adverb inside them: read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize(
    ("text", "conditions"),
    [
        ("Two-vessel disease with a high risk score", {"two-vessel disease"}),
        (
            "Moderate or severe mitral stenosis with suitable valve anatomy",
            {"suitable valve anatomy"},
        ),
        ("High risk of sudden cardiac death", {"high risk of sudden cardiac death"}),
    ],
)
def test_a_row_without_a_verb_naming_only_states_is_a_patient_group(  # type: ignore[no-untyped-def]
    lexicon, text: str, conditions: set[str]
) -> None:
    """Some tables list patient groups in their rows and the treatments in their columns
    ("Left main disease with a low score | CABG | PCI"). Such a row names no act: what it
    names are the patients' diseases and states, so they are Conditions and the row has no
    action, instead of the first disease being taken for the thing recommended."""
    result = extract(lexicon, text)
    assert result.actions == []
    found = named(result)
    for name in conditions:
        assert found[name].role == "Condition"
    assert not any(c.role == "Procedure" for c in result.concepts)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Echocardiography in adults with a new heart murmur", ("Procedure", "echocardiography")),
        ("Aspirin 75-100 mg once daily after stenting", ("Medication", "aspirin")),
    ],
)
def test_a_row_without_a_verb_naming_an_act_keeps_it_as_the_action(  # type: ignore[no-untyped-def]
    lexicon, text: str, action: tuple[str, str]
) -> None:
    """A verbless row that names a test or a drug ("Echocardiography in adults with …") is
    the recommendation itself, whose cohort is in the header: it keeps its action."""
    result = extract(lexicon, text)
    assert [(a.role, a.normalized) for a in result.actions] == [action]


def test_a_score_range_in_a_patient_group_row_is_a_parameter(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with a low risk score 0-12": the score's range is a criterion on it."""
    result = extract(lexicon, "Single-vessel disease with a low risk score 0 - 12")
    score = named(result)["risk score"]
    assert (score.role, score.operator, score.threshold) == (
        "ClinicalParameter",
        "between",
        [0.0, 12.0],
    )
    assert ("Condition", "single-vessel disease") in roles(result)


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("In patients with shock, thrombolysis should be promptly considered.", "thrombolysis"),
        (
            "In patients with recurrent pericarditis, colchicine should be carefully titrated.",
            "colchicine",
        ),
        ("Thrombolysis is only recommended in patients with shock.", "thrombolysis"),
        ("Patients with frequent relapses should be closely followed up.", None),
    ],
)
def test_an_adverb_inside_the_recommending_verb_is_part_of_it(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str | None
) -> None:
    """ "should be promptly considered", "is only recommended", "be closely followed up":
    the adverb belongs to the verb, so the verb still splits the sentence and no concept
    carries the verb's words."""
    result = extract(lexicon, text)
    for c in result.concepts:
        assert not any(w in c.text.split() for w in ("should", "recommended", "considered", "up"))
    if act is not None:
        assert act in {a.normalized for a in result.actions}


def test_a_sentence_that_widens_the_row_adds_a_group(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… is advised in adults with HFrEF. This includes patients with diabetes.": the
    second sentence names one more group the row is for, not an act."""
    result = extract(
        lexicon, "Ablation is advised in adults with HFrEF. This includes patients with diabetes."
    )
    roles = {c.normalized: c.role for c in result.concepts}
    assert roles.get("diabetes mellitus") == "Condition"
    assert [a.normalized for a in result.actions] == ["ablation"]


@pytest.mark.parametrize("vessel", ["LAD", "RCA"])
def test_a_vessel_named_as_the_patient_group_is_the_patients_with_its_disease(  # type: ignore[no-untyped-def]
    lexicon, vessel: str
) -> None:
    """In a table of patient groups, "RCA with a long calcified lesion" names patients with
    disease of that artery: a condition, and the row has no action of its own (the act is
    in the table's columns), not the artery taken for the thing recommended."""
    result = extract(lexicon, f"{vessel} with a long calcified lesion")
    assert result.actions == []
    assert all(c.role == "Condition" for c in result.concepts)


@pytest.mark.parametrize("ending", [">30d", ">30.d"])
def test_a_footnote_letter_glued_to_the_last_value_is_no_part_of_it(lexicon, ending: str) -> None:  # type: ignore[no-untyped-def]
    """ "a gait score >30d": the letter after the value that ends the row points to a
    footnote (no unit is a lone letter), so the value is read as 30 and nothing is left over."""
    result = extract(lexicon, f"Hip arthritis with a high gait score {ending}")
    scores = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.operator, c.threshold) for c in scores] == [(">", 30.0)]
    assert not [c for c in result.concepts if c.role != "ClinicalParameter" and "30" in c.text]
