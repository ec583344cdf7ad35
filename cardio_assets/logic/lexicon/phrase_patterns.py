"""Patterns and small helpers the lexicon extractor's phrase readers share: what leads an
outcome, a value with nothing it measures, a second patient group, an abbreviation pair."""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.drafts import Draft
from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS

_OUTCOME_LEAD = re.compile(
    rf"^(?:(?:to\s+)?(?:further\s+)?(?:{_OUTCOME_VERBS})\s+)?(?:the\s+|their\s+|its\s+|his\s+|her\s+)?"
    r"(?:(?:risk|rates?|incidence|number|likelihood)\s+of\s+)?",
    re.IGNORECASE,
)
_VALUE_ONLY = re.compile(
    r"[<>≤≥=~]?\s*[\d.,]+(?:\s*[-–]\s*[\d.,]+)?\s*(?:h|hours?|min|minutes?|days?|weeks?|"
    r"months?|years?|s|mm|cm|%|mmHg|ms)?(?:\s+(?:after|before|of)\s+.*)?",
    re.IGNORECASE,
)
_THEN_START = re.compile(
    r"\band\s+(?:start|initiate|begin|commence|switch\s+to|add|give|use|resume)\b", re.IGNORECASE
)
_ARRIVAL = re.compile(
    r"^\s*(?:admitted|hospitali[sz]ed|presenting|diagnosed|referred|seen)(?=\s+(?:with|for)\b)",
    re.IGNORECASE,
)
# a connector left alone once the values around it are masked ("over 70 years and/or")
_CONNECTIVE_ONLY = re.compile(r"^(?:and/or|and/?|/?or|but|nor)$", re.IGNORECASE)
_EXAMPLE_LEAD = re.compile(r"^(?:including|e\.\s?g\.?|such\s+as|for\s+example)\s", re.I)
_INCLUDING_TAIL = re.compile(r",?\s+(?P<lead>including|such\s+as)\s+(?=\S)", re.IGNORECASE)
_ANOTHER_GROUP = re.compile(
    r",?\s+(?:and|or)\s+(?:in\s+)?(?:(?:those|patients|individuals|people|women|men|adults|children)"
    r"\s+)(?:with|(?P<at>at))\s+",
    re.IGNORECASE,
)
_ABBREVIATION_PAIR = re.compile(
    r"(?P<state>\b(?:elevated|raised|increased|high|low|reduced|decreased|abnormal|positive|"
    r"negative)\s+)?"
    r"(?<![\w/-])(?P<left>[A-Z][\w\-]*|[a-z][a-z\-]{3,})/(?P<right>[A-Z][\w\-]*|[a-z][a-z\-]{3,})"
    r"(?![\w/])(?!\s*(?:ratio\b|[<>≤≥=]|\d))"  # "contrast volume/GFR ratio <3.7": one measure
)
_PAST_PROCEDURE = re.compile(
    r"^(?:a\s+)?(?:(?:history|h/o)\s+of|prior|previous|past|recent)\s+(.+)$", re.IGNORECASE
)


# post-act phrases naming a therapy beside the act, and the function each gives it
_THERAPY_BESIDE: dict[str, str | None] = {
    "background": None,
    "alternative": "comparator",
    "co-therapy": "co-therapy",
}
# acts of keeping something from happening: their object may be a state, not a therapy
_AVOIDING = frozenset({"avoidance", "postponement", "deferral"})


def _head_before(drafts: list[Draft], before: str) -> Draft | None:
    """The concept an aside follows: "an ACE inhibitor (or an ARNI) and a beta-blocker"
    offers the ARNI instead of the ACE inhibitor, the concept written right before the
    bracket, not the last of the phrase. Falls back to the last concept when none of
    them ends the text before the bracket."""
    candidates = [d for d in drafts if d.role != "ClinicalParameter"]
    tail = before.rstrip(" ,;").lower()
    ending = [d for d in candidates if d.text and tail.endswith(d.text.lower())]
    if ending:
        return max(ending, key=lambda d: len(d.text))
    return candidates[-1] if candidates else None


def _clean_grade(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


# "a suspicion of X" is named as the contract's golds name it: "suspected X"
_SUSPICION = re.compile(r"^(?:an?\s+)?suspicion\s+of\s+", re.IGNORECASE)
