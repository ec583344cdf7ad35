"""Lists whose items a semicolon ends, a count of kinds that points at a list, and asides
that name nothing ("for instance", "given safety concerns", "because of its cost", "when the
anatomy allows", a lone qualifier): read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


def _groups(result) -> list[set[str]]:  # type: ignore[no-untyped-def]
    groups: dict[str, set[str]] = {}
    for c in result.concepts:
        if c.or_group:
            groups.setdefault(c.or_group, set()).add(c.normalized.lower())
    return list(groups.values())


def test_an_or_inside_a_semicolon_item_binds_only_that_item(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A or B; C; and D or E" lists three requirements, the first and last each with two
    alternatives: C is no alternative to anything, and A is no alternative to E (before, the
    whole list was one group of five alternatives)."""
    result = extract(
        lexicon,
        "In hypertrophic cardiomyopathy with obstruction, a beta-blocker or verapamil; "
        "diuretic review; and disopyramide or mavacamten are recommended.",
    )
    found = named(result)
    assert_one_or_group(found["verapamil"], found["beta-blocker"])
    assert_one_or_group(found["disopyramide"], found["mavacamten"])
    assert found["verapamil"].or_group != found["mavacamten"].or_group
    assert all("diuretic review" not in group for group in _groups(result))


def test_a_semicolon_list_after_any_of_the_following_stays_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "any of the following: A or B; C; and D": the lead says one item is enough, so the
    items stay one group of alternatives whatever word ends the list."""
    result = extract(
        lexicon,
        "Admission is recommended for syncope with any of the following: chest pain or "
        "dyspnoea; a new bundle branch block; and a family history of sudden death.",
    )
    groups = _groups(result)
    assert any({"chest pain", "new bundle branch block"} <= group for group in groups), groups


def test_a_count_of_kinds_points_at_the_list_after_the_colon(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Three drug classes are recommended …: A; B; and C" names its acts after the colon,
    as "the following" does; the count and its kind word name nothing."""
    result = extract(
        lexicon,
        "Three drug classes are recommended after an acute coronary syndrome: aspirin; a "
        "high-intensity statin; and a beta-blocker.",
    )
    acts = {a.normalized.lower() for a in result.actions}
    assert {"aspirin", "high-intensity statin", "beta-blocker"} <= acts, acts
    assert not any("class" in c.normalized.lower() for c in result.concepts)


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        (
            "Beta-blockers, for example bisoprolol or nebivolol, are recommended in patients "
            "with angina.",
            "example",
        ),
        (
            "Routine coronary CT is not recommended in young athletes without symptoms, given "
            "radiation concerns.",
            "concern",
        ),
        (
            "Exercise testing should not be used alone to diagnose myocardial ischaemia in "
            "women, because of its low specificity.",
            "specificity",
        ),
        (
            "Thrombolysis is not recommended routinely in intermediate-risk pulmonary embolism.",
            "routinely",
        ),
        (
            "Closure of a patent ductus, by catheter when the anatomy allows, is recommended in "
            "patients with left ventricular volume overload.",
            "anatomy",
        ),
    ],
)
def test_asides_that_name_nothing(lexicon, text: str, gone: str) -> None:  # type: ignore[no-untyped-def]
    """ "for example" leads examples as "e.g." does; a reason with no article ("given
    radiation concerns"), a property of the act itself ("because of its low specificity"),
    how often ("recommended routinely in") and whether the technique fits ("when the anatomy
    allows") are no concepts, and what follows them is still read."""
    result = extract(lexicon, text)
    names = [c.normalized.lower() for c in result.concepts]
    assert not any(gone in name for name in names), names
    assert result.actions, names


def test_a_lone_qualifier_is_no_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A qualifier left alone when the rest of its phrase went elsewhere ("recurring" after
    a comma, "acute or subacute onset of X" cut at its "or") names no state of the patient;
    the state it qualified is still there."""
    result = extract(
        lexicon,
        "Ablation is recommended in patients with monomorphic ventricular tachycardia, "
        "recurring despite amiodarone.",
    )
    names = {c.normalized.lower() for c in result.concepts}
    assert "recurring" not in names, names
    assert any("ventricular tachycardia" in n for n in names), names
