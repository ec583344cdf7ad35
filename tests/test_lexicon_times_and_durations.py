"""Time read with what it is counted from or what it measures: "3–6 months after X" (the
time since X), "AF lasting <48 h" (how long a state has gone on), and what is left of a
duration or a schedule (no concept): read by rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "event", "operator", "threshold", "unit"),
    [
        (
            "Going back to competitive rowing may be considered 3–6 months after acute "
            "pericarditis in athletes with a normal echocardiogram.",
            "acute pericarditis",
            "between",
            [3.0, 6.0],
            "months",
        ),
        (
            "A repeat stress test 6 weeks after valve surgery is advised in adults with "
            "exertional breathlessness.",
            "valve surgery",
            "=",
            6.0,
            "weeks",
        ),
    ],
)
def test_a_time_after_an_event_the_patients_had_is_the_time_since_it(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    event: str,
    operator: str,
    threshold: float | list[float],
    unit: str,
) -> None:
    """ "3–6 months after acute pericarditis": when the act comes, counted from something the
    patients went through, says whom it is for (those that far from the event), so it is the
    time since that event (contract §5) and the event is still named on its own; the value
    must not be cut away from the event it counts from."""
    found = named(extract(lexicon, text))
    since = found[f"time since {event}"]
    assert (since.role, since.operator, since.threshold, since.unit) == (
        "ClinicalParameter",
        operator,
        threshold,
        unit,
    ), since
    assert event in found, found


@pytest.mark.parametrize(
    "text",
    [
        # how long the act goes on
        "Light training for 3 months after myocarditis is advised in young athletes.",
        # one point of a schedule
        "Echocardiography every 6 months and 12 months after chemotherapy is advised.",
        # when to act after a dose, no state of the patients
        "Spinal anaesthesia is advised 12 h after the last dose of enoxaparin.",
        # counted from an event no patient has of their own
        "A wound check 2 weeks after the procedure is advised.",
    ],
)
def test_a_duration_or_a_schedule_after_an_event_is_no_time_since_it(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """How long something goes on, one point of a schedule or the hour an act is timed at
    after a dose is about the act, not about whom it is for: no time-since parameter, and no
    stray number left behind as a concept of its own."""
    found = named(extract(lexicon, text))
    assert not [n for n in found if n.startswith("time since")], found
    assert not [n for n in found if any(ch.isdigit() for ch in n)], found


@pytest.mark.parametrize(
    "text",
    [
        "If the operation can be deferred (e.g. at least 3 months), anticoagulation should be "
        "completed first.",
        "Pausing rivaroxaban for at least 2 days before surgery and at least 6 days before "
        "neurosurgery is advised.",
    ],
)
def test_an_amount_of_time_alone_is_no_concept(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "at least 3 months" left over once the rules read its event apart says how long or
    when; it names no disease, act or outcome, so no concept is made of it (a parameter keeps
    its value, and a row's only act is never dropped)."""
    found = extract(lexicon, text)
    leftovers = [
        c
        for c in found.concepts
        if c.role != "ClinicalParameter" and any(ch.isdigit() for ch in c.text)
    ]
    assert not leftovers, leftovers


@pytest.mark.parametrize(
    ("text", "state", "operator", "threshold", "unit"),
    [
        (
            "Cardioversion is advised in adults with AF lasting less than 48 hours.",
            "atrial fibrillation",
            "<",
            48.0,
            "h",
        ),
        (
            "Primary PCI is advised in adults with chest pain of less than 12 h duration and "
            "ST elevation.",
            "chest pain",
            "<",
            12.0,
            "h",
        ),
    ],
)
def test_how_long_a_state_has_lasted_is_its_duration(  # type: ignore[no-untyped-def]
    lexicon, text: str, state: str, operator: str, threshold: float, unit: str
) -> None:
    """ "AF lasting <48 h", "chest pain of <12 h duration": how long the patients' state has
    gone on is a criterion on it, the state's duration; the state is still named on its own
    rather than glued to its value."""
    found = named(extract(lexicon, text))
    duration = found[f"{state} duration"]
    assert (duration.role, duration.operator, duration.threshold, duration.unit) == (
        "ClinicalParameter",
        operator,
        threshold,
        unit,
    ), duration
    assert found[state].role == "Condition", found


