"""How a row words a target the act is to reach (a part of noise.py's patterns, applied at
their place among them): "X should be lowered to N" and "<140 and down to 130 mmHg" are
rewritten in the words the measurement grammar reads as a quantity and its target.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.measurement_units import UNIT_RE

TARGET_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "that X should (finally) be reduced to (a target range of) N", "Y is recommended to be
    # kept below N": the quantity and its target, read like "to lower X to N"
    (
        re.compile(
            # (a quantity in up to four words, "office systolic blood pressure", opens the
            # sentence, a clause after a comma, or "that …"; one written as a capitalised
            # abbreviation, "LDL-C", may stand anywhere: "In patients with diabetes HbA1c …")
            r"(?:(?:(?i:\bit\s+is\s+recommended\s+that\s+)|^|(?<=[,;:]\s))"
            r"(?P<what>(?:(?!(?:in|for|with|of|and|or|the|an?|patients|who|when|if)\b)"
            r"[A-Za-z][\w\-]*\s+){0,3}(?:pressure|cholesterol|levels?|concentrations?|rate|"
            r"[A-Z][\w\-]*))|(?P<one>\b[A-Z][\w\-]*))\s+"
            r"(?:should|must|is\s+recommended\s+to)\s+"
            r"(?:\w+ly\s+)?be\s+(?:lowered|reduced|decreased|brought(?:\s+down)?|targeted|kept|"
            r"maintained)\s+(?P<prep>to|at|below|under|beneath)\s+(?P<below>(?:below|beneath)\s+)?"
            r"(?:an?\s+target\s+(?:range\s+|value\s+)?of\s+)?"
            r"(?=[<>≤≥]?\s?\d)",
        ),
        lambda m: (
            f"it is recommended to lower {m['what'] or m['one']} to "
            + ("<" if m["below"] or m["prep"].lower() in ("below", "under", "beneath") else "")
        ),
    ),
    # "<140 and down to 130 mmHg": below the first value, and not below the second; the unit
    # written once belongs to both
    (
        re.compile(
            r"(?P<op>[<≤])\s?(?P<a>\d+(?:\.\d+)?)\s+and\s+down\s+to\s+(?P<b>\d+(?:\.\d+)?)\s*"
            r"(?P<unit>mm\s?Hg|%|mmol/L|mg/dL)"
        ),
        r"\g<op>\g<a> \g<unit> and ≥\g<b> \g<unit>",
    ),
    # "a BMI from 40 kg/m² upward", "from a score of 2 upward": the value and above, read
    # as "≥" before it (not "from day 1 onwards", when a course starts: read below)
    (
        re.compile(
            r"\bfrom\s+(?P<lead>(?:an?\s+)?(?:[\w\-]+\s+){0,2}?(?:of\s+)?)"
            r"(?<!\bday\s)(?<!\bweek\s)(?<!\bmonth\s)(?<!\byear\s)(?<!\btrimester\s)"
            rf"(?P<value>\d+(?:\.\d+)?(?:\s?(?:{UNIT_RE}))?)\s+(?:upwards?|onwards?)\b",
            re.I,
        ),
        r"\g<lead>≥\g<value>",
    ),
    # "from day 1 onwards", "from week 12 upward": when a course starts, no value of the
    # patients and no criterion
    (
        re.compile(
            r",?\s*\bfrom\s+(?:(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?(?:day|week|month|year|trimester)"
            r"\s+\d*|(?:the\s+)?(?:first|second|third)\s+(?:day|week|month|year|trimester))\s*"
            r"(?:upwards?|onwards?)\b",
            re.I,
        ),
        "",
    ),
]
