"""How much of a drug or an activity a row allows (a part of noise.py's patterns, applied at
their place among them): a dosing scheme or an amount of exercise in brackets, a limit ("to a
maximum of 5% of the day's energy", "5 g per day") and exercise written inline ("120 min/week
of cycling", "4 times a week"), and the size of a dose said in words ("in low doses", "up to
the highest tolerated dose"). None of them is a concept.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.noise_words import _ACTIVITY_AMOUNT, _DOSE_FREQUENCY

# one food of a diet's list: up to a comma, a bracket or the verb of the sentence
_FOOD = (
    r"(?:(?!\s(?:is|are|should|may|can|in|for|to|with|among|patients|adults|people)\b)"
    r"[^,;.()])+"
)

AMOUNT_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # ", each given as 10 mg once a day" with its dose and schedule gone: the verb left says
    # nothing of the drugs
    (
        re.compile(
            r"(?:,\s*(?:(?:each|both|all)\s+)?|\s*\b(?:each|both|all)\s+)(?:taken|given|administered)"
            r"(?:\s+as)?\s*(?=\)|$)",
            re.I,
        ),
        "",
    ),
    # "ticagrelor 60 mg or rivaroxaban 2.5 mg, each taken twice daily", "(A or B, taken once
    # a day)": how often the drugs listed are taken, said of them all; a schedule, no concept
    (
        re.compile(
            r",?\s*\b(?:(?:each|both|all)\s+)?(?:taken|given|administered)"
            rf"(?:\s+(?:orally|by\s+mouth|intravenously))?\s+{_DOSE_FREQUENCY}(?!\w)",
            re.I,
        ),
        "",
    ),
    # a bracket left holding only the words of a dosing scheme ("(loading, daily)"; not a
    # letter glued to a name, "Lp(a)")
    (
        re.compile(
            r"(?:\s+|(?<![A-Za-z]))\(\s*(?:[,;]\s*)*(?:(?:loading|maintenance|daily|initial|doses?|then|followed|by|and|or|"
            r"once|twice|a|day)[\s,;]*)+\)",
            re.I,
        ),
        "",
    ),
    # a bracket holding only how much exercise ("(up to 150 min/week)", "(2 days per week,
    # 6–10 exercises, 10–12 repetitions)"): the dose of an activity, no concept
    (
        re.compile(
            rf"\s*\(\s*{_ACTIVITY_AMOUNT}(?:\s*[,;]\s*(?:and\s+)?{_ACTIVITY_AMOUNT})*\s*\)", re.I
        ),
        "",
    ),
    # "restrict sugar to a maximum of 10% of energy intake": the limit allowed, a dose
    (re.compile(r"\s+to\s+a\s+maximum\s+of\s+[^,;()]+", re.I), ""),
    # "limit salt to (a maximum of) 5 g per day": how much is allowed, a dose
    (
        re.compile(
            r"\s+to\s+(?:a\s+maximum\s+of\s+|at\s+most\s+|less\s+than\s+)?(?:\d+(?:[.,]\d+)?\s*"
            r"(?:g|grams?|mg|units?|drinks?|glass(?:es)?)\s+)?(?:per|a|/)\s*(?:day|week)\b",
            re.I,
        ),
        "",
    ),
    # how much exercise, written inline: "(participation in) at least 120 min/week of X",
    # "20 min of X", "at least 3 times a week", "on 4–5 days a week", "2–3 times per week"
    (
        re.compile(
            r"(?:\b(?:at\s+least|up\s+to)\s+|(?<=\bin\s)|(?<=\bof\s))?(?<!within\s)"
            r"\b\d+(?:\s*[–-]\s*\d+)?"
            r"\s*(?:min(?:utes?)?|h(?:ours?)?)"
            r"(?:\s*/\s*(?:day|week)|\s+(?:per|a|each)\s+(?:day|week))\s+of\s+"
            r"|(?:\b(?:at\s+least|up\s+to)\s+|(?<=\bin\s))\d+(?:\s*[–-]\s*\d+)?"
            r"\s*(?:min(?:utes?)?|h(?:ours?)?)"
            r"\s+of\s+",
            re.I,
        ),
        "",
    ),
    (
        re.compile(
            r",?\s*(?:\bon\s+)?(?:\bat\s+least\s+)?\b\d+(?:\s*[–-]\s*\d+|\s+or\s+more)?"
            r"\s*(?:times|days?|sessions?)"
            r"\s*(?:a|per|/|each)\s*(?:day|week)\b",
            re.I,
        ),
        "",
    ),
    # what a diet is made of ("a diet rich in fibre, nuts and fruit", "a food pattern that
    # includes whole grains and pulses"): the diet is the act, its foods describe it
    (
        re.compile(
            rf"\b(?P<diet>diet|(?:food|eating|dietary)\s+pattern)\s*,?\s*(?:rich\s+in|that\s+includes?)\s+"
            rf"{_FOOD}(?:,\s*(?:and\s+|or\s+)?(?:(?:rich\s+in|that\s+includes?)\s+)?"
            rf"(?!\s*(?:with|in|for|to)\b){_FOOD})*"
            # "…, with a high flavonoid intake": one more thing the diet is made of
            r"(?:,\s*with\s+an?\s+(?:high|low|reduced|increased)\s+(?:[\w\-]+\s+){0,2}intake\b)?",
            re.I,
        ),
        r"\g<diet>",
    ),
    # "aerobic exercise of at least 30 min (per week)", "training of 150 min a week at moderate
    # intensity": the amount written after the activity
    (
        re.compile(
            r"\b(?P<what>activity|exercise|training|walking|sessions)"
            r"\s+of\s+(?:at\s+least\s+|up\s+to\s+)?\d+(?:\s*[–-]\s*\d+)?\s*(?:min(?:utes?)?|h(?:ours?)?)"
            r"(?:\s*/\s*(?:day|week)|\s+(?:per|a|each)\s+(?:day|week))?",
            re.I,
        ),
        r"\g<what>",
    ),
    # "150 min of walking per week" once the amount is gone: the "per week" left behind
    (re.compile(r"(?<=[A-Za-z])\s+per\s+(?:day|week|month)\b", re.I), ""),
]


# how much of the drug, said in words ("in low doses", "up to the highest tolerated dose",
# "(at a reduced dose)"): no concept; a dose bounded by a value is a measure and stays
DOSE_SIZE_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # dose intensity: "up to the highest tolerated dose", "in maximally tolerated doses"
    (
        re.compile(
            r"\b(?:(?:up-?)?titrated\s+(?:up\s+)?to|up\s+to|at|in)\s+(?:the\s+)?"
            r"(?:highest|maximum|maximally)"
            r"\s+tolerated\s+"
            r"(?:doses?|dosages?)\b",
            re.I,
        ),
        "",
    ),
    # "in low doses", "at a reduced dose", "at target dose", "at medium high doses": how
    # much, not what or for whom
    (
        re.compile(
            r"\s+(?:in|at)\s+(?:an?\s+|the\s+)?(?:(?:low|lower|medium|moderate|intermediate|high|"
            r"higher|reduced|full|standard|usual|target)[\s-]+)?(?:low|lower|medium|moderate|"
            r"intermediate|high|higher|reduced|full|standard|usual|target)\s+"
            r"dos(?:e|es|age|ages)\b"
            # (not "at low-dose dobutamine echocardiography", "in high-dose statin trials":
            # there the dose names a kind of test or therapy)
            r"(?=\s*(?:[,.;:)]|$)|\s+(?:of|for|in|and|or|if|when|until|with|is|are|should|may|"
            r"shortly|just|immediately|before|after|during|once|twice|daily)\b)",
            re.I,
        ),
        "",
    ),
    # "at a vascular-protection dose", "at the lower approved dose": which dose, in any words,
    # where a bracket, a punctuation mark or a word that opens the next phrase follows (a
    # dose that names a kind of test or therapy, "at low-dose dobutamine echo", stays)
    (
        re.compile(
            r"\s+at\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+[\s-]dos(?:e|es|age|ages)\b"
            r"(?=\s*(?:[,.;:()]|$)|\s+(?:for|in|and|or|if|when|until|with|to|is|are|should|may)\b)",
            re.I,
        ),
        "",
    ),
    # a bracket about the dose: "(lowest efficacious doses)", "(at a reduced dose)"
    (re.compile(r"\s*\([^()]*\bdos(?:e|es|age|ages|ing)\b[^()]*\)", re.I), ""),
    # ("a cumulative dose of ≥300 mg/m2": a dose bounded by a value is a measure, kept)
    (re.compile(r"(?<=\w)\s+dose\b(?!-)(?!\s+of\s+(?:[<>≤≥]|at\s+least|more\s+than))", re.I), ""),
]
