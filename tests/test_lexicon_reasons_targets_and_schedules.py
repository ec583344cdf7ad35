"""A harm given as the reason, a dose titrated to a target, and how long or when an act is
done, none of them a concept. Every sentence here is the team's own.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    "text",
    [
        "Statins are not advised in pregnancy because of fetal harm.",
        "Statins are not advised in pregnancy owing to the risk of fetal harm.",
    ],
)
def test_a_harm_given_as_the_reason_is_no_concept(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "because of fetal harm": why the act is advised against, never an outcome aimed at
    nor a state of the patients; the patients (pregnancy) stay."""
    found = named(extract(lexicon, text))
    assert "pregnancy" in found, found
    assert not [n for n in found if "harm" in n], found


def test_a_state_the_patients_were_admitted_for_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "admitted because of HF" names the patients' state, not a reason for the act."""
    found = named(extract(lexicon, "Diuretics are advised in adults admitted because of HF."))
    assert "heart failure" in found, found


def test_a_dose_titrated_to_a_value_sets_a_target(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "warfarin titrated to an INR of 2.5": the drug is warfarin (never "warfarin
    titrated") and the INR is the value to reach."""
    result = extract(lexicon, "Warfarin titrated to an INR of 2.5 is advised after valve surgery.")
    found = named(result)
    assert [a.normalized for a in result.actions] == ["warfarin"], result.actions
    inr = found["international normalized ratio"]
    assert (inr.operator, inr.threshold) == ("=", 2.5), found


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "Clopidogrel continued to complete 12 months is advised in adults after stenting.",
            "clopidogrel",
        ),
        ("Angiography is advised in adults with STEMI, timed 2–24 h after lysis.", "angiography"),
    ],
)
def test_how_long_or_when_an_act_is_done_names_nothing(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """ "continued to complete 12 months" says how long, "timed 2–24 h after" when: no
    concept carries those words."""
    found = named(extract(lexicon, text))
    assert drug in found, found
    assert not [n for n in found if "continued" in n or "timed" in n or "complete" in n], found


def test_a_bridge_names_what_it_leads_to_and_nothing_else(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "as a bridge to transplantation": the transplant is what the act comes before, no
    "bridge to …" act; "as a bridge" or "as destination therapy" alone says how long the
    act is meant to last, no concept."""
    found = named(
        extract(
            lexicon,
            "In AV block, temporary pacing is advised as a bridge to pacemaker implantation.",
        )
    )
    assert found["pacemaker implantation"].role == "Procedure", found
    assert not [n for n in found if "bridge" in n], found
    for text in (
        "A wearable defibrillator may be advised as a bridge in adults with new cardiomyopathy.",
        "A ventricular assist device may be advised as destination therapy in advanced HF.",
    ):
        found = named(extract(lexicon, text))
        assert not [n for n in found if "bridge" in n or "destination" in n], found


def test_aims_to_speed_or_halve_are_outcomes(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to speed recovery and halve relapses": both are aims of the act (Outcomes), no
    condition named "to speed recovery"."""
    found = named(
        extract(
            lexicon, "Colchicine is advised in gout flares to speed recovery and halve relapses."
        )
    )
    assert found["recovery"].role == "Outcome" and found["relapse"].role == "Outcome", found
    assert not [n for n in found if n.startswith(("to speed", "halve"))], found


@pytest.mark.parametrize(
    "text",
    [
        "Glitazones are not advised in adults with HF because they may worsen oedema.",
        "Glitazones are not advised in adults with HF, unless no alternative exists.",
    ],
)
def test_a_reason_said_by_a_pronoun_or_a_last_resort_names_nothing(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "because they may worsen X" says why (a reason, said of the act), and "unless no
    alternative exists" only when nothing else is at hand: neither is a state of the
    patients."""
    found = named(extract(lexicon, text))
    assert "heart failure" in found, found
    assert not [n for n in found if "oedema" in n or "alternative" in n], found


def test_a_duration_said_about_is_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for about 3 months", like "for 3 months", says how long."""
    found = named(
        extract(lexicon, "Colchicine for about 3 months is advised in adults with pericarditis.")
    )
    assert "colchicine" in found and not [n for n in found if "month" in n], found


def test_nor_for_names_another_case_of_a_class_iii_row(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "not advised for A, nor for B": B is one more case, like "or for B": the two are
    alternatives under one OR label, and no name starts with "nor"."""
    found = named(
        extract(
            lexicon,
            "Pacing is not advised for asymptomatic bradycardia, nor for bradycardia due to a "
            "reversible cause.",
        )
    )
    assert not [n for n in found if n.startswith("nor")], found
    first, second = (
        found["asymptomatic bradycardia"],
        found["bradycardia due to a reversible cause"],
    )
    assert first.or_group is not None and first.or_group == second.or_group, found


def test_a_code_reviews_cases_read_as_their_rules_mean(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Found by a review of these rules' code: a harm's "of X" stops before the patients
    named after it; a drug causing a state stays one drug; an age word capitalised is still
    an age; a dose adjusted to something other than a value sets no target; a bridge with
    no article is still a bridge."""
    found = named(
        extract(
            lexicon,
            "Metformin is not advised because of the risk of lactic acidosis in adults with severe CKD.",
        )
    )
    assert "severe chronic kidney disease" in found, found
    assert not [n for n in found if "acidosis" in n], found
    result = extract(
        lexicon, "Amiodarone causing hypothyroidism should be stopped in adults with AF."
    )
    assert not [a for a in result.actions if "hypothyroidism" == a.normalized.split(" of ")[-1]]
    found = named(extract(lexicon, "Statins are advised in adults Aged ≥ 75 with diabetes."))
    assert (found["age"].operator, found["age"].unit) == (">=", "years"), found
    found = named(extract(lexicon, "Dabigatran adjusted to renal function is advised in AF."))
    assert not [c for c in found.values() if c.role == "Outcome"], found
    found = named(
        extract(
            lexicon, "In HF, a ventricular assist device is advised as bridge to transplantation."
        )
    )
    assert not [n for n in found if "bridge" in n], found


def test_a_reason_by_a_pronoun_ends_at_its_colon_or_comma(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "because they may worsen it: • A; • B": the reason ends at the colon, so the drugs
    listed after it stay; ", in adults with X" after a reason's comma stays too."""
    found = named(
        extract(
            lexicon,
            "The following drugs are not advised in adults with HF because they may worsen it: "
            "• glitazones; • NSAIDs.",
        )
    )
    assert "glitazone" in found and "non-steroidal anti-inflammatory drug" in found, found
    found = named(
        extract(
            lexicon, "Glitazones are not advised because they may worsen HF, in adults with gout."
        )
    )
    assert "gout" in found, found
