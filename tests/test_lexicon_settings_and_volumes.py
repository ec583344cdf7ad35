"""Who does an act and how many of them a place does ("by trained operators with annual
volumes of ≥50 procedures at centres doing ≥300 TAVIs per year"), a result clause (", so
that …"), a who-clause with a time adverb ("who later undergo X"), a threshold given
for a second group ("≥57 mm in men or ≥52 mm in women"), a cumulative dose bound, and the
last check of a schedule.
In the team's own sentences.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.measurements import find_measurements
from tests.lexicon_fixtures import assert_one_act_and_no_word, extract


def test_a_count_of_procedures_is_a_measurement() -> None:
    """ "≥300 TAVIs per year", "≥150 CABG cases", "annual volumes of ≥50 procedures": how many
    procedures a centre or an operator does is a quantity with its own unit; days a year
    are not procedures."""
    for text in (
        "centres performing ≥300 TAVIs per year",
        "centres with ≥150 CABG cases",
        "operators with annual volumes of ≥50 procedures",
    ):
        (found,) = find_measurements(text)
        assert (found.operator, found.threshold, found.unit) == (
            ">=",
            found.threshold,
            "procedures",
        ), text
    (days,) = find_measurements("exercise on ≥5 days per year")
    assert days.unit == "days"


def test_trained_operators_are_a_setting_but_their_volume_is_kept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "done by trained operators with a yearly volume of ≥50 procedures": who does the
    act is no state of the patients, and no act of its own; the volume they must reach is a
    criterion and stays."""
    result = extract(
        lexicon,
        "It should be considered that TAVI be done by trained operators with a yearly"
        " volume of ≥50 procedures at centres performing ≥300 TAVIs per year.",
    )
    assert not [
        c for c in result.concepts if "operator" in c.normalized and c.role != "ClinicalParameter"
    ]
    volumes = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert sorted(c.threshold for c in volumes) == [50.0, 300.0], volumes


def test_a_result_clause_names_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ ", so that DAPT carries on until the planned course ends": what following the advice
    brings about, told as its result; it adds no act and names nothing the patients have."""
    assert_one_act_and_no_word(
        lexicon,
        "In adults on DAPT who need hip surgery, it is advised to resume ticagrelor after the"
        " operation, so that DAPT carries on until the planned course ends.",
        "ticagrelor",
        "so that",
    )


def test_a_time_adverb_in_a_who_clause_keeps_the_procedure_apart(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who subsequently undergo hip surgery": the adverb says when; the surgery is what the
    patients undergo, named alone."""
    result = extract(
        lexicon,
        "In adults on aspirin who subsequently undergo hip surgery, restarting clopidogrel is"
        " advised.",
    )
    assert "hip surgery" in {c.text for c in result.concepts if c.role == "Procedure"}, (
        result.concepts
    )


@pytest.mark.parametrize(
    "text",
    [
        "Ticagrelor is advised in adults with angina who proceed to bypass surgery.",
        "Ticagrelor is advised in adults with angina proceeding to bypass surgery.",
    ],
)
def test_proceeding_to_a_procedure_is_undergoing_it(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "who proceed to X", "proceeding to X": X is what the patients go on to undergo, a
    procedure named alone, like "undergoing X"."""
    result = extract(lexicon, text)
    assert "bypass surgery" in {c.text for c in result.concepts if c.role == "Procedure"}, (
        result.concepts
    )


def test_a_second_groups_threshold_is_kept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if the aneurysm diameter is ≥57 mm in men or ≥52 mm in women": the second value is
    the women's threshold of the same diameter; it was read into the men's group and lost,
    so a woman at 52 mm would have matched no criterion."""
    result = extract(
        lexicon,
        "Elective repair is advised if the aneurysm diameter is ≥57 mm in men or ≥52 mm in women.",
    )
    values = sorted(
        (c.normalized, c.threshold) for c in result.concepts if c.role == "ClinicalParameter"
    )
    assert values == [("aneurysm diameter", 52.0), ("aneurysm diameter", 57.0)], values
    assert {"men", "women"} <= {c.normalized for c in result.concepts}


def test_a_cumulative_dose_bound_is_a_measurement(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "after a cumulative dose of ≥300 mg/m2 of epirubicin": the exposure reached is a
    bound the patients pass, a measured criterion; the drug it is of is named alone. A dose
    given ("epirubicin 60 mg/m2") stays a dose, never a measurement."""
    result = extract(
        lexicon,
        "In low-risk adults, echocardiography is advised after a cumulative dose of ≥300 mg/m2"
        " of epirubicin.",
    )
    dose = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert [(c.normalized, c.operator, c.threshold, c.unit) for c in dose] == [
        ("cumulative dose", ">=", 300.0, "mg/m²")
    ], dose
    assert "epirubicin" in {c.text for c in result.concepts if c.role == "Medication"}
    assert not find_measurements("epirubicin 60 mg/m2 on day 1")


def test_the_last_check_of_a_schedule_is_no_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "every 3 months and within 6 months after stopping treatment": the window is the last
    check of the schedule, when the act is done; it is no state of the patients. A window
    said alone ("within 6 months after surgery") is read as before."""
    result = extract(
        lexicon,
        "In adults on trastuzumab, echocardiography is advised every 3 months and within 6"
        " months after stopping treatment.",
    )
    assert not [c for c in result.concepts if c.role == "ClinicalParameter"], result.concepts
    alone = extract(
        lexicon, "In adults after valve surgery, echocardiography is advised within 6 months."
    )
    assert "echocardiography" in {a.normalized for a in alone.actions}
