"""When an act is done, and for how long, as a row writes it (a part of noise.py's patterns,
applied at their place among them): durations and time windows of nothing named are cut
out, and the week of a pregnancy an act is done in becomes the gestational age it applies at.
"""

from __future__ import annotations

import re
from typing import Any

_GESTATION_WEEK = re.compile(
    r",?\s*\b(?P<prep>at|until|by|before|from|after|between)\s+(?:the\s+)?"
    r"(?:around\s+|about\s+|approximately\s+)?"
    r"(?:weeks\s+(?P<weeks_n>\d+)\s+and\s+(?P<last>\d+)"
    r"|(?P<n>\d+)(?P<ordinal>st|nd|rd|th)?\s*weeks?)"
    r"(?:\s+of\s+(?P<of>gestation|pregnancy))?\b",
    re.I,
)
_PREGNANCY_WORD = re.compile(r"\b(?:pregnan\w*|gestation\w*|trimesters?|deliver(?:y|ed))\b", re.I)


def _gestational_age(m: re.Match[str]) -> str:
    pregnant = m["of"] or m["ordinal"] or m["weeks_n"] or _PREGNANCY_WORD.search(m.string)
    if not pregnant:
        return "" if m["prep"].lower() == "at" else m[0]
    if m["weeks_n"]:  # "between weeks 6 and 12"
        return f" (gestational age between {m['weeks_n']} and {m['last']} weeks)"
    operator = {"until": "≤", "by": "≤", "before": "<", "from": "≥", "after": ">"}.get(
        m["prep"].lower(), ""
    )
    return f" (gestational age {operator}{m['n']} weeks)"


# the week of a pregnancy something is done in ("at 36 weeks of gestation", "until the
# 36th week", "between weeks 6 and 12") is the gestational age it applies at, a
# criterion; any other "at N weeks" only times a test
GESTATION_REWRITE: tuple[re.Pattern[str], Any] = (_GESTATION_WEEK, _gestational_age)

DURATION_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # durations: "for 6 months", "for up to 12 months", "within the first week"; a window
    # counted from a named event ("within 48 hours of admission") is a criterion and stays,
    # and so does one counted back from now ("a stroke within the past 6 months": the time
    # since the stroke, contract §5)
    (
        re.compile(
            r"\b(?:for|within|during|over(?!\s+\d+\s*years?\b))\s+"
            r"(?:up\s+to\s+|at\s+least\s+|the\s+first\s+)?"
            r"(?:(?:days?|weeks?|months?|years?|hours?)\b|\d+\s*"
            r"(?:days?|weeks?|months?|years?|hours?|h|min|minutes?)\b"
            r"(?!\s+(?:of|after|from|following|since)\s))",
            re.I,
        ),
        "",
    ),
    (
        re.compile(
            r"\bfor\s+(?:up\s+to\s+|at\s+least\s+)?(?:\d+\s*)?"
            r"(?:days?|weeks?|months?|years?|hours?)\b",
            re.I,
        ),
        "",
    ),
    # durations of a therapy: "for longer than 2 weeks and up to 4 months", "an OAC up to 3
    # months" (not years: "up to 75 years" is an age)
    (
        re.compile(
            r"\s*\b(?:for\s+)?(?:longer|shorter)\s+than\s+\d+\s*(?:days?|weeks?|months?)\b"
            r"|\s*\b(?:and\s+)?up\s+to\s+\d+\s*(?:days?|weeks?|months?)\b"
            r"(?!\s+(?:of|after|from|following|since|before)\s)",
            re.I,
        ),
        "",
    ),
    # time windows: "less than 40 days after ..." keeps "after ..."
    (
        re.compile(
            r"\b(?:less|more|fewer)\s+than\s+\d+\s*(?:days?|weeks?|months?|years?|hours?)\s*",
            re.I,
        ),
        "",
    ),
]