def test_how_long_a_drug_is_given_is_no_duration_criterion(lexicon) -> None:  # type: ignore[no-untyped-def]
    """How long a drug is to be given ("aspirin lasting no more than 1 week") says how the
    act is done, not whom it is for: the drug is named alone and no parameter is made."""
    found = named(
        extract(
            lexicon,
            "Triple therapy including aspirin lasting no more than 1 week is advised after PCI "
            "in adults with AF.",
        )
    )
    assert "aspirin" in found, found
    assert not [n for n, c in found.items() if c.role == "ClinicalParameter"], found


@pytest.mark.parametrize(
    ("text", "name", "operator", "threshold", "unit"),
    [
        (
            "Anakinra may be considered in adults with recurrent pericarditis and symptoms "
            "persisting beyond 3 months.",
            "symptom duration",
            ">",
            3.0,
            "months",
        ),
        (
            "A statin is advised in adults with type 1 diabetes of more than 20 years' duration.",
            "type 1 diabetes mellitus duration",
            ">",
            20.0,
            "years",
        ),
        (
            "Cardiac pacing is advised for chronotropic incompetence persisting more than 6 "
            "weeks after transplantation.",
            "chronotropic incompetence duration",
            ">",
            6.0,
            "weeks",
        ),
        (
            "Prognostic testing is not advised earlier than 72 h after cardiac arrest in "
            "comatose adults.",
            "time since cardiac arrest",
            "<",
            72.0,
            "h",
        ),
        (
            "In endocarditis, valve surgery may be considered at least 4 weeks after an "
            "intracranial haemorrhage.",
            "time since intracranial haemorrhage",
            ">=",
            4.0,
            "weeks",
        ),
        (
            "Return to sport may be considered 3 months after acute pericarditis once "
            "inflammatory markers are normal.",
            "time since acute pericarditis",
            "=",
            3.0,
            "months",
        ),
    ],
)
def test_bounds_and_ends_of_durations_and_times_since(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, operator: str, threshold: float, unit: str
) -> None:
    """ "persisting beyond 3 months" is more than 3 months; "20 years' duration" is the
    state's duration too; a state lasting some time after an event is the state's duration;
    "not earlier than 72 h after X" bounds the time since X (the row applies before it), as
    "at least 4 weeks after X" does; and
    the event a time counts from ends where a new clause begins ("once ...")."""
    concept = named(extract(lexicon, text))[name]
    assert (concept.operator, concept.threshold, concept.unit) == (operator, threshold, unit)


@pytest.mark.parametrize(
    "text",
    [
        "Prolonged ECG monitoring lasting at least 72 h should be considered in adults with "
        "cryptogenic stroke.",
        "An exercise training programme lasting 12 weeks is advised in stable adults with HF.",
        "Serum potassium should be checked 1–2 weeks after starting an MRA.",
        "Reassessment of LVEF 3 months after initiation of medical therapy is advised.",
        "Oral antibiotics are advised after 10 days of intravenous treatment, including at least "
        "7 days after valve surgery.",
    ],
)
def test_how_long_an_act_goes_on_or_when_it_is_checked_is_no_parameter(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """How long a test or a programme lasts is a treatment duration, and a check timed after
    a therapy starts is a schedule: neither is a criterion on the patients (contract §2), and
    no number is left glued to a name."""
    found = named(extract(lexicon, text))
    assert not [n for n, c in found.items() if c.role == "ClinicalParameter"], found
    assert not [n for n in found if any(ch.isdigit() for ch in n)], found
