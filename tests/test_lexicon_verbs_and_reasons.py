"""More of the ways a row says "do it" or "do not" ("ought to be considered", "merits
consideration", "is a useful additional test", "has no role", "is preferable to X"), and more
of what names nothing (a reason after "since", "whatever the X", "continued afterwards"): read
by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "In adults with cardiac amyloidosis and LVEF below 40%, an ICD ought to be considered "
            "after syncope of arrhythmic origin.",
            "implantable cardioverter defibrillator",
        ),
        (
            "Exercise echocardiography merits consideration when symptoms and the severity of "
            "mitral stenosis are discordant.",
            "exercise echocardiography",
        ),
        (
            "Where transthoracic images are poor, cardiac CT is a useful additional test to "
            "measure the aortic annulus.",
            "cardiac computed tomography",
        ),
        (
            "Regular weight monitoring is advisable in older adults with heart failure.",
            "regular weight monitoring",
        ),
        (
            "Invasive electrophysiological testing has no role in the risk assessment of "
            "asymptomatic adults with short QT syndrome.",
            "invasive electrophysiological testing",
        ),
    ],
)
def test_more_ways_of_saying_the_act_is_or_is_not_advised(  # type: ignore[no-untyped-def]
    lexicon, text: str, act: str
) -> None:
    """ "ought to be considered", "merits consideration", "is a useful additional test",
    "is advisable", "has no role in": each says what the row advises for or against, so its
    subject is the act, named without the verb's words."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions


