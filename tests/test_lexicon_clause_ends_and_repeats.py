"""Where an opening "If / When / Where …" clause ends, what is left of a time counted from
nothing the row names, how often a value must be seen, and a range of grades after its
noun: read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named, roles


@pytest.mark.parametrize("lead", ["Where", "When", "If"])
def test_an_opening_clause_ends_at_its_first_comma_before_the_acts_list(  # type: ignore[no-untyped-def]
    lexicon, lead: str
) -> None:
    """ "Where X cannot be taken, A, B, C or D may be considered": the clause has its verb
    before the first comma and nothing after it has one, so every item after that comma is
    one of the alternatives recommended (one OR group), even the ones the vocabulary does
    not know by name, and the clause is the condition (X's intolerance)."""
    text = (
        f"{lead} ivabradine is not tolerated, digoxin, amiloride, a long-acting nitrate or a "
        "beta-blocker may be considered in patients with chronic angina."
    )
    result = extract(lexicon, text)
    found = named(result)
    actions = {a.normalized for a in result.actions}
    assert {"digoxin", "amiloride", "beta-blocker"} <= actions, result.actions
    assert len({found[a].or_group for a in actions}) == 1 and found["digoxin"].or_group
    assert ("Condition", "ivabradine intolerance") in roles(result)


def test_a_list_inside_the_clause_stays_the_clauses_own(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If A, B or C is present, X is recommended": the clause's verb comes after its list,
    so the list is what the clause asks for, not the act."""
    result = extract(
        lexicon, "If heart failure, angina or syncope is present, valve surgery is recommended."
    )
    assert [a.normalized for a in result.actions] == ["valve surgery"]
    found = named(result)
    assert found["angina"].role == "Condition" and found["angina"].or_group


def test_a_phrase_after_the_clause_is_no_item_of_the_acts_list(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If X is seen, without evidence of Y, Z should be considered": what follows the
    clause's comma opens a phrase of its own ("without …"), so the clause does not end
    there as before a list; Z alone is the act and Y stays negated."""
    result = extract(
        lexicon,
        "If the sac of a repaired aneurysm is seen to grow, without evidence of an endoleak, "
        "repeat CT imaging should be considered.",
    )
    assert [a.normalized for a in result.actions] == ["repeat computed tomography imaging"]
    assert [c.negated for c in result.concepts if "endoleak" in c.normalized] == [True]


def test_instead_at_the_end_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… is recommended instead": the word points back to what the act replaces, named
    earlier in the row; it names nothing itself."""
    result = extract(
        lexicon, "In patients with gout, febuxostat or colchicine should be considered instead."
    )
    assert not [c for c in result.concepts if "instead" in c.text.lower()], result.concepts


@pytest.mark.parametrize(
    "text",
    [
        "Cardiac MRI performed at least 6 weeks after the event should be considered in "
        "patients with myocarditis.",
        "A cardiac MRI done 8 weeks after the index event is advised in adults with myocarditis.",
    ],
)
def test_a_time_after_an_event_the_row_does_not_name_only_times_the_act(  # type: ignore[no-untyped-def]
    lexicon, text: str
) -> None:
    """ "performed at least 6 weeks after the event": "the event" points at nothing of the
    patients' own, so the time says when the scan is done (no criterion), the participle
    says only that it is done, and neither "event" nor "performed" is a concept."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == ["cardiac magnetic resonance imaging"]
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"], result.concepts
    assert not [c for c in result.concepts if "event" in c.normalized], result.concepts
    assert not [c for c in result.concepts if "performed" in c.text or " done" in c.text]


def test_onset_after_how_long_a_state_has_lasted_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "symptoms persisting more than 3 months after onset": the duration of the symptoms is
    the criterion; "onset" only says where the count starts."""
    found = named(
        extract(
            lexicon,
            "Referral to a specialist clinic is recommended for patients with palpitations "
            "persisting more than 3 months after onset.",
        )
    )
    assert "onset" not in found
    assert found["palpitation duration"].operator == ">"


def test_a_window_after_onset_stays_a_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "within 24 hours after the onset of symptoms": a window counted from the onset is
    whom the act is for (those still inside it), a time-since parameter."""
    found = named(
        extract(
            lexicon,
            "Brain imaging is recommended within 24 hours after the onset of symptoms in "
            "patients with suspected stroke.",
        )
    )
    window = found["time since onset of symptom"]
    assert (window.operator, window.threshold, window.unit) == ("<=", 24.0, "h")


@pytest.mark.parametrize(
    ("text", "parameter"),
    [
        (
            "Type 2 diabetes is diagnosed by an HbA1c ≥6.5% on two separate occasions.",
            "hemoglobin a1c",
        ),
        (
            "Drug treatment is recommended in adults with office BP ≥140/90 mmHg, confirmed on "
            "repeated measurement.",
            "office blood pressure",
        ),
        (
            "A statin is recommended in adults with LDL-C ≥4.9 mmol/L measured on at least two "
            "occasions.",
            "low density lipoprotein cholesterol",
        ),
        (
            "Diabetes is diagnosed by an HbA1c of 6.5% (48 mmol/mol) or higher on two separate "
            "occasions.",
            "hemoglobin a1c",
        ),
    ],
)
def test_how_often_a_value_must_be_seen_is_no_concept(  # type: ignore[no-untyped-def]
    lexicon, text: str, parameter: str
) -> None:
    """ "on two separate occasions", "confirmed on repeated measurement": how often the value
    must be found to count; the value is the criterion, the repetition names nothing."""
    result = extract(lexicon, text)
    assert parameter in named(result)
    assert not [c for c in result.concepts if "occasion" in c.text or "repeated" in c.text], (
        result.concepts
    )


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        (
            "Yearly review is recommended for adults with congenital heart disease of "
            "moderate or great complexity.",
            "congenital heart disease of moderate or great complexity",
        ),
        (
            "Stress imaging should be considered in patients with aortic stenosis of uncertain "
            "severity.",
            "aortic stenosis of uncertain severity",
        ),
    ],
)
def test_a_range_of_grades_after_its_noun_is_one_concept(  # type: ignore[no-untyped-def]
    lexicon, text: str, condition: str
) -> None:
    """ "of moderate or great complexity" is a range on one scale (contract §6: severity
    ranges stay one concept) and says which patients; so does a grade not known ("of
    uncertain severity"): both stay in the name, no OR of two grades."""
    found = named(extract(lexicon, text))
    assert found[condition].role == "Condition"
    assert found[condition].or_group is None


