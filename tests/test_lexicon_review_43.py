"""Guards for what the rule review and the code review of the forty-third session found in
its new rules, each in the team's own sentence: a negation kept in an imperative row's
clause, adjectives and "to" after an imperative verb, kinds after a disease only for kind
words, a composite rate only for events, a second unit said again never across a
percentage, waits after a list of events, per-sex values followed by a measured
alternative, "as long as there are no X", "alone or in combination with Y".
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.coordination import kinds_after_head
from cardio_assets.logic.lexicon.sentence_leads import framed_imperative
from cardio_assets.logic.measurements import find_measurements
from tests.lexicon_fixtures import assert_one_or_group, extract, named


def test_an_imperative_row_keeps_the_negation_of_its_clause(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Give fibrinolysis if primary PCI is not available": the PCI is absent. The framed
    reading ("It is recommended to …") used to drop "is not" with the verbs it strips."""
    found = named(extract(lexicon, "Administer fibrinolysis if primary PCI is not available."))
    pci = found["primary percutaneous coronary intervention"]
    assert pci.negated, found


@pytest.mark.parametrize(
    "text",
    [
        "Close monitoring of potassium in patients on an MRA.",
        "Close follow-up in patients with repaired coarctation.",
        "Refer to the section on heart failure.",
        "Continue to monitor patients with AF.",
    ],
)
def test_no_imperative_frame_for_an_adjective_or_a_verb_before_to(text: str) -> None:
    """ "Close monitoring" is an adjective and a noun; "Refer to", "Continue to" take no
    object: none is read as "It is recommended to …"."""
    assert framed_imperative(text) is None


def test_an_imperative_frame_keeps_the_verb_as_printed() -> None:
    assert framed_imperative("Implant an ICD in survivors.") == (
        "It is recommended to Implant an ICD in survivors."
    )


@pytest.mark.parametrize(
    "items",
    [
        ["⟦P0⟧", "symptomatic", "asymptomatic"],  # a value before the comma: no disease
        ["a beta-blocker", "diuretic", "antiarrhythmic"],  # nouns shaped like adjectives
    ],
)
def test_kinds_after_a_head_only_after_a_disease_and_for_kind_words(items: list) -> None:
    assert kinds_after_head(items, [",", "or"]) is None


def test_kinds_after_a_head_keep_every_kind(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "atrial flutter, paroxysmal or persistent": both kinds, one label (the second kind
    word was dropped as a stop word before its completed name was read)."""
    found = named(
        extract(
            lexicon, "Anticoagulation is recommended in atrial flutter, paroxysmal or persistent."
        )
    )
    assert_one_or_group(found["paroxysmal atrial flutter"], found["persistent atrial flutter"])


@pytest.mark.parametrize(
    "text,name",
    [
        ("Ablation is advised with a high risk of stroke or heart rate >120 bpm.", "heart rate"),
        ("Dialysis is advised with a high risk of bleeding or creatinine >3 mg/dL.", "creatinine"),
    ],
)
def test_a_risk_before_a_measured_quantity_is_no_composite_rate(
    lexicon, text: str, name: str
) -> None:  # type: ignore[no-untyped-def]
    """Only a rate (a percentage) of two events is one quantity; a heart rate or a creatinine
    after "or" is a criterion of its own."""
    found = named(extract(lexicon, text))
    assert found[name].role == "ClinicalParameter", found


def test_a_percentage_in_brackets_after_i_e_is_no_second_unit() -> None:
    """ "HR >100 bpm (i.e., 30% above baseline)": another quantity, never the heart rate
    in a second unit."""
    found = find_measurements("a heart rate >100 bpm (i.e., 30% above baseline)")
    assert found[0].alt_values == [], found


def test_waits_after_a_list_of_events_join_the_next_event(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "6 months after PCI or CABG and 12 months after an ACS": all three events are
    alternatives (before, the chain broke at "or CABG")."""
    found = named(
        extract(
            lexicon,
            "Elective surgery should be delayed until 6 months after PCI or CABG and 12 months "
            "after an ACS.",
        )
    )
    assert_one_or_group(
        found["percutaneous coronary intervention"], found["acute coronary syndrome"]
    )


def test_a_measured_alternative_after_per_sex_values_joins_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    result = extract(
        lexicon,
        "Repair is recommended with an aortic diameter ≥51 mm in men or ≥46 mm in women, or "
        "growth ≥4 mm/year.",
    )
    growth = named(result)["growth"]
    diameters = [c for c in result.concepts if c.normalized == "aortic diameter"]
    assert len(diameters) == 2 and all(d.or_group == growth.or_group for d in diameters)
    assert growth.or_group is not None


def test_as_long_as_there_are_no_contraindications_is_their_absence(lexicon) -> None:  # type: ignore[no-untyped-def]
    found = named(
        extract(lexicon, "Ivabradine is recommended as long as there are no contraindications.")
    )
    assert found["contraindication"].negated, found


def test_alone_or_in_combination_with_a_drug_gives_the_drug_beside(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Ivabradine alone or in combination with beta-blockers": ivabradine is recommended,
    the beta-blocker given with it; no "ivabradine alone"."""
    found = named(
        extract(
            lexicon, "Ivabradine alone or in combination with beta-blockers should be considered."
        )
    )
    assert "ivabradine" in found and "beta-blocker" in found, found
    assert not [n for n in found if "alone" in n], found
