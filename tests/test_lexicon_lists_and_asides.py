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
            "Closure of a patent ductus, by catheter when the anatomy allows, is recommended in "
            "patients with left ventricular volume overload.",
            "anatomy",
        ),
        (
            "Valve repair, when the anatomy is suitable for edge-to-edge repair in patients with "
            "severe mitral regurgitation, is recommended.",
            "edge-to-edge",
        ),
    ],
)
def test_asides_that_name_nothing(lexicon, text: str, gone: str) -> None:  # type: ignore[no-untyped-def]
    """ "for example" leads examples as "e.g." does; a reason with no article after its
    comma ("given radiation concerns"), a property of the act itself ("because of its low
    specificity") and whether the technique fits ("when the anatomy allows", "… is suitable
    for X", X included) are no concepts, and what follows them is still read."""
    result = extract(lexicon, text)
    names = [c.normalized.lower() for c in result.concepts]
    assert not any(gone in name for name in names), names
    assert result.actions, names


def test_a_lone_qualifier_is_no_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A qualifier left alone when the rest of its phrase went elsewhere ("recurring" after
    a comma) names no state of the patient; the state it qualified is still there. One with
    an OR label ("recurring or repetitive episodes of AF") is an alternative, and stays."""
    result = extract(
        lexicon,
        "Ablation is recommended in patients with monomorphic ventricular tachycardia, "
        "recurring despite amiodarone.",
    )
    names = {c.normalized.lower() for c in result.concepts}
    assert "recurring" not in names, names
    assert any("ventricular tachycardia" in n for n in names), names
    kept = extract(
        lexicon, "Ablation is recommended in patients with recurring or repetitive episodes of AF."
    )
    assert any(c.or_group for c in kept.concepts if c.normalized.lower() == "recurring")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # "given" as the verb, not a reason
        ("Beta-blockers should be given despite tolerability concerns.", "beta-blocker"),
        # "For example," opening a sentence: a sentence of its own, with its own act
        (
            "Antiplatelet therapy is recommended after PCI. For example, aspirin is recommended "
            "in patients with stable angina.",
            "aspirin",
        ),
    ],
)
def test_look_alikes_of_the_asides_are_read_as_before(lexicon, text: str, kept: str) -> None:  # type: ignore[no-untyped-def]
    """ "should be given despite concerns" is the verb, and "For example," that opens a
    sentence starts one: neither is an aside, and the act each names stays an act."""
    result = extract(lexicon, text)
    assert kept in {a.normalized.lower() for a in result.actions}, result.actions


@pytest.mark.parametrize(
    "text",
    [
        "Pacing is not recommended in patients with sinus bradycardia and no syncope or presyncope.",
        "Pacing is not recommended in sinus bradycardia; pauses under 3 s; and no syncope or "
        "presyncope.",
    ],
)
def test_an_absence_carried_over_an_or_is_one_absence_of_either(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "… and no A or B" inside a longer list says what "without A or B" says: NOT(OR(A, B)),
    both negated under one OR label (the contract, section 7), not two unrelated absences."""
    found = named(extract(lexicon, text))
    assert found["syncope"].negated and found["presyncope"].negated, found
    assert_one_or_group(found["syncope"], found["presyncope"])
    assert not found["sinus bradycardia"].negated
    assert found["sinus bradycardia"].or_group is None


@pytest.mark.parametrize(
    "text",
    [
        "Aspirin is recommended in patients with atrial fibrillation who are not on "
        "anticoagulation.",
        "Dual antiplatelet therapy is recommended after stenting if not on anticoagulation for "
        "another reason.",
        "A low starting dose is recommended in those not previously on anticoagulation.",
    ],
)
def test_not_on_a_therapy_is_its_absence(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "who are not on X", "if not on X", "not previously on X" say what "not receiving X"
    says: X is a therapy the patients do not have, negated (before, X came out as their
    background therapy, the cohort reversed, or "not previously" became a Condition)."""
    result = extract(lexicon, text)
    found = named(result)
    assert found["anticoagulation"].negated, found
    assert not any(c.normalized.lower().startswith("not ") for c in result.concepts)
