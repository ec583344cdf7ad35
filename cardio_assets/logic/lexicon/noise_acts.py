"""How a row words the course of its act (a part of noise.py's patterns, applied at their
place among them): what the act is a bridge to, the level a dose is titrated to, how long the
act is continued and when it is timed. The bridge's end is an act of its own and the level a
target; the rest names nothing.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.role_words import heuristic_role

# a word before a participle that makes it a verb of its own, or its subject the patients
_NOT_AN_ACT_BEFORE = re.compile(
    r"is|are|be|been|was|were|being|not|never|\w+ly|patients?|people|those|who|individuals|"
    r"adults|women|men|children",
    re.I,
)

# what a bridge may end in that is no act: recovery, a decision, candidacy for a transplant
_BRIDGE_END = r"(?:recovery|(?:a\s+)?(?:further\s+)?decision|candidacy)\b"

ACT_COURSE_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "as a bridge to transplantation": what the act tides the patient over to, named as the
    # act it comes before ("as a bridge" alone, or "as destination therapy", says how long
    # the act is meant to last: no concept)
    # ... unless what it tides over to is no act but a state or a choice ("as a bridge to
    # recovery or to a further decision"): then the bridge is what the act is for
    (
        re.compile(
            rf"\bas\s+(?:an?\s+)?(?P<bridge>bridge\s+to\s+{_BRIDGE_END})(?P<alt>\s+or\s+(?:to\s+)?(?={_BRIDGE_END}))?",
            re.I,
        ),
        lambda m: f"to allow {m['bridge']}" + (" or " if m["alt"] else ""),
    ),
    (re.compile(r"\bas\s+(?:an?\s+)?bridge\s+to\s+", re.I), "before "),
    (re.compile(r",?\s*\bas\s+(?:an?\s+)?(?:bridge|destination\s+therapy)\b(?!\s+to\b)", re.I), ""),
    # "warfarin titrated to an INR of 2.5": the level the dose is adjusted to reach, a target
    (
        re.compile(
            r"(?<!\bdose)(?<!\bdoses)(?<!\bdosing)(?<!\bdosage)\s+(?:titrated|adjusted)\s+to\s+"
            # (only to a value: "adjusted to renal function" names no target)
            r"(?=(?:an?\s+|the\s+)?(?:target\s+)?(?:[A-Za-z][\w-]*\s+){1,3}(?:of\s+)?[<>≤≥]?\s*\d)",
            re.I,
        ),
        " to reach ",
    ),
    # "DAPT combining aspirin with a P2Y12 inhibitor": a combination and its parts, said as
    # "DAPT with aspirin and a P2Y12 inhibitor" (the parts are the acts, as there); a bracket
    # after the first part (its dose, "aspirin (75–100 mg/day) with …") goes with it
    (
        re.compile(
            r"\bcombining\s+(?P<first>(?:(?!(?:with|is|are|should|may|must|in|for|among|who)\b)"
            r"[\w\-/]+\s+){0,3}?(?!(?:with|is|are|should|may|must|in|for|among|who)\b)[\w\-/]+"
            r"(?:\s*\([^()]*\))?)"
            r"\s+with\s+",
            re.I,
        ),
        r"with \g<first> and ",
    ),
    # "Combining antiplatelet and anticoagulant therapy is not recommended": the parts joined
    # by "and" are the acts themselves; "combining" opening the row only leads in to them
    # ("rehabilitation combining A and B" names what the programme holds, and stays)
    (
        re.compile(
            r"(?:^|(?<=[.;:]\s))combining\s+(?=(?:(?!(?:with|is|are|should|may|must|in|for|among|who)\b)"
            r"[\w\-/]+\s+){1,4}?and\s)",
            re.I,
        ),
        "",
    ),
    # "an INR of 2.5 (range 2.0–3.0)": the bracket gives the same quantity's range
    (re.compile(r"\(\s*(?:target\s+)?range(?:\s+of)?\s+(?=[\d<>≤≥])", re.I), "("),
    # "ticagrelor continued to complete 12 months", "continued for 6 months": how long, no
    # concept
    (
        re.compile(
            r"\s+continued\s+(?:to\s+complete|for|until|up\s+to)\s+(?:at\s+least\s+)?"
            r"\d+(?:\s*[–-]\s*\d+)?\s*(?:days?|weeks?|months?|years?)\b",
            re.I,
        ),
        "",
    ),
    # "with OAC continued afterwards", "aspirin continued lifelong": that it goes on, no
    # part of the drug's name
    (
        re.compile(
            r"\s+continued\s+(?:afterwards?|thereafter|indefinitely|lifelong|long-term)"
            r"(?=\s*(?:[,;.)]|$))",
            re.I,
        ),
        "",
    ),
    # "cardiac surgery for another indication": the reason for the other act is not said,
    # so it names nothing
    (
        re.compile(
            r"\s+for\s+(?:another|(?:any|some)\s+other|other)\s+(?:indications?|reasons?)\b", re.I
        ),
        "",
    ),
    # "should be screened periodically for X", "monitored closely for X": how often or how
    # carefully, after the verb; no concept
    (
        re.compile(
            r"\b(?P<verb>screened|monitored|assessed|evaluated|reviewed|checked|tested|"
            r"examined|followed\s+up)\s+(?:periodically|regularly|routinely|systematically|"
            r"annually|yearly|closely|carefully)\b",
            re.I,
        ),
        lambda m: m["verb"],
    ),
    # "timed 2–24 h after lysis": when it is done, the window stays for the grammar to read
    (re.compile(r"\btimed\s+(?=(?:\d|within\b|between\b|at\b))", re.I), ""),
    # "an MRI performed at least 6 weeks after X", "a scan done before surgery": the participle
    # only says the act is done; the time or the event stays for the grammar to read. Not
    # after a verb, "not" or an adverb ("is not given before X", "urgently performed"), nor
    # after the patients ("patients given 3 months of DAPT")
    (
        re.compile(
            r"(?P<before>\b[\w\-]+|\))\s+(?:performed|done|undertaken|carried\s+out|obtained|given|"
            r"administered)\s+"
            r"(?=(?:\d|[<>≤≥]|within\b|between\b|at\s+least\b|(?:more|less)\s+than\b|"
            r"(?:after|before|during|following)\b))",
            re.I,
        ),
        lambda m: m[0] if _NOT_AN_ACT_BEFORE.fullmatch(m["before"]) else f"{m['before']} ",
    ),
    # "a short period of triple therapy", "a 3-month course of colchicine": how long the
    # drug is given, no part of its name
    (
        re.compile(
            r"(?<=[^.:;\s]\s)(?:an?\s+|the\s+)?"  # (not opening a sentence: its capital)
            r"(?:short|brief|limited|initial|\d+[\s-]*(?:day|week|month)s?)"
            r"\s+(?:period|course)\s+of\s+(?=[A-Za-z])",
            re.I,
        ),
        "",
    ),
    # "a short corticosteroid course", "a 5-day antibiotic course": the same, said before
    # the drug's name (only a drug's: "a brief clinical course" is how a disease runs)
    (
        re.compile(
            r"\b(?:short|brief|limited|\d+[\s-]*(?:day|week|month)s?)\s+(?P<drug>[A-Za-z][\w\-]*)"
            r"\s+course\b",
            re.I,
        ),
        lambda m: m["drug"] if heuristic_role(m["drug"].lower()) == "Medication" else m[0],
    ),
    # "at any stage of pregnancy", "at any time during X": whenever the state holds; the
    # state is the criterion
    (re.compile(r"\bat\s+any\s+(?:stage|time|point)\s+(?:of|during|in)\s+", re.I), "during "),
    # "before (hospital) discharge": when the act is done, not a state of the patients (the
    # golds never name it; "before conception" they name as a state, so it stays)
    (
        re.compile(
            r",?\s*\b(?:before|prior\s+to|at(?:\s+the\s+time\s+of)?)\s+(?:(?:the\s+)?hospital\s+)?"
            r"discharge(?:\s+from\s+(?:the\s+)?hospital)?\b(?!\s+(?:from|of|planning)\b),?",
            re.I,
        ),
        " ",
    ),
]