def test_a_single_grade_after_its_noun_still_goes(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "stenosis of high anatomical complexity" (the grade a score in the row restates) stays
    named by the disease alone, as before."""
    found = named(
        extract(
            lexicon,
            "Bypass surgery is recommended in patients with left main stenosis of high "
            "anatomical complexity.",
        )
    )
    assert "left main stenosis" in found


def test_once_opens_a_clause_after_the_cohort(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, once reversible causes (e.g. A, B) have been excluded": "once" says when, like
    "after"; the cohort before it is not negated, the excluded causes are, and the examples
    are their own OR group ("once daily" is a schedule and never opens a clause)."""
    found = named(
        extract(
            lexicon,
            "Permanent pacing is indicated in adults with complete heart block, once reversible "
            "causes (e.g. drugs, hypothyroidism) have been excluded.",
        )
    )
    assert found["complete heart block"].negated is False
    assert found["reversible cause"].negated is True
    assert found["hypothyroidism"].negated is True
    assert found["hypothyroidism"].or_group != found["complete heart block"].or_group
    assert found["drug"].or_group == found["hypothyroidism"].or_group is not None


def test_a_compound_of_the_same_kind_marks_where_the_shared_head_starts(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "first-degree or Mobitz type I second-degree AV block": "second-degree" is the other
    item's word of the same kind as "first-degree", so "AV block" after it is the head both
    share (contract §6), not "type I second-degree AV block"."""
    found = named(
        extract(
            lexicon,
            "Pacing is not recommended in asymptomatic first-degree or Mobitz type I "
            "second-degree AV block.",
        )
    )
    assert "asymptomatic first-degree av block" in found, found


def test_a_decision_made_to_proceed_is_the_state_the_row_is_for(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "once the decision has been made to proceed with X": the patients for whom X has
    been decided, a condition named "decision to proceed with X" (not the act X)."""
    found = named(
        extract(
            lexicon,
            "A loading dose of ticagrelor is recommended once the decision has been made to "
            "proceed with surgery.",
        )
    )
    assert found["decision to proceed with surgery"].role == "Condition"


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        (
            "A long-acting, once-daily calcium channel blocker should be considered in "
            "patients with vasospastic angina.",
            "calcium channel blocker",  # (the schedule word is no part of the name)
        ),
        (
            "Loop recorder monitoring should be considered in patients with syncope occurring "
            "more than once without a diagnosis after initial evaluation.",
            "syncope occurring more than once",
        ),
    ],
)
def test_once_in_a_schedule_or_a_count_opens_no_clause(  # type: ignore[no-untyped-def]
    lexicon, text: str, concept: str
) -> None:
    """ "once-daily" is a schedule and "more than once" a count: neither "once" says when,
    so neither opens a clause (found by the rule review of this session)."""
    assert concept in named(extract(lexicon, text))


def test_once_excluded_by_a_test_is_the_excluded_thing_negated(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "once complications have been excluded by repeat imaging": the complications are
    absent; how they were excluded names no criterion."""
    found = named(
        extract(
            lexicon,
            "Oral antibiotics may be considered in stable patients with endocarditis, once "
            "abscess has been excluded by repeat imaging.",
        )
    )
    assert found["abscess"].negated is True


def test_presenting_late_after_onset_is_the_time_since_symptom_onset(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "STEMI presenting more than 48 h after onset": how late the patients come is a
    criterion, the time since their symptoms began; the span is the value as printed."""
    found = named(
        extract(
            lexicon,
            "Routine PCI of an occluded artery is not recommended in stable patients with STEMI "
            "presenting more than 48 h after onset.",
        )
    )
    since = found["time from symptom onset"]
    assert (since.operator, since.threshold, since.unit, since.text) == (
        ">",
        48.0,
        "h",
        "more than 48 h",
    )
    assert "onset" not in found


def test_not_at_a_risk_followed_by_and_negates_nothing_else(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who are not at high bleeding risk and have diabetes": rewriting "not at" as
    "without" would negate diabetes too, so that clause is left as it was."""
    found = named(
        extract(
            lexicon,
            "Extended antithrombotic therapy should be considered in patients with multivessel "
            "disease who are not at high bleeding risk and have diabetes.",
        )
    )
    assert found["diabetes mellitus"].negated is False