def test_preferable_to_names_what_the_act_is_preferred_over(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A or B is preferable to C": C is the comparator (as with "over C"), never part of
    an act's name; "a short steroid course" is the steroid."""
    found = named(
        extract(
            lexicon,
            "For pericarditis in patients with kidney disease, colchicine or a short corticosteroid "
            "course is preferable to NSAIDs.",
        )
    )
    assert found["corticosteroid"].role == "Medication"
    assert found["non-steroidal anti-inflammatory drug"].text == "NSAIDs"
    assert found["colchicine"].or_group == found["corticosteroid"].or_group is not None


def test_urgency_stays_with_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "emergency surgery", "urgent coronary angiography": how soon the act must be done
    changes what is asked for (contract §4), so the word stays in its name."""
    result = extract(
        lexicon, "Emergency surgery is recommended in patients with acute type A aortic dissection."
    )
    assert [a.normalized for a in result.actions] == ["emergency surgery"]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (
            "Catheter ablation is not recommended in children under 5 years, since the small "
            "heart may be damaged by the lesions.",
            "heart",
        ),
        (
            "Cardiac contractility modulation is not recommended in patients with HFrEF, "
            "because of increased mortality.",
            "mortality",
        ),
        (
            "Aspirin is recommended for all adults with coronary artery disease, whatever the "
            "type of stent implanted.",
            "stent",
        ),
        (
            "In patients with AF undergoing valve surgery for another indication, ablation may "
            "be considered, with oral anticoagulation continued afterwards.",
            "afterwards",
        ),
        (
            "In patients with AF undergoing valve surgery for another indication, ablation may "
            "be considered.",
            "indication",
        ),
    ],
)
def test_reasons_and_words_of_course_are_no_concepts(  # type: ignore[no-untyped-def]
    lexicon, text: str, word: str
) -> None:
    """ ", since X may …" and "because of increased mortality" say why; "whatever the X"
    says what does not matter (like "regardless of"); "continued afterwards" that the drug
    goes on; "for another indication" names no indication: none is a concept, and no span
    holds their words."""
    result = extract(lexicon, text)
    assert not [c for c in result.concepts if word in c.text.lower()], result.concepts


def test_an_adverb_after_the_verb_is_no_part_of_what_is_sought(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "screened periodically for anaemia": how often the screening is done; what it looks
    for is anaemia, not "periodically for anaemia"."""
    found = named(
        extract(
            lexicon,
            "Adults with chronic kidney disease should be screened periodically for anaemia.",
        )
    )
    assert found["anaemia"].text == "anaemia"


def test_given_before_a_time_only_says_the_drug_is_given(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an antibiotic given within 1 h before incision": the participle says it is given;
    the drug is named alone."""
    found = named(
        extract(
            lexicon,
            "An antibiotic given within 1 h before skin incision is recommended at every "
            "pacemaker implantation.",
        )
    )
    assert found["antibiotic"].text == "antibiotic"


def test_a_pronoun_that_fails_points_back_at_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… followed by adenosine if it fails": "it" is the manoeuvre already named as the
    act; its failure says when the next step comes, and the pronoun names nothing."""
    result = extract(
        lexicon,
        "Carotid sinus massage is recommended in patients with narrow-QRS tachycardia, followed "
        "by adenosine if it fails.",
    )
    assert not [
        c for c in result.concepts if c.text.lower() in ("it", "they") or "fail" in c.text
    ], result.concepts


def test_listed_adjectives_before_one_head_each_borrow_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "before dental, endoscopic or urological procedures": three kinds of procedure, each
    an alternative (contract §6, shared heads distributed), not "dental" alone."""
    found = named(
        extract(
            lexicon,
            "Antibiotic prophylaxis is not recommended before dental, endoscopic or urological "
            "procedures in adults with a bioprosthetic valve.",
        )
    )
    kinds = [found[f"{kind} procedure"] for kind in ("dental", "endoscopic", "urological")]
    assert {k.role for k in kinds} == {"Procedure"}
    assert len({k.or_group for k in kinds}) == 1 and kinds[0].or_group is not None


def test_what_the_compared_drug_may_do_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "NSAIDs, which can precipitate X and Y": why the other drug is preferred; X and Y
    are no criterion of the row."""
    result = extract(
        lexicon,
        "In adults with heart failure and gout, colchicine is preferred over NSAIDs, which can "
        "worsen renal function and fluid retention.",
    )
    assert not [c for c in result.concepts if "retention" in c.text or "renal" in c.text], (
        result.concepts
    )


@pytest.mark.parametrize(
    "effect", ["promote fluid retention", "raise cardiac output", "depress contractility"]
)
def test_what_a_named_drug_does_without_a_modal_is_no_concept(lexicon, effect: str) -> None:  # type: ignore[no-untyped-def]
    """ "glitazones, which promote fluid retention": a verb of effect with no "can" or "may"
    still gives the reason, no criterion. Before, the effect became a concept of its own."""
    result = extract(
        lexicon,
        f"Adults with heart failure should not receive NSAIDs or glitazones, which {effect}.",
    )
    word = effect.split()[-1]
    assert not [c for c in result.concepts if word in c.text], result.concepts
    assert {a.normalized for a in result.actions} == {
        "non-steroidal anti-inflammatory drug",
        "glitazone",
    }, result.actions


def test_a_defining_clause_of_effect_stays_in_the_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: without the comma, "drugs which increase bleeding" says which drugs; the clause
    is the name, no reason."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is not advised in adults taking drugs which increase bleeding.",
        )
    )
    assert "drugs which increase bleeding" in found, found


def test_a_hyphenated_manner_word_before_a_comma_qualifies_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a nurse-led, structured programme": the comma joins two words that say how the
    programme is run; one act, not "nurse-led" alone."""
    result = extract(
        lexicon,
        "A nurse-led, structured education programme is recommended for adults with heart failure.",
    )
    assert [a.text for a in result.actions] == ["nurse-led, structured education programme"]


def test_a_dose_in_words_before_a_time_is_no_part_of_the_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "starting a beta-blocker at high dose shortly before surgery": how much is given,
    with no article, before when; the drug is named alone."""
    result = extract(
        lexicon,
        "Starting a statin at high dose shortly before vascular surgery is not recommended.",
    )
    assert [a.normalized for a in result.actions] == ["statin"]


