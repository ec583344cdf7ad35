"""Rules kept narrow: wording that looks like what a rule reads but must not be read so (a
pattern that is no diet, an adjective "complicating", a disease after "and", a rank with its
aim after it, a time window counted from "the procedure", a hyphenated prefix before the
word). In the team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract, named, row_of


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


# The twenty-eighth session's review: look-alike wording the session's rules misread.


def test_a_state_that_is_poorly_tolerated_keeps_its_predicate(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if the tachycardia is poorly tolerated": not a therapy the patient cannot have, so
    the state is read whole, as before (only a drug or procedure becomes "intolerance")."""
    found = named(
        extract(lexicon, "Cardioversion is advised if the tachycardia is poorly tolerated.")
    )
    assert "tachycardia" not in found, found


def test_a_clause_with_its_own_verb_before_and_is_not_absent(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if AF persists and TOE is not available": two clauses; AF persisting is not missing
    (nor is it "persistent AF", a kind of AF of its own)."""
    found = named(
        extract(lexicon, "Cardioversion may be done if AF persists and TOE is not available.")
    )
    assert not found["atrial fibrillation"].negated, found


def test_in_such_cases_opening_a_sentence_keeps_the_sentences_apart(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "…myocarditis. In such cases, biopsy should be considered.": the pointer goes, the
    second sentence still recommends the biopsy."""
    result = extract(
        lexicon,
        "CMR is advised in adults with suspected myocarditis. In such cases, biopsy should be"
        " considered.",
    )
    assert "biopsy" in [a.normalized for a in result.actions], result.actions


def test_a_however_caveat_ends_at_its_sentence_and_a_new_advice_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The caveat does not end at a decimal point or "e.g."; a "However" sentence that
    recommends something of its own is kept."""
    kept = named(
        extract(
            lexicon,
            "Statins are advised in adults with gout. However, if LDL-C remains >1.8 mmol/L,"
            " ezetimibe should be added.",
        )
    )
    assert not any("8 mmol" in n for n in kept), kept
    advised = named(
        extract(
            lexicon,
            "Surgery is not advised in adults with gout. However, it should be considered in"
            " adults with a mechanical valve.",
        )
    )
    assert "mechanical valve" in advised, advised


def test_a_schedule_from_an_event_that_names_nothing_leaves_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at 3 and 6 months after the onset of symptoms", "after hospital discharge": when,
    not what the patients had."""
    for sentence in (
        "Imaging is advised at 3 and 6 months after the onset of symptoms in adults.",
        "Imaging is advised at 1 and 3 months after hospital discharge in adults.",
    ):
        found = named(extract(lexicon, sentence))
        assert not any("onset" in n or "discharge" in n for n in found), found


def test_a_slash_pair_naming_one_measure_stays_one(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "an LDL-C/HDL-C ratio >3": one ratio, not LDL-C or an HDL-C ratio; "SPECT/CTA
    fusion imaging" is one test."""
    fused = named(extract(lexicon, "SPECT/CTA fusion imaging is advised in adults with gout."))
    assert not [c for c in fused.values() if c.or_group], fused
    found = named(extract(lexicon, "Statins are advised in adults with an LDL-C/HDL-C ratio >3."))
    ratios = [c for c in found.values() if c.role == "ClinicalParameter"]
    assert len(ratios) == 1 and "ratio" in ratios[0].normalized, found


def test_non_drug_management_and_a_correction_are_not_drugs_or_groups(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "non-pharmacological management" is no drug; "in addition to correction of
    electrolyte abnormalities" is a co-therapy, not a group of patients."""
    found = named(extract(lexicon, "Non-pharmacological management is advised in adults."))
    assert found["non-pharmacological management"].role == "Procedure", found
    result = lexicon.extract(
        row_of("Amiodarone is advised in addition to correction of electrolyte abnormalities."),
        "POPULATION",
    )
    assert not [c for c in result.concepts if "correction" in c.normalized], result.concepts


def test_units_of_blood_are_no_dose_and_as_well_as_keeps_the_co_therapy(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "more than 4 U of red cells" keeps its words (only "U/kg" is a dose); "as well as
    standard therapy" names a therapy given beside the act."""
    found = named(
        extract(lexicon, "Ivabradine as well as standard therapy is advised in adults with gout.")
    )
    assert "standard therapy" in found, found
    blood = extract(lexicon, "Transfusion of more than 4 U of red cells is not advised in adults.")
    assert any("red cell" in c.normalized for c in blood.concepts), blood.concepts


def test_or_before_in_the_presence_of_keeps_the_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "in adults with AF or in the presence of LV thrombus": the "or" offers the second
    case instead of the first, so it keeps an OR label."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is advised in adults with AF or in the presence of LV thrombus.",
        )
    )
    assert found["left ventricular thrombus"].or_group is not None, found


def test_an_aneurysm_measured_with_a_verb_names_only_the_lesion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when the aneurysm diameter exceeds 55 mm": the lesion's name ends before the verb
    that compares it."""
    found = named(extract(lexicon, "Repair is advised when the aneurysm diameter exceeds 55 mm."))
    assert "aneurysm" in found and not any("exceed" in n for n in found), found


# The second review of the twenty-eighth session's later rules.


def test_a_schedule_after_the_onset_of_a_disease_keeps_the_disease(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at 3 and 12 months after the onset of myocarditis": the disease stays (only "the
    onset of symptoms" or "of treatment" names nothing)."""
    found = named(
        extract(
            lexicon,
            "Echocardiography should be repeated at 3 and 12 months after the onset of myocarditis.",
        )
    )
    assert any("myocarditis" in n for n in found), found


def test_such_as_in_a_named_group_is_no_comparison(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "such as in non-valvular AF with a score of 2": an example of the patients, kept."""
    found = named(
        extract(
            lexicon,
            "Anticoagulation is advised in adults with AF, such as in non-valvular"
            " AF with a CHA2DS2-VASc score of 2.",
        )
    )
    assert "non-valvular atrial fibrillation" in found, found


def test_activity_that_is_no_exercise_stays_a_finding(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "pulseless electrical activity", "ectopic activity": findings; only exercise words
    ("aerobic activity") make an activity something the patient does."""
    found = named(
        extract(lexicon, "ICD is advised in patients with pulseless electrical activity.")
    )
    assert found["pulseless electrical activity"].role == "Condition", found


def test_a_bolus_in_units_is_a_dose(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "UFH 5000 U i.v. bolus": a dose, no part of the drug's name."""
    result = extract(lexicon, "UFH 5000 U i.v. bolus is recommended in patients with STEMI.")
    assert [a.normalized for a in result.actions] == ["unfractionated heparin"], result.actions


def test_first_seen_with_and_a_gender_identity_keep_their_reading(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when a patient is first seen with palpitations" keeps the clause; "transgender
    female patients" is one group, not two."""
    seen = named(
        extract(
            lexicon, "When a patient is first seen with palpitations, a 12-lead ECG is recommended."
        )
    )
    assert any("palpitation" in n for n in seen), seen
    group = named(
        extract(
            lexicon, "Assessment is advised in transgender female patients receiving oestrogen."
        )
    )
    assert "female" not in group, group


def test_in_keeping_with_is_one_finding(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "symptoms in keeping with bradycardia": one finding, like "consistent with"."""
    found = named(
        extract(lexicon, "Pacing is advised in adults with symptoms in keeping with bradycardia.")
    )
    assert "symptoms in keeping with bradycardia" in found, found
