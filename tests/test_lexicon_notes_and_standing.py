"""What a real guideline row carries besides its concepts, found running a whole development
guideline end to end: footnote symbols glued to words, brackets that point to material
published beside the guideline, how large a dose is, and what an act is to the guideline
("the mainstay of treatment"). Every sentence here is the team's own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text",
    [
        "Low-dose colchicine is advised in adults with angina* after an infarction.",
        "Low-dose colchicine is advised in adults with angina** after an infarction.",
        "Low-dose colchicine is advised in adults with angina† after an infarction.",
        "Low-dose colchicine (0.5 mg/day)‡ is advised in adults with angina after an infarction.",
    ],
)
def test_a_footnote_symbol_glued_to_a_word_is_no_part_of_it(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """Tables mark some notes with a symbol instead of a letter; glued to a word or a
    bracket it points to a note under the table and names nothing itself."""
    found = named(extract(lexicon, text))
    assert "angina" in found, found
    assert "low-dose colchicine" in found or "colchicine" in found, found
    assert not any(ch in name for name in found for ch in "*†‡"), found


def test_a_product_between_numbers_is_not_a_footnote(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "2*3" is arithmetic: the symbol is only a footnote's when a space, a stop or the end
    follows it."""
    found = named(extract(lexicon, "Imaging is advised when the score exceeds 2*3 in adults."))
    assert any("2*3" in c.text or "score" in name for name, c in found.items()), found


@pytest.mark.parametrize(
    "pointer", ["(Web box)", "(see online appendix)", "(Supplementary material)", "(web tables)"]
)
def test_a_bracket_pointing_to_published_extras_is_no_concept(lexicon, pointer: str) -> None:  # type: ignore[no-untyped-def]
    """A bracket that sends the reader to a web box or an online appendix, numbered or not,
    says where more is written, not whom the row is for."""
    found = named(
        extract(
            lexicon, f"Beta-blockers should be considered in adults with palpitations {pointer}."
        )
    )
    assert set(found) == {"beta-blocker", "adults", "palpitation"}, found


@pytest.mark.parametrize(
    "how_much",
    ["at medium high doses", "at medium-high doses", "at moderate doses", "in low doses"],
)
def test_how_large_a_dose_is_no_concept(lexicon, how_much: str) -> None:  # type: ignore[no-untyped-def]
    """How large the dose is, in one or two words, is how the drug is given, not a state of
    the patient."""
    found = named(extract(lexicon, f"If gout is a worry, aspirin may be considered, {how_much}."))
    assert "aspirin" in found, found
    assert not any("dose" in name for name in found), found


@pytest.mark.parametrize(
    ("text", "act", "state"),
    [
        (
            "Diuretics are the mainstay of treatment and are advised in adults with oedema.",
            "diuretic",
            "oedema",
        ),
        ("Diuretics are the cornerstone of therapy for congestion.", "diuretic", "congestion"),
        (
            "Exercise training is the cornerstone of management in adults with claudication.",
            "exercise training",
            "claudication",
        ),
        (
            "Statins are the mainstay of care in adults with familial hypercholesterolaemia.",
            "statin",
            None,
        ),
    ],
)
def test_the_mainstay_of_treatment_is_the_acts_standing(
    lexicon, text: str, act: str, state: str | None
) -> None:  # type: ignore[no-untyped-def]
    """ "X is the mainstay / cornerstone of treatment" says how the guideline ranks the act; X
    is the act, and what the treatment is for stays the patients' state."""
    found = named(extract(lexicon, text))
    assert act in found and found[act].role in ("Medication", "Procedure"), found
    assert not any("mainstay" in n or "cornerstone" in n for n in found), found
    if state:
        assert found[state].role == "Condition", found


@pytest.mark.parametrize(
    ("text", "acts", "state"),
    [
        (
            "CT and/or CMR are second-line tests for the diagnostic work-up in myocarditis.",
            {"computed tomography", "cardiac magnetic resonance"},
            "myocarditis",
        ),
        (
            "Stress echocardiography is a first-line test in adults with chest pain.",
            {"stress echocardiography"},
            "chest pain",
        ),
    ],
)
def test_a_tests_rank_said_with_is_is_no_concept(
    lexicon, text: str, acts: set[str], state: str
) -> None:  # type: ignore[no-untyped-def]
    """ "X are second-line tests for the work-up in Y": the rank of the tests, like "as
    first-line imaging"; X is done, Y is whom it is done for."""
    found = named(extract(lexicon, text))
    assert acts <= set(found), found
    assert found[state].role == "Condition", found
    assert not any("line" in n or "work" in n for n in found), found


# --- narrowed after a review's look-alikes


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Viability testing at low-dose dobutamine echocardiography should be considered.",
            "low-dose dobutamine echocardiography",
        ),
        ("Ezetimibe is advised in adults in high-dose statin trials.", "high-dose statin"),
    ],
)
def test_a_dose_that_names_a_kind_of_test_or_therapy_stays(lexicon, text: str, kept: str) -> None:  # type: ignore[no-untyped-def]
    """ "low-dose dobutamine echocardiography" is a test, "high-dose statin" a therapy:
    the dose words name them and are kept."""
    found = named(extract(lexicon, text))
    assert any(kept in n for n in found), found


def test_the_cornerstone_of_treatment_followed_by_a_noun_is_left_alone(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "the cornerstone of treatment decisions" is about the decisions, no standing of an
    act: nothing is dropped from it."""
    found = named(
        extract(lexicon, "Shared decision-making is the cornerstone of treatment decisions.")
    )
    assert any("decision" in n and n != "shared decision-making" for n in found) or any(
        "cornerstone" in n for n in found
    ), found


@pytest.mark.parametrize(
    ("text", "footnoted"),
    [
        (
            "UFH*/LMWH† is advised in pregnant women with a mechanical valve.",
            "low-molecular-weight heparin",
        ),
    ],
)
def test_a_footnote_symbol_before_a_slash_goes_too(lexicon, text: str, footnoted: str) -> None:  # type: ignore[no-untyped-def]
    found = named(extract(lexicon, text))
    assert footnoted in found, found
    assert not any("*" in n or "†" in n for n in found), found


def test_supplementary_material_online_with_a_table_is_a_pointer(lexicon) -> None:  # type: ignore[no-untyped-def]
    found = named(
        extract(
            lexicon,
            "Ticagrelor may be considered in adults with ACS (Supplementary material online, Table S3).",
        )
    )
    assert not any("supplementary" in n or "table" in n for n in found), found
