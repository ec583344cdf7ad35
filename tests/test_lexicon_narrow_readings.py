"""Rules kept narrow: wording that looks like what a rule reads but must not be read so (a
pattern that is no diet, an adjective "complicating", a disease after "and", a rank with its
aim after it, a time window counted from "the procedure", a hyphenated prefix before the
word). In the team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract, named


def test_a_pattern_that_is_no_diet_and_what_follows_a_diet_stay(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Only a diet or an eating pattern is made of foods: "an ECG pattern that includes X"
    names a finding, and the act after it stays; after a diet's foods, the patients and the
    goal are read as usual."""
    result = extract(
        lexicon,
        "In adults with an ECG pattern that includes notched waves, a loop recorder is advised.",
    )
    assert [a.normalized for a in result.actions] == ["loop recorder"]
    found = named(extract(lexicon, "A diet rich in oats in adults with gout is advised."))
    assert "gout" in found and "oat" not in found, found


def test_complicating_as_an_adjective_keeps_its_negation(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "without complicating comorbidities": the adjective, not "A complicating C"; the
    comorbidities are negated as before."""
    found = named(
        extract(lexicon, "Surgery is advised in adults without complicating comorbidities.")
    )
    negated = [c for c in found.values() if "comorbidit" in c.normalized]
    assert negated and all(c.negated for c in negated), found


def test_a_disease_after_and_in_a_screening_is_no_second_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "screening for A and dilatation of B": a disease noun ending in -tion is what the
    screening looks for, not a second act (only action nouns open one)."""
    result = extract(
        lexicon, "Screening for valve disease and dilatation of the aorta is advised in relatives."
    )
    assert [a.normalized for a in result.actions] == ["screening"]


def test_a_rank_followed_by_its_aim_keeps_the_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "as the preferred therapy option for X": the rank goes, X is read; the generic
    "option" is no part of the act."""
    result = extract(lexicon, "Ablation is advised as the preferred therapy option for AVNRT.")
    assert [a.normalized for a in result.actions] == ["ablation"]
    conditions = [c.normalized for c in result.concepts if c.role == "Condition"]
    assert conditions and not any("option" in n for n in conditions), conditions


def test_a_window_counted_from_the_procedure_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "within 24 h after the procedure": the window is a criterion (time since the
    procedure), kept, though a bare "after the procedure" names nothing."""
    result = extract(
        lexicon, "Echocardiography within 24 h after the procedure is advised in adults."
    )
    assert any(c.normalized.startswith("time since") for c in result.concepts), result.concepts


def test_or_equivalent_before_a_longer_phrase_is_left_to_the_coordination(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A or equivalent B-intensity activity": "equivalent" opens an alternative of its
    own here; only "A or similar <one head word>" is one concept."""
    acts = [
        a.normalized
        for a in extract(
            lexicon,
            "Moderate-intensity or equivalent vigorous-intensity activity is advised in adults.",
        ).actions
    ]
    assert len(acts) == 2, acts


def test_a_hyphen_before_on_or_in_opens_no_segment(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "add-on therapy", "run-in period": the word before the hyphen and the preposition are
    one word; no segment opens at "on" / "in"."""
    found = named(
        extract(lexicon, "Spironolactone is advised in adults on add-on therapy with gout.")
    )
    assert not any(n.endswith("-") or n == "add" for n in found), found


def test_a_plural_kind_label_names_each_kind_singly(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "types I or III endoleak": each alternative is one type ("type I endoleak")."""
    found = named(extract(lexicon, "Imaging is advised in adults without types I or III leak."))
    assert {"type i leak", "type iii leak"} <= set(found), found
