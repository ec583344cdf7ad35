"""Causes a row names between two states (a part of noise.py's patterns, applied at their
place among them): a cause ruled out ("shock not caused by sepsis": without sepsis) and a
state causing another ("tamponade causing hypotension": both), unless what causes is a
drug or a kind of agent ("drugs causing bradycardia": one kind of drug).
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.role_words import DRUG_STEM, heuristic_role

# a noun that names what a drug or a factor does: "drugs causing bradycardia" is a kind of drug
_AGENT_NOUN = re.compile(
    r"drugs?|agents?|medications?|medicines?|therap(?:y|ies)|treatments?|substances?|factors?|"
    r"conditions?|diseases?|disorders?|mutations?|variants?",
    re.IGNORECASE,
)


def _names_an_agent(word: str) -> bool:
    """A word before "causing" that names what causes (a drug, a kind of agent) or says how
    surely ("possibly causing"): the phrase names a kind of thing, not two states."""
    return bool(
        _AGENT_NOUN.fullmatch(word)
        or word.lower().endswith("ly")
        or heuristic_role(word.lower()) == "Medication"
        or re.search(DRUG_STEM + r"s?$", word, re.IGNORECASE)
    )


CAUSE_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "shock not caused by arrhythmia or sepsis": the patients have X without those causes,
    # read as "without" (each cause negated, none of them an alternative to X)
    (
        re.compile(
            r"(?<!\bis)(?<!\bare)(?<!\bwas)(?<!\bwere),?\s+not\s+(?:caused\s+by|due\s+to|"
            r"explained\s+by|attributable\s+to|"
            r"secondary\s+to)\s+",
            re.I,
        ),
        " without ",
    ),
    # "tamponade causing hypotension": the patients have both ("drugs causing bradycardia"
    # names a kind of drug by what it does, and stays whole)
    (
        re.compile(
            r"(?P<before>\b[a-z][\w-]*)\s+(?:causing|resulting\s+in)\s+"
            r"(?=[a-z])",
            re.I,
        ),
        lambda m: m[0] if _names_an_agent(m["before"]) else f"{m['before']} and ",
    ),
]