def test_a_pointer_to_national_rules_names_no_one(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…, following national schedules for booster doses": where the timing is set out,
    not a criterion of the row."""
    result = extract(
        lexicon,
        "Pneumococcal vaccination is recommended for adults with heart failure, following "
        "national schedules for booster doses.",
    )
    assert not [c for c in result.concepts if "schedule" in c.text], result.concepts


def test_not_at_a_risk_is_that_risk_negated(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "patients not at high bleeding risk": those without that risk (contract §7), not a
    condition named "not"."""
    found = named(
        extract(
            lexicon,
            "For patients not at high bleeding risk, extended antithrombotic therapy may be "
            "considered.",
        )
    )
    assert "not" not in found
    assert found["high bleeding risk"].negated is True


def test_a_range_of_risk_grades_after_they_are_at_is_one_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if they are at high or very high risk": the grades are one range (contract §6),
    whatever words lead into it; no "high" alone."""
    found = named(
        extract(
            lexicon,
            "A statin may be considered in adults over 75 years if they are at high or very "
            "high risk.",
        )
    )
    assert "high" not in found
    assert any(name.startswith("high or very high") for name in found), found


def test_no_role_in_the_prevention_of_names_the_aim(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X has no role in the prevention of stroke": stroke is what X is not for (an
    outcome), not a condition of the patients."""
    found = named(
        extract(
            lexicon,
            "Aspirin alone has no role in the prevention of stroke in patients with atrial "
            "fibrillation.",
        )
    )
    assert found["stroke"].role == "Outcome"


def test_an_abbreviated_test_ends_the_list_after_the_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Whenever X is unavailable, stress echocardiography, SPECT, PET or stress CMR is
    recommended": the last item ends in an abbreviation the word rules do not know as an
    act; the list is still the act's, one OR group."""
    result = extract(
        lexicon,
        "Whenever coronary CT angiography is unavailable, stress echocardiography, SPECT, PET "
        "or stress CMR is recommended in symptomatic patients.",
    )
    groups = {a.normalized: named(result)[a.normalized].or_group for a in result.actions}
    assert len(groups) == 4 and len(set(groups.values())) == 1 and None not in groups.values()


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Beta-blockers, which may be up-titrated, are recommended in all patients with HFrEF.",
            "heart failure with reduced ejection fraction",
        ),
        (
            "Aspirin is recommended whatever the stent type in patients with diabetes.",
            "diabetes mellitus",
        ),
        (
            "Influenza vaccination is recommended following national schedules for adults over "
            "65 years.",
            "age",
        ),
        (
            "An ICD should be considered in patients with HCM who had sustained VT on two "
            "occasions.",
            "sustained ventricular tachycardia",
        ),
    ],
)
def test_a_reason_or_a_pointer_never_takes_the_cohort_with_it(  # type: ignore[no-untyped-def]
    lexicon, text: str, kept: str
) -> None:
    """The rules that drop a reason (", which may …"), what does not matter ("whatever the
    X") or a pointer ("following national schedules") stop where the clause does: the
    patients named after them, and a verb after a mid-sentence ", which …," stay (found by
    the session's code review)."""
    assert kept in named(extract(lexicon, text))


def test_a_participle_after_not_or_an_adverb_stays_a_verb(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if an antibiotic is not given before incision": "given" is the clause's verb, not a
    participle after the drug's name; the drug is still named alone."""
    found = named(
        extract(
            lexicon,
            "If an antibiotic is not given before skin incision, a repeat dose is recommended at "
            "the end of surgery.",
        )
    )
    assert "antibiotic" in found and not [n for n in found if "not before" in n], found


def test_a_brief_course_of_a_disease_is_no_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a brief clinical course": how a disease runs; only a drug's course is the drug."""
    result = extract(
        lexicon,
        "Biopsy is not recommended in young adults with myocarditis and a brief clinical course.",
    )
    assert not [c for c in result.concepts if c.normalized == "clinical"], result.concepts
