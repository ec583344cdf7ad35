"""Reasons, hedged clauses, heads before a place and ages said outright: "… because X"
(why, not for whom), "(particularly when X is present)", "restenosis within a stent" (the
state, where it is) and "X <65 years of age" (the age of the patients with X). In the
team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract, named


def test_a_because_clause_names_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "because older adults often have several causes" says why the act is advised; what
    it mentions is no criterion of the patients, and the sentence before it keeps its own."""
    found = named(
        extract(
            lexicon,
            "A geriatric review is advised in older adults because more than one cause of"
            " dizziness and unexplained falls may coexist.",
        )
    )
    assert not any("cause" in n or "fall" in n or "because" in n for n in found), found
    assert any(n.startswith("older") for n in found), found


def test_because_of_a_cause_is_not_a_reason_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "syncope because of low blood pressure" names the cause of the state, not why the
    act is advised: the cause stays."""
    found = named(
        extract(lexicon, "Tilt testing is advised in adults with fainting because of hypotension.")
    )
    assert any("hypotension" in n for n in found), found


def test_years_of_age_after_a_disease_is_the_age(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults with gout <60 years of age": the years are the adults' age, said outright
    by "of age"; gout stays a condition of its own instead of naming the value."""
    result = extract(lexicon, "Screening for AF is advised in adults with gout <60 years of age.")
    params = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(p.normalized, p.threshold) for p in params] == [("age", 60.0)], params
    assert "gout" in named(result), named(result)


def test_a_hedged_when_clause_names_only_its_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(particularly when other risk factors are present)": the hedge and the clause word
    are no part of the state."""
    found = named(
        extract(
            lexicon,
            "Screening for AF is advised in adults with gout (particularly when further risk"
            " factors are present).",
        )
    )
    assert not any(n.startswith(("when", "particularly")) for n in found), found
    assert any("risk factor" in n for n in found), found


def test_a_state_within_or_in_a_device_is_the_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "restenosis within a bare-metal stent", "stenosis in a vein graft": the head word
    comes before "within" / "in" (as before "of"); the device or graft only says where, so
    the phrase is a condition, not an operation."""
    for sentence, head in (
        (
            "Drug-coated balloons are advised for restenosis within a bare-metal stent.",
            "restenosis",
        ),
        ("Balloon angioplasty is advised for adults with stenosis in a vein graft.", "stenosis"),
    ):
        result = extract(lexicon, sentence)
        (found,) = [c for c in result.concepts if c.normalized.startswith(head)]
        assert found.role == "Condition", (sentence, found)
